import { z } from "@hono/zod-openapi";
import { isValidAddress } from "../../mail/address";
import { MAX_MESSAGE_BYTES } from "./emails.checks";

/** Room for a 25 MB message in base64 plus line breaks; the decoded size decides the 413. */
const MAX_RAW_CHARS = Math.ceil((MAX_MESSAGE_BYTES * 4) / 3) + 1_048_576;

const EnvelopeAddress = z.string().max(320).refine(isValidAddress, "not an email address");

export const RawEmailBodySchema = z
  .object({
    mail_from: z.union([EnvelopeAddress, z.literal("")]).openapi({
      description: "The SMTP envelope sender (MAIL FROM); used only when the message has no From.",
    }),
    rcpt_to: z
      .array(EnvelopeAddress)
      .min(1)
      .max(1000)
      .openapi({ description: "The SMTP envelope recipients (RCPT TO): exactly who receives the message." }),
    raw: z
      .string()
      .min(1)
      .max(MAX_RAW_CHARS)
      .regex(/^[A-Za-z0-9+/=\r\n]+$/, "must be base64")
      .openapi({ description: "The RFC 5322 message as received, base64-encoded." }),
  })
  .strict()
  .openapi("SendRawEmailRequest");

export type RawEmailInput = z.infer<typeof RawEmailBodySchema>;

export const RelayCredentialsSchema = z
  .object({
    object: z.literal("relay_credentials"),
    account_id: z.string(),
    key_id: z.string(),
    key_prefix: z.string(),
  })
  .openapi("RelayCredentials");
