import { describe, expect, it, vi } from "vitest";
import { runStep } from "../../src/features/automations/engine/run-step";
import type { Step } from "../../src/features/automations/steps";
import { historyOf, seedAutomation, seedCustomer, seedEnrollment } from "./automations-helpers";
import { act, campaignOf, campaignWorkspace, createCampaign } from "./campaigns-helpers";
import { call, callJson, eventually, shardEnv } from "./helpers";
import { setUp } from "./reports-helpers";
import { openTicket } from "./webhook-helpers";

// Campaign sends go through the real queue: slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

async function countsOf(token: string, query = "") {
  const res = await callJson<{ totals: Record<string, number | null> }>(
    "GET",
    `/v1/reports/email?from=${today()}&to=${tomorrow()}${query}`,
    { token },
  );
  expect(res.status).toBe(200);
  return res.body.totals;
}

const suppress = async (token: string, email: string) =>
  expect((await call("POST", "/v1/suppressions", { token, body: { email } })).status).toBe(201);

describe("the email report's suppressed count", () => {
  it("counts each send refused for a suppressed recipient, per tag and inbox, in POST /v1/emails, /batch and ticket replies", async () => {
    const setup = await setUp();
    const token = setup.ws.token;
    await suppress(token, "gone@example.net");
    await suppress(token, "ada@example.com");
    const from = `Acme <hello@${setup.domain}>`;
    const welcome = [{ name: "category", value: "welcome" }];
    const refused = (to: string[]) =>
      callJson("POST", "/v1/emails", {
        token,
        body: { from, to, subject: "Hi", text: "Hello", tags: welcome },
      });
    // Three refusals at once (one naming two suppressed addresses is still one email), and an
    // email to nobody suppressed, which counts nothing here.
    const answers = await Promise.all([
      refused(["gone@example.net"]),
      refused(["gone@example.net"]),
      refused(["ok@example.org", "gone@example.net", "ada@example.com"]),
      refused(["ok@example.org"]),
    ]);
    expect(answers.map((a) => a.status)).toEqual([422, 422, 422, 200]);
    // A batch is refused whole; the email with the suppressed recipient counts.
    const batch = await callJson("POST", "/v1/emails/batch", {
      token,
      body: [
        { from, to: ["ok@example.org"], subject: "A", text: "a" },
        { from, to: ["gone@example.net"], subject: "B", text: "b", tags: [{ name: "kind", value: "b" }] },
      ],
    });
    expect(batch.status).toBe(422);

    // A ticket reply to a suppressed customer: refused, counted under the ticket's inbox.
    const inbox = (await callJson<{ data: Array<{ id: string }> }>("GET", "/v1/inboxes", { token })).body
      .data[0] as { id: string };
    const ticket = await openTicket(token, inbox.id);
    const reply = await callJson("POST", `/v1/tickets/${ticket.id}/messages`, {
      token,
      body: { body_text: "On it." },
    });
    expect(reply.status).toBe(422);

    expect(await countsOf(token)).toMatchObject({ accepted: 1, suppressed: 5 });
    expect(await countsOf(token, "&tag=category:welcome")).toMatchObject({ accepted: 1, suppressed: 3 });
    expect(await countsOf(token, "&tag=kind:b")).toMatchObject({ accepted: 0, suppressed: 1 });
    expect(await countsOf(token, `&inbox_id=${inbox.id}`)).toMatchObject({ accepted: 0, suppressed: 1 });
  });

  it("counts a campaign's suppressed recipients once, under its tag, beside the emails it accepted", async () => {
    const ws = await campaignWorkspace([
      { email: "ada@example.org" },
      { email: "bob@example.org" },
      { email: "dan@example.org" },
    ]);
    await suppress(ws.token, "dan@example.org");
    const campaign = await createCampaign(ws, { text: "Hello" });
    expect((await act(ws.token, campaign.id, "send")).body.status).toBe("sending");
    const sent = await eventually(async () => {
      const c = await campaignOf(ws.token, campaign.id);
      return c.status === "sent" ? c : null;
    });
    expect(sent.stats).toMatchObject({ sent: 2, suppressed: 1 });
    const expected = { accepted: 2, suppressed: 1 };
    expect(await countsOf(ws.token)).toMatchObject(expected);
    expect(await countsOf(ws.token, `&tag=campaign:${campaign.id}`)).toMatchObject(expected);
  });

  it("counts an automation step skipped for a suppressed address once, however often the step runs", async () => {
    const setup = await setUp();
    const customer = await seedCustomer(setup.ws.accountId);
    await suppress(setup.ws.token, customer.email);
    const mail: Step = {
      id: "stp_mail",
      type: "send_email",
      from: `hi@${setup.domain}`,
      subject: "Hi",
      text: "Hello",
    };
    const automation = await seedAutomation(setup.ws.accountId, [mail]);
    const enrollment = await seedEnrollment(automation, customer.id);
    await Promise.all([runStep(shardEnv(), enrollment.id, mail), runStep(shardEnv(), enrollment.id, mail)]);
    await runStep(shardEnv(), enrollment.id, mail);
    expect((await historyOf(enrollment.id)).stp_mail).toMatchObject({
      status: "skipped",
      error: "suppressed",
    });
    expect(await countsOf(setup.ws.token)).toMatchObject({ accepted: 0, suppressed: 1 });
    expect(await countsOf(setup.ws.token, `&tag=automation:${automation.id}`)).toMatchObject({
      suppressed: 1,
    });
  });
});
