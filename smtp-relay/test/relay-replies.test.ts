/**
 * Every SMTP reply the relay promises, each provoked for real: nodemailer over 127.0.0.1 to a relay
 * on port 0, the relay to the running Worker (or, for a dead or failing API, to a loopback stand-in).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort, startFailingApi } from "./support/failing-api";
import { api, ctx, type StartedRelay, sendFails, startRelay, transport } from "./support/relay";

const message = (from: string, to: string | string[], extra: Record<string, unknown> = {}) => ({
  from,
  to,
  subject: "Relay test",
  text: "Hello from the relay",
  ...extra,
});

let relay: StartedRelay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(() => relay.close());

describe("SMTP replies through the running API", () => {
  it("250 with the email id for an accepted message", async () => {
    const { main } = ctx().workspaces;
    const info = await transport(relay.port, main.token).sendMail(
      message(`a@${main.domain}`, "ada@example.com"),
    );
    expect(info.response).toMatch(/^250 2\.0\.0 Ok: queued as eml_[0-9A-Z]{26}$/);
    const id = info.response.split(" ").pop() as string;
    expect((await api(`/v1/emails/${id}`, main.token)).status).toBe(200);
  });

  it("550 5.7.1 for a sender domain that is not verified", async () => {
    const { main } = ctx().workspaces;
    const error = await sendFails(
      transport(relay.port, main.token).sendMail(message("a@unverified.test", "ada@example.com")),
    );
    expect(error.responseCode).toBe(550);
    expect(error.response).toMatch(/^550 5\.7\.1 Sender domain unverified\.test is not verified/);
  });

  it("550 5.1.1 for a suppressed recipient, naming it", async () => {
    const { main } = ctx().workspaces;
    await api("/v1/emails/suppressions", main.token, { method: "POST", body: { email: "gone@example.com" } });
    const error = await sendFails(
      transport(relay.port, main.token).sendMail(
        message(`a@${main.domain}`, ["ada@example.com", "gone@example.com"]),
      ),
    );
    expect(error.responseCode).toBe(550);
    expect(error.response).toMatch(/^550 5\.1\.1 .*gone@example\.com/);
  });

  it("552 for a message over 25 MB, with SIZE advertised", async () => {
    const { main } = ctx().workspaces;
    const client = transport(relay.port, main.token);
    const error = await sendFails(
      client.sendMail(
        message(`a@${main.domain}`, "ada@example.com", {
          attachments: [{ filename: "big.bin", content: Buffer.alloc(19 * 1024 * 1024, 7) }],
        }),
      ),
    );
    expect(error.responseCode).toBe(552);
  });

  it("535 for a wrong user name, an unknown key, a read-only key and a revoked key", async () => {
    const { main } = ctx().workspaces;
    const attempts = [
      transport(relay.port, main.token, "someone"),
      transport(relay.port, "sk_thisIsNotAKeyOfAnyWorkspaceAtAll0123456789"),
      transport(relay.port, ctx().readKey),
      transport(relay.port, ctx().revokedKey.token),
    ];
    for (const client of attempts) {
      const error = await sendFails(client.sendMail(message(`a@${main.domain}`, "ada@example.com")));
      expect(error.responseCode).toBe(535);
      expect(error.response).toMatch(/^535 5\.7\.8 /);
    }
  });

  it("451 4.7.0 when the key's rate limit is reached (temporary)", async () => {
    // `limited` admits 3 requests a minute: the AUTH check and two sends; the third send is refused.
    const { limited } = ctx().workspaces;
    const client = transport(relay.port, limited.token);
    const send = () => client.sendMail(message(`a@${limited.domain}`, "ada@example.com"));
    await send();
    await send();
    const error = await sendFails(send());
    expect(error.responseCode).toBe(451);
    expect(error.response).toMatch(/^451 4\.7\.0 Rate limit exceeded; try again in \d+ seconds/);
  });

  it("452 4.3.1 for a spent hourly quota (temporary), 554 5.7.0 for a spent monthly one", async () => {
    const { hourly, monthly } = ctx().workspaces;
    const hour = await sendFails(
      transport(relay.port, hourly.token).sendMail(message(`a@${hourly.domain}`, "ada@example.com")),
    );
    expect(hour.response).toMatch(/^452 4\.3\.1 .*emails per hour/);
    const month = await sendFails(
      transport(relay.port, monthly.token).sendMail(message(`a@${monthly.domain}`, "ada@example.com")),
    );
    expect(month.response).toMatch(/^554 5\.7\.0 .*emails per month/);
  });
});

describe("SMTP replies when the API fails", () => {
  it("451 4.3.0 when the API answers 5xx: the client keeps the message", async () => {
    const failing = await startFailingApi("500");
    const relay = await startRelay({ apiUrl: failing.url });
    try {
      const error = await sendFails(
        transport(relay.port, "sk_any").sendMail(message("a@relay.test", "ada@example.com")),
      );
      expect(error.responseCode).toBe(451);
      expect(error.response).toMatch(/^451 4\.3\.0 /);
    } finally {
      await relay.close();
      await failing.close();
    }
  });

  it("451 4.3.0 when the API goes away mid-request, 454 4.7.0 at AUTH when it is not there at all", async () => {
    const failing = await startFailingApi("drop");
    const dropping = await startRelay({ apiUrl: failing.url });
    const dead = await startRelay({ apiUrl: `http://127.0.0.1:${await closedPort()}` });
    try {
      const dropped = await sendFails(
        transport(dropping.port, "sk_any").sendMail(message("a@relay.test", "ada@example.com")),
      );
      expect(dropped.response).toMatch(/^451 4\.3\.0 /);
      const refused = await sendFails(
        transport(dead.port, "sk_any").sendMail(message("a@relay.test", "ada@example.com")),
      );
      expect(refused.response).toMatch(/^454 4\.7\.0 Temporary authentication failure/);
    } finally {
      await Promise.all([dropping.close(), dead.close()]);
      await failing.close();
    }
  });
});
