import { principalOf } from "../../auth/principal";
import { createRouter } from "../../lib/router";
import { decodeRaw } from "./emails.raw";
import { relayCredentialsRoute, sendRawEmailRoute } from "./emails.raw.routes";
import { sendRaw } from "./emails.send";

export const rawEmailsRouter = createRouter()
  .openapi(sendRawEmailRoute, async (c) => {
    const body = c.req.valid("json");
    const answer = await sendRaw(
      c.var.ctx,
      decodeRaw(body.raw),
      { mailFrom: body.mail_from, rcptTo: body.rcpt_to },
      body,
      c.req.valid("header")["idempotency-key"],
    );
    return c.json(answer.body as never, answer.status);
  })
  .openapi(relayCredentialsRoute, (c) => {
    const principal = principalOf(c);
    return c.json(
      {
        object: "relay_credentials" as const,
        account_id: principal.accountId,
        key_id: principal.keyId,
        key_prefix: principal.keyPrefix,
      },
      200,
    );
  });
