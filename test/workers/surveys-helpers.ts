import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { surveyToken } from "../../src/mail/survey-token";
import { call, callJson, eventually, shardD1Of, ticketWorkspace, type Workspace } from "./helpers";
import { postForm } from "./people-helpers";

/** What these helpers use of a workspace. */
type Desk = Pick<Workspace, "accountId" | "token">;

export interface SurveyBody {
  id: string;
  name: string;
  kind: "csat" | "nps";
  question: string;
  inbox_ids: string[];
  status: string;
  summary: { responses: number; average: number | null; nps: number | null };
  created_at: string;
  updated_at: string;
}

export async function createSurvey(token: string, body: Record<string, unknown>) {
  const res = await callJson<SurveyBody>("POST", "/v1/surveys", { token, body });
  expect(res.status).toBe(201);
  return res.body;
}

/** A workspace with an inbox, a ticket from ada@example.com and an active survey covering the inbox. */
export async function surveyDesk(kind: "csat" | "nps" = "csat") {
  const desk = await ticketWorkspace("srv");
  const survey = await createSurvey(desk.ws.token, {
    name: "After resolve",
    kind,
    question: "How did we do?",
    inbox_ids: [desk.inbox.id],
  });
  return { ...desk, survey };
}

/** Another ticket in the desk's inbox, from `email`. */
export async function newTicket(ws: Desk, inboxId: string, email = "ada@example.com") {
  const res = await callJson<{ id: string; customer_id: string }>("POST", "/v1/tickets", {
    token: ws.token,
    body: { inbox_id: inboxId, customer: { email }, subject: "Another question" },
  });
  expect(res.status).toBe(201);
  return res.body;
}

export const setStatus = (ws: Desk, ticketId: string, status: string) =>
  call("PATCH", `/v1/tickets/${ticketId}`, { token: ws.token, body: { status } });

export interface SurveyEmailRow {
  id: string;
  status: string;
  subject: string;
  text: string;
  html: string;
  headers: string;
  sender: string;
  recipients: string;
}

/** The survey emails written for a ticket (its links name the ticket). */
export async function surveyEmailsOf(accountId: string, ticketId: string) {
  const ulid = ticketId.slice(4).toLowerCase();
  const rows = await shardD1Of()
    .prepare(
      `SELECT id, status, subject, text, html, headers, from_address AS sender, to_list AS recipients FROM emails
     WHERE account_id = ? AND source = 'survey' AND text LIKE ?`,
    )
    .bind(accountId, `%/s/${ulid}%`)
    .all<SurveyEmailRow>();
  return rows.results;
}

/** Waits for the ticket's survey email to be sent, and answers it with the MIME the transport kept. */
export async function sentSurveyEmail(accountId: string, ticketId: string) {
  const email = await eventually(async () => {
    const [row] = await surveyEmailsOf(accountId, ticketId);
    return row?.status === "sent" ? row : null;
  });
  const raw = (await (await env.FILES.get(`emails/${email.id}/message.eml`))?.text()) ?? "";
  return { email, raw };
}

/** The rating links' tokens of a survey email's text, by rating. */
export function tokensIn(text: string) {
  return new Map(
    [...text.matchAll(/^(\d+): http\S+\/s\/([0-9a-z]{60})\?w=acc_[0-9A-Z]{26}$/gm)].map((m) => [
      Number(m[1]),
      m[2] ?? "",
    ]),
  );
}

export const tokenFor = (ticketId: string, rating: number) =>
  surveyToken(env.ENCRYPTION_KEY, { ticketId, rating });

export const answer = (token: string, comment?: string) =>
  postForm(`/s/${token}`, comment === undefined ? {} : { comment });

export async function getSurvey(token: string, id: string) {
  return (await callJson<SurveyBody>("GET", `/v1/surveys/${id}`, { token })).body;
}

export const surveyRequestOf = (ticketId: string) =>
  shardD1Of()
    .prepare("SELECT * FROM survey_requests WHERE ticket_id = ?")
    .bind(ticketId)
    .first<{ email_id: string; assignee_id: string | null; survey_id: string }>();

/**
 * A survey request written as the resolve would have written it (its own path is tested in
 * surveys-send.test.ts), so that page tests need not wait for an email each.
 */
export async function seedRequest(
  desk: { ws: Desk; inbox: { id: string } },
  surveyId: string,
  email = `c-${crypto.randomUUID().slice(0, 8)}@example.com`,
  assigneeId: string | null = null,
) {
  const ticket = await newTicket(desk.ws, desk.inbox.id, email);
  await shardD1Of()
    .prepare(
      `INSERT INTO survey_requests (ticket_id, account_id, survey_id, inbox_id, customer_id, assignee_id, email_id, sent_at)
     VALUES (?, ?, ?, ?, ?, ?, NULL, ?)`,
    )
    .bind(ticket.id, desk.ws.accountId, surveyId, desk.inbox.id, ticket.customer_id, assigneeId, Date.now())
    .run();
  return ticket;
}

export const responsesOf = (ticketId: string) =>
  shardD1Of()
    .prepare("SELECT * FROM survey_responses WHERE ticket_id = ?")
    .bind(ticketId)
    .all<{ id: string; rating: number; comment: string | null; created_at: number; updated_at: number }>();
