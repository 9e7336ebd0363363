import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { sendSurveyEmail } from "../../src/features/surveys/survey-send";
import { verifySurveyToken } from "../../src/mail/survey-token";
import { dashboardPost, signIn } from "./dashboard-helpers";
import { call, callJson, seedUser } from "./helpers";
import {
  createSurvey,
  newTicket,
  sentSurveyEmail,
  setStatus,
  surveyDesk,
  surveyEmailsOf,
  surveyRequestOf,
  tokensIn,
} from "./surveys-helpers";

type Desk = Awaited<ReturnType<typeof surveyDesk>>;

/**
 * Resolves a fresh control ticket of the desk and waits for its survey email: the deferred work of
 * every resolve made before it has had its turn, so an email that did not come is not coming.
 */
async function settle(desk: Desk) {
  const control = await newTicket(
    desk.ws,
    desk.inbox.id,
    `control-${crypto.randomUUID().slice(0, 6)}@example.com`,
  );
  expect((await setStatus(desk.ws, control.id, "resolved")).status).toBe(200);
  await sentSurveyEmail(desk.ws.accountId, control.id);
}

describe("the survey email on resolve", { timeout: 30_000 }, () => {
  it("PATCH status resolved sends one email from the inbox, Auto-Submitted, with signed CSAT links 1–5", async () => {
    const desk = await surveyDesk("csat");
    expect((await setStatus(desk.ws, desk.ticket.id, "resolved")).status).toBe(200);
    const { email, raw } = await sentSurveyEmail(desk.ws.accountId, desk.ticket.id);
    expect(email.sender).toBe(desk.inbox.emailAddress);
    expect(JSON.parse(email.recipients)).toEqual(["ada@example.com"]);
    expect(raw).toMatch(/^Auto-Submitted: auto-generated\r$/m);
    expect(email.text).toContain("How did we do?");
    const tokens = tokensIn(email.text);
    expect([...tokens.keys()]).toEqual([1, 2, 3, 4, 5]);
    for (const [rating, token] of tokens) {
      expect(await verifySurveyToken(env.ENCRYPTION_KEY, token)).toEqual({
        ticketId: desk.ticket.id,
        rating,
      });
      expect(email.html).toContain(`/s/${token}`);
    }
    const request = await surveyRequestOf(desk.ticket.id);
    expect(request).toMatchObject({ email_id: email.id, survey_id: desk.survey.id });
  });

  it("NPS surveys carry links 0–10", async () => {
    const desk = await surveyDesk("nps");
    await setStatus(desk.ws, desk.ticket.id, "resolved");
    const { email } = await sentSurveyEmail(desk.ws.accountId, desk.ticket.id);
    expect([...tokensIn(email.text).keys()]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("is sent once: not again when the ticket is reopened and resolved again", async () => {
    const desk = await surveyDesk();
    await setStatus(desk.ws, desk.ticket.id, "resolved");
    await sentSurveyEmail(desk.ws.accountId, desk.ticket.id);
    expect((await setStatus(desk.ws, desk.ticket.id, "open")).status).toBe(200);
    await callJson("POST", `/v1/tickets/${desk.ticket.id}/manage`, {
      token: desk.ws.token,
      body: { action: "resolve" },
    });
    await setStatus(desk.ws, desk.ticket.id, "open");
    await setStatus(desk.ws, desk.ticket.id, "resolved");
    await settle(desk);
    expect(await surveyEmailsOf(desk.ws.accountId, desk.ticket.id)).toHaveLength(1);
  });

  it("two concurrent resolves send one email", async () => {
    const desk = await surveyDesk();
    const answers = await Promise.all([
      setStatus(desk.ws, desk.ticket.id, "resolved"),
      callJson("POST", `/v1/tickets/${desk.ticket.id}/manage`, {
        token: desk.ws.token,
        body: { action: "resolve" },
      }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    await sentSurveyEmail(desk.ws.accountId, desk.ticket.id);
    await settle(desk);
    expect(await surveyEmailsOf(desk.ws.accountId, desk.ticket.id)).toHaveLength(1);
  });

  it("the claim lets one of two concurrent sends write an email, and gives the other's quota back", async () => {
    const desk = await surveyDesk();
    await env.DB_2.prepare("UPDATE tickets SET status = 'resolved' WHERE id = ?").bind(desk.ticket.id).run();
    const usage = () =>
      env.DB_2.prepare("SELECT emails_month AS n FROM account_usage WHERE account_id = ?")
        .bind(desk.ws.accountId)
        .first<{ n: number }>();
    const before = (await usage())?.n ?? 0;
    const ctx = { db: createDb(env.DB_2), env, accountId: desk.ws.accountId, now: Date.now() };
    await Promise.all([1, 2, 3].map(() => sendSurveyEmail(ctx, desk.ticket.id)));
    expect(await surveyEmailsOf(desk.ws.accountId, desk.ticket.id)).toHaveLength(1);
    expect((await usage())?.n).toBe(before + 1);
  });

  it("the resolve action, and a reply whose status after sending is resolved, send it too", async () => {
    const desk = await surveyDesk();
    const managed = await callJson("POST", `/v1/tickets/${desk.ticket.id}/manage`, {
      token: desk.ws.token,
      body: { action: "resolve" },
    });
    expect(managed.status).toBe(200);
    await sentSurveyEmail(desk.ws.accountId, desk.ticket.id);

    const replied = await newTicket(desk.ws, desk.inbox.id, "grace@example.com");
    const reply = await call("POST", `/v1/tickets/${replied.id}/messages`, {
      token: desk.ws.token,
      body: { type: "reply", body_text: "Fixed.", status_after_send: "resolved" },
    });
    expect(reply.status).toBe(201);
    await sentSurveyEmail(desk.ws.accountId, replied.id);
  });

  it("closing, creating a ticket already resolved, or a PATCH that keeps it resolved, sends nothing", async () => {
    const desk = await surveyDesk();
    await setStatus(desk.ws, desk.ticket.id, "closed");
    const created = await callJson<{ id: string }>("POST", "/v1/tickets", {
      token: desk.ws.token,
      body: {
        inbox_id: desk.inbox.id,
        customer: { email: "born@example.com" },
        subject: "x",
        status: "resolved",
      },
    });
    expect(created.status).toBe(201);
    await setStatus(desk.ws, created.body.id, "resolved");
    await settle(desk);
    expect(await surveyEmailsOf(desk.ws.accountId, desk.ticket.id)).toHaveLength(0);
    expect(await surveyEmailsOf(desk.ws.accountId, created.body.id)).toHaveLength(0);
  });

  it("is not sent to a blocked or an unsubscribed customer", async () => {
    const desk = await surveyDesk();
    const blocked = await newTicket(desk.ws, desk.inbox.id, "blocked@example.com");
    const gone = await newTicket(desk.ws, desk.inbox.id, "gone@example.com");
    for (const [ticket, body] of [
      [blocked, { blocked: true }],
      [gone, { unsubscribed: true }],
    ] as const) {
      const res = await call("PATCH", `/v1/customers/${ticket.customer_id}`, { token: desk.ws.token, body });
      expect(res.status).toBe(200);
      expect((await setStatus(desk.ws, ticket.id, "resolved")).status).toBe(200);
    }
    await settle(desk);
    expect(await surveyEmailsOf(desk.ws.accountId, blocked.id)).toHaveLength(0);
    expect(await surveyEmailsOf(desk.ws.accountId, gone.id)).toHaveLength(0);
    expect(await surveyRequestOf(blocked.id)).toBeNull();
  });

  it("only active surveys of the ticket's inbox are sent, the newest when several", async () => {
    const desk = await surveyDesk();
    await call("PATCH", `/v1/surveys/${desk.survey.id}`, {
      token: desk.ws.token,
      body: { status: "disabled" },
    });
    await setStatus(desk.ws, desk.ticket.id, "resolved");
    const older = await createSurvey(desk.ws.token, {
      name: "Old",
      kind: "csat",
      question: "Old?",
      inbox_ids: [desk.inbox.id],
    });
    const newer = await createSurvey(desk.ws.token, {
      name: "New",
      kind: "nps",
      question: "New?",
      inbox_ids: [desk.inbox.id],
    });
    await settle(desk);
    expect(await surveyEmailsOf(desk.ws.accountId, desk.ticket.id)).toHaveLength(0);
    const next = await newTicket(desk.ws, desk.inbox.id, "next@example.com");
    await setStatus(desk.ws, next.id, "resolved");
    const { email } = await sentSurveyEmail(desk.ws.accountId, next.id);
    expect(email.text).toContain("New?");
    expect((await surveyRequestOf(next.id))?.survey_id).toBe(newer.id);
    expect(older.id).not.toBe(newer.id);
  });

  it("keeps the assignee at send time, even after the ticket is reassigned", async () => {
    const desk = await surveyDesk();
    const first = await seedUser(desk.ws.accountId);
    const second = await seedUser(desk.ws.accountId);
    await call("PATCH", `/v1/tickets/${desk.ticket.id}`, {
      token: desk.ws.token,
      body: { assignee_id: first.id, status: "resolved" },
    });
    await sentSurveyEmail(desk.ws.accountId, desk.ticket.id);
    await call("PATCH", `/v1/tickets/${desk.ticket.id}`, {
      token: desk.ws.token,
      body: { assignee_id: second.id },
    });
    expect((await surveyRequestOf(desk.ticket.id))?.assignee_id).toBe(first.id);
  });

  it("the dashboard's Save with status resolved sends it, through the same service", async () => {
    const desk = await surveyDesk();
    const agent = await signIn(desk.ws.accountId, "agent");
    const res = await dashboardPost(`/dashboard/tickets/${desk.ticket.id}/edit`, agent, {
      subject: "Help",
      status: "resolved",
      priority: "normal",
      assignee_id: agent.user.id,
      tags: "",
    });
    expect(res.status).toBe(303);
    await sentSurveyEmail(desk.ws.accountId, desk.ticket.id);
    expect((await surveyRequestOf(desk.ticket.id))?.assignee_id).toBe(agent.user.id);
  });
});
