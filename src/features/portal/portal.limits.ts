import type { AttemptBucket } from "../sessions/rate-limit";

/**
 * How often the public forms may be posted in any 15 minutes (src/features/sessions/rate-limit.ts). The
 * contact form opens tickets for anyone, so it is the tighter: 10 posts per IP and 5 per email
 * address. A reply needs the ticket's unguessable link: 20 per IP and 20 per ticket customer.
 */
export const CONTACT_POSTS: AttemptBucket = { scope: "portal-contact:", perIp: 10, perEmail: 5 };
export const REPLY_POSTS: AttemptBucket = { scope: "portal-reply:", perIp: 20, perEmail: 20 };
