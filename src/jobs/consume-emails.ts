import { z } from "@hono/zod-openapi";
import { deliverEmail } from "../features/emails/deliver";
import { describeError, log } from "../lib/logger";

const SendMessageSchema = z.object({ emailId: z.string().regex(/^eml_/) });

/** Sends each email of the batch, concurrently; a message is acked once its email is settled. */
export async function consumeEmails(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      const parsed = SendMessageSchema.safeParse(message.body);
      if (!parsed.success) {
        log.warn("emails.malformed_message", { message_id: message.id });
        message.ack();
        return;
      }
      try {
        const outcome = await deliverEmail(env, parsed.data.emailId);
        if (outcome.kind === "retry") message.retry({ delaySeconds: outcome.delaySeconds });
        else message.ack();
      } catch (error) {
        log.error("emails.delivery_error", { email_id: parsed.data.emailId, ...describeError(error) });
        message.retry({ delaySeconds: 30 });
      }
    }),
  );
}
