import { z } from "@hono/zod-openapi";
import { defineRoute } from "../../lib/openapi";
import { htmlPage } from "../sessions/login.routes";

const tags = ["Development"];

const MailboxSchema = z
  .object({
    data: z.array(
      z.object({
        id: z.string(),
        from: z.string(),
        to: z.array(z.string()),
        subject: z.string(),
        created_at: z.string(),
        recipient: z.string().openapi({ description: "This copy's one envelope recipient (RCPT TO)." }),
        return_path: z.string().openapi({
          description: "This copy's envelope sender (MAIL FROM): the recipient's own VERP bounce address.",
        }),
        raw: z.string().openapi({
          description:
            "The copy as the recipient's server would store it: `Return-Path: <return_path>` on top of the signed MIME every copy shares.",
        }),
      }),
    ),
  })
  .openapi("DevMailbox");

const onlyInDevelopment =
  "Only when ENVIRONMENT=development (404 elsewhere). No authentication: the local database is the developer's own.";

export const mailboxPageRoute = defineRoute("public", {
  method: "get",
  path: "/_dev/mailbox",
  tags,
  summary: "Development mailbox",
  description: `Like Mailpit: the 50 newest emails the capture transport kept (every workspace, system mail such as invitations and sign-in links included), newest first, one entry per envelope (each recipient's copy, with its own \`Return-Path\`, the recipient's VERP bounce address), each with its raw MIME. ${onlyInDevelopment}`,
  responses: { 200: htmlPage("The mailbox.") },
});

export const mailboxJsonRoute = defineRoute("public", {
  method: "get",
  path: "/_dev/mailbox.json",
  tags,
  summary: "Development mailbox (JSON)",
  description: `The same messages as /_dev/mailbox: \`{ data: [{ id, from, to, subject, created_at, recipient, return_path, raw }] }\`, newest first, one entry per envelope (an email to three recipients is three entries with the same \`id\`). ${onlyInDevelopment}`,
  responses: {
    200: { description: "The messages.", content: { "application/json": { schema: MailboxSchema } } },
  },
});
