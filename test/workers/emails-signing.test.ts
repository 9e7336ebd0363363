import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deliverEmails } from "../../src/features/emails/deliver";
import { encryptSecret } from "../../src/lib/crypto";
import { generateDkimKeyPair } from "../../src/mail/dkim/keys";
import { signDkim } from "../../src/mail/dkim/sign";
import { call, callJson, sendingWorkspace, shardEnv } from "./helpers";

type Workspace = Awaited<ReturnType<typeof sendingWorkspace>>;

/** An accepted email the queue leaves alone (scheduled an hour ahead), then made due for the test to send. */
async function dueEmail(ws: Workspace, subject: string): Promise<string> {
  const scheduled_at = new Date(Date.now() + 3_600_000).toISOString();
  const { body } = await callJson<{ id: string }>("POST", "/v1/emails", {
    token: ws.token,
    body: { from: `a@${ws.domain}`, to: "b@example.com", subject, text: "x", scheduled_at },
  });
  await env.DB_2.prepare("UPDATE emails SET scheduled_at = ? WHERE id = ?")
    .bind(Date.now() - 1000, body.id)
    .run();
  return body.id;
}

const stored = async (id: string) => (await (await env.FILES.get(`emails/${id}/message.eml`))?.text()) ?? "";

const emailRow = (id: string) =>
  env.DB_2.prepare("SELECT status, last_response FROM emails WHERE id = ?")
    .bind(id)
    .first<{ status: string; last_response: string }>();

/** The message without its DKIM-Signature field, and that field's t=. */
function unsigned(raw: string) {
  const signed = raw;
  const end = signed.search(/\r\n(?![ \t])/);
  const timestamp = Number(/t=(\d+);/.exec(signed.slice(0, end))?.[1]);
  return { signed, mime: signed.slice(end + 2), timestamp };
}

describe("signing a queue batch", () => {
  it("signs with the key the connection holds now: a rotated key is used for the next email", async () => {
    const ws = await sendingWorkspace("rotate.test");
    const first = await dueEmail(ws, "before");
    expect(await deliverEmails(shardEnv(), [first])).toEqual([{ kind: "done", status: "sent" }]);

    const keys = await generateDkimKeyPair();
    await env.DB_2.prepare(
      "UPDATE connections SET dkim_private_key_encrypted = ?, dkim_selector = 'rot2' WHERE id = ?",
    )
      .bind(await encryptSecret(env.ENCRYPTION_KEY, keys.privateKey), ws.connection.id)
      .run();
    const second = await dueEmail(ws, "after");
    expect(await deliverEmails(shardEnv(), [second])).toEqual([{ kind: "done", status: "sent" }]);

    // RSASSA-PKCS1-v1_5 is deterministic: only the new key yields the very bytes that were sent.
    const { signed, mime, timestamp } = unsigned(await stored(second));
    const resigned = await signDkim(mime, {
      domain: "rotate.test",
      selector: "rot2",
      privateKey: keys.privateKey,
      timestamp,
    });
    expect(resigned).toBe(signed);
  });

  it("fails an email whose domain was deleted after it was accepted, though the isolate signed for it before", async () => {
    const ws = await sendingWorkspace("gone.test");
    const first = await dueEmail(ws, "before");
    const second = await dueEmail(ws, "after");
    expect(await deliverEmails(shardEnv(), [first])).toEqual([{ kind: "done", status: "sent" }]);

    expect((await call("DELETE", `/v1/connections/${ws.connection.id}`, { token: ws.token })).status).toBe(
      200,
    );
    expect(await deliverEmails(shardEnv(), [second])).toEqual([{ kind: "done", status: "failed" }]);
    expect((await emailRow(second))?.last_response).toMatch(/connection was deleted before sending/);
  });

  it("sends every email of a batch once, one listed twice included", async () => {
    const ws = await sendingWorkspace("batch.test");
    const [a, b] = [await dueEmail(ws, "a"), await dueEmail(ws, "b")];
    const outcomes = await deliverEmails(shardEnv(), [a, b, a]);
    expect(outcomes.map((o) => o.kind)).toEqual(["done", "done", "done"]);
    const sent = await env.DB_2.prepare(
      "SELECT e.id AS email_id, count(*) AS n FROM email_events v JOIN emails e ON e.seq = v.email_seq WHERE e.id IN (?, ?) AND v.type = 'sent' GROUP BY e.id",
    )
      .bind(a, b)
      .all<{ n: number }>();
    expect(sent.results.map((r) => r.n)).toEqual([1, 1]);
    expect(await deliverEmails(shardEnv(), [a])).toEqual([{ kind: "skipped" }]);
  });
});
