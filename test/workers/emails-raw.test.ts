import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { addKey, call, callJson, errorBody, eventually, sendingWorkspace } from "./helpers";

type Email = Record<string, unknown> & { id: string; status: string };

const b64 = (text: string) => btoa(text);

/** A message as an SMTP client would write it: alternative bodies, an inline image and a file. */
function rawMessage(from: string, extraHeaders: string[] = []) {
  return [
    `From: "Acme Billing" <${from}>`,
    "To: Ada <ada@example.com>, stranger@example.com",
    "Cc: grace@example.com",
    "Subject: =?UTF-8?B?UmVjZWlwdCDinJM=?=",
    "Message-ID: <client-123@client.example>",
    "Date: Mon, 02 Nov 2026 10:00:00 +0000",
    "In-Reply-To: <earlier@client.example>",
    "X-Entity-Ref-ID: r-42",
    ...extraHeaders,
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="outer"',
    "",
    "--outer",
    'Content-Type: multipart/related; boundary="rel"',
    "",
    "--rel",
    'Content-Type: multipart/alternative; boundary="alt"',
    "",
    "--alt",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Thanks!",
    "--alt",
    "Content-Type: text/html; charset=utf-8",
    "",
    '<p>Thanks!</p><img src="cid:logo@acme">',
    "--alt--",
    "--rel",
    "Content-Type: image/png",
    "Content-Transfer-Encoding: base64",
    "Content-ID: <logo@acme>",
    'Content-Disposition: inline; filename="logo.png"',
    "",
    b64("PNGBYTES"),
    "--rel--",
    "--outer",
    "Content-Type: application/pdf",
    "Content-Transfer-Encoding: base64",
    'Content-Disposition: attachment; filename="receipt.pdf"',
    "",
    b64("%PDF-1.4 receipt"),
    "--outer--",
    "",
  ].join("\r\n");
}

const sendRaw = (token: string, raw: string, rcpt: string[], mailFrom = "bounce@raw.test") =>
  callJson<Email>("POST", "/v1/emails/raw", {
    token,
    body: { mail_from: mailFrom, rcpt_to: rcpt, raw: b64(raw) },
  });

async function waitForSent(token: string, id: string) {
  return eventually(async () => {
    const { body } = await callJson<Email>("GET", `/v1/emails/${id}`, { token });
    return body.status === "sent" ? body : null;
  });
}

describe("POST /v1/emails/raw", () => {
  it("sends to the envelope only: Bcc delivered, never in a header; parts, headers and Message-ID kept", async () => {
    const ws = await sendingWorkspace("raw.test");
    const { status, body } = await sendRaw(
      ws.token,
      rawMessage("billing@raw.test", ["X-Track-Opens: yes", "Bcc: leaked@example.com"]),
      ["ada@example.com", "grace@example.com", "hidden@example.com"],
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: expect.stringMatching(/^eml_/), status: "queued" });

    const sent = await waitForSent(ws.token, body.id);
    expect(sent).toMatchObject({
      from: "Acme Billing <billing@raw.test>",
      // stranger@ is in the To header but not in the envelope: not a recipient.
      to: ["Ada <ada@example.com>"],
      cc: ["grace@example.com"],
      bcc: ["hidden@example.com"],
      subject: "Receipt ✓",
      track_opens: true,
      message_id: "<client-123@client.example>",
    });
    const raw = await (await call("GET", `/v1/emails/${body.id}/content`, { token: ws.token })).text();
    expect(raw.toLowerCase()).not.toContain("bcc:");
    expect(raw).not.toContain("hidden@example.com");
    expect(raw).not.toContain("leaked@example.com");
    expect(raw).not.toMatch(/X-Track-Opens/i);
    const parsed = await PostalMime.parse(raw);
    expect(parsed.text?.trim()).toBe("Thanks!");
    expect(parsed.html).toContain('src="cid:logo@acme"');
    expect(parsed.html).toContain("/t/o/"); // the open pixel
    expect(parsed.inReplyTo).toBe("<earlier@client.example>");
    expect(parsed.headers.find((h) => h.key === "x-entity-ref-id")?.value).toBe("r-42");
    const files = parsed.attachments.map((a) => ({
      filename: a.filename,
      contentId: a.contentId ?? null,
      text: new TextDecoder().decode(a.content as ArrayBuffer),
    }));
    expect(files).toEqual(
      expect.arrayContaining([
        { filename: "logo.png", contentId: "<logo@acme>", text: "PNGBYTES" },
        { filename: "receipt.pdf", contentId: null, text: "%PDF-1.4 receipt" },
      ]),
    );
  });

  it("applies the rules of POST /v1/emails: 403 domain, 422 suppressed, 413 size, 429 quota", async () => {
    const ws = await sendingWorkspace("rules.test", { overrides: { emails_per_hour: 1 } });
    const unverified = await sendRaw(ws.token, rawMessage("a@elsewhere.test"), ["ada@example.com"]);
    expect(unverified.status).toBe(403);
    expect(unverified.body).toMatchObject({ code: "domain_not_verified", domain: "elsewhere.test" });

    await callJson("POST", "/v1/emails/suppressions", {
      token: ws.token,
      body: { email: "gone@example.com" },
    });
    const suppressed = await sendRaw(ws.token, rawMessage("a@rules.test"), ["gone@example.com"]);
    expect(suppressed.status).toBe(422);
    expect(suppressed.body).toMatchObject({ code: "recipient_suppressed", suppressed: ["gone@example.com"] });

    const big = "x".repeat(25 * 1024 * 1024 + 1);
    const tooLarge = await sendRaw(ws.token, `${rawMessage("a@rules.test")}${big}`, ["ada@example.com"]);
    expect(tooLarge.status).toBe(413);

    expect((await sendRaw(ws.token, rawMessage("a@rules.test"), ["ada@example.com"])).status).toBe(200);
    const quota = await sendRaw(ws.token, rawMessage("a@rules.test"), ["ada@example.com"]);
    expect(quota.status).toBe(429);
    expect(quota.body).toMatchObject({ code: "limit_exceeded", quota: "emails_per_hour" });
  });

  it("answers 400 for a bad envelope or body, never 500", async () => {
    const ws = await sendingWorkspace("bad.test");
    const noRcpt = await callJson("POST", "/v1/emails/raw", {
      token: ws.token,
      body: { mail_from: "", rcpt_to: [], raw: b64(rawMessage("a@bad.test")) },
    });
    expect(noRcpt.status).toBe(400);
    const badBase64 = await callJson("POST", "/v1/emails/raw", {
      token: ws.token,
      body: { mail_from: "", rcpt_to: ["ada@example.com"], raw: "abc" },
    });
    expect(badBase64.status).toBe(400);
    expect(badBase64.body).toMatchObject(errorBody("Invalid request", "validation_error"));
    const noFrom = await sendRaw(ws.token, "Subject: hi\r\n\r\nbody\r\n", ["ada@example.com"], "");
    expect(noFrom.status).toBe(400);
  });

  it("replays the first answer for the same Idempotency-Key", async () => {
    const ws = await sendingWorkspace("idem.test");
    const send = () =>
      callJson<Email>("POST", "/v1/emails/raw", {
        token: ws.token,
        headers: { "Idempotency-Key": "smtp-abc" },
        body: { mail_from: "", rcpt_to: ["ada@example.com"], raw: b64(rawMessage("a@idem.test")) },
      });
    const first = await send();
    const second = await send();
    expect(second.body.id).toBe(first.body.id);
  });
});

describe("GET /v1/emails/raw/credentials", () => {
  it("answers the key for a write key, 403 for a read key, 401 for no key", async () => {
    const ws = await sendingWorkspace("cred.test");
    const ok = await callJson("GET", "/v1/emails/raw/credentials", { token: ws.token });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      object: "relay_credentials",
      account_id: ws.accountId,
      key_id: ws.keyId,
      key_prefix: ws.token.slice(0, 10),
    });
    const reader = await addKey(ws.accountId, "read");
    expect((await call("GET", "/v1/emails/raw/credentials", { token: reader.token })).status).toBe(403);
    expect((await call("GET", "/v1/emails/raw/credentials", { token: "sk_nope" })).status).toBe(401);
  });
});
