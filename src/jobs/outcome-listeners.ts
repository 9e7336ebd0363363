import { campaignProgress } from "../features/campaigns/progress";
import { emailWebhookEvents } from "../features/email-webhooks/outcome-listener";
import { emailRollups } from "../features/reports/email-rollups";
import { registerDeliveryOutcomeListener } from "../mail/delivery-outcomes";

// Imported for its effect by every entry (src/index.ts, src/app.ts, the workers tests' setup):
// the features that count delivery outcomes hear them without the senders importing them.
registerDeliveryOutcomeListener(campaignProgress);
registerDeliveryOutcomeListener(emailRollups);
registerDeliveryOutcomeListener(emailWebhookEvents);
