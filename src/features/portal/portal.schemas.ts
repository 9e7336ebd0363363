import { z } from "@hono/zod-openapi";
import { maxJsonBytes } from "../../lib/input";
import { emailAddress } from "../../mail/address-schema";
import { CustomerName } from "../customers/customers.schemas";
import { MAX_MESSAGE_BODY_BYTES, TicketSubject } from "../tickets/tickets.schemas";

/** The honeypot: hidden from people, who are told to leave it empty; a bot that fills it is ignored. */
export const HONEYPOT_FIELD = "website";

const Honeypot = z.string().max(1000).optional().openapi({
  description:
    'The honeypot: hidden on the page and labelled "leave this field empty". When it is filled, the post is answered as a success and nothing is stored.',
});

/** The API's limit for `body_text`, counted the same way, so a portal message always fits its row and event. */
const MessageText = z
  .string()
  .trim()
  .min(1)
  .superRefine(maxJsonBytes(MAX_MESSAGE_BODY_BYTES))
  .openapi({
    description: `The message, stored as the message's \`body_text\`: at most ${MAX_MESSAGE_BODY_BYTES} bytes as JSON, as in POST /v1/tickets/{id}/messages. Line breaks are stored as \`\\n\`.`,
  });

export const ReplyFormSchema = z.object({ message: MessageText, [HONEYPOT_FIELD]: Honeypot });

export const ContactFormSchema = z.object({
  name: CustomerName,
  email: emailAddress("The customer's address: the ticket's customer is found or created by it."),
  subject: TicketSubject,
  message: MessageText,
  [HONEYPOT_FIELD]: Honeypot,
});

export const SharedUuidParams = z.object({
  // Any string: a malformed id must get the same HTML 404 as an unknown one, not a JSON 400.
  shared_uuid: z
    .string()
    .openapi({ param: { name: "shared_uuid", in: "path" }, example: "shr_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

export const InboxIdParams = z.object({
  inbox_id: z
    .string()
    .openapi({ param: { name: "inbox_id", in: "path" }, example: "inb_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

/** The fields a form page shows again after a refusal: what was typed, as text. */
export type FormValues = Partial<Record<"name" | "email" | "subject" | "message", string>>;
