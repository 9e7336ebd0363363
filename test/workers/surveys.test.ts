import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb, runBatch } from "../../src/db/client";
import { claimStatement } from "../../src/features/surveys/survey-requests.repo";
import { call, callJson, errorBody, seedInbox, seedWorkspace, ticketWorkspace } from "./helpers";
import {
  createSurvey,
  getSurvey,
  newTicket,
  type SurveyBody,
  seedRequest,
  surveyDesk,
  surveyRequestOf,
} from "./surveys-helpers";

const base = { name: "CSAT", kind: "csat", question: "How did we do?" };

describe("/v1/surveys CRUD", () => {
  it("creates with defaults and answers every field with an empty summary", async () => {
    const ws = await seedWorkspace();
    const inbox = await seedInbox(ws.accountId);
    const survey = await createSurvey(ws.token, { ...base, inbox_ids: [inbox.id, inbox.id] });
    expect(survey).toEqual({
      id: expect.stringMatching(/^srv_[0-9A-HJKMNP-TV-Z]{26}$/),
      name: "CSAT",
      kind: "csat",
      question: "How did we do?",
      inbox_ids: [inbox.id],
      status: "active",
      summary: { responses: 0, average: null, nps: null },
      created_at: expect.any(String),
      updated_at: survey.created_at,
    });
    expect((await callJson("GET", `/v1/surveys/${survey.id}`, { token: ws.token })).body).toEqual(survey);
    const bare = await createSurvey(ws.token, base);
    expect(bare.inbox_ids).toEqual([]);
  });

  it("lists as { surveys, pagination } with limit 50 by default, newest first", async () => {
    const ws = await seedWorkspace();
    const first = await createSurvey(ws.token, base);
    const second = await createSurvey(ws.token, { ...base, kind: "nps" });
    const list = await callJson<{ surveys: SurveyBody[]; pagination: unknown }>("GET", "/v1/surveys", {
      token: ws.token,
    });
    expect(list.status).toBe(200);
    expect(Object.keys(list.body)).toEqual(["surveys", "pagination"]);
    expect(list.body.pagination).toEqual({ limit: 50, offset: 0, total: 2 });
    expect(list.body.surveys.map((s) => s.id)).toEqual([second.id, first.id]);
    const paged = await callJson<{ surveys: SurveyBody[]; pagination: unknown }>(
      "GET",
      "/v1/surveys?limit=1&offset=1",
      { token: ws.token },
    );
    expect(paged.body.surveys.map((s) => s.id)).toEqual([first.id]);
    expect(paged.body.pagination).toEqual({ limit: 1, offset: 1, total: 2 });
    expect((await call("GET", "/v1/surveys?limit=101", { token: ws.token })).status).toBe(400);
  });

  it("refuses invalid bodies with 400", async () => {
    const ws = await seedWorkspace();
    const bad = [
      {},
      { ...base, kind: "stars" },
      { ...base, name: "" },
      { ...base, question: "two\nlines" },
      { ...base, status: "paused" },
      { ...base, inbox_ids: "inb_x" },
      { ...base, extra: 1 },
    ];
    for (const body of bad) {
      const res = await callJson("POST", "/v1/surveys", { token: ws.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject(errorBody("Invalid request", "validation_error"));
    }
    const survey = await createSurvey(ws.token, base);
    for (const body of [{}, { kind: "x" }, { name: "   " }]) {
      const res = await call("PATCH", `/v1/surveys/${survey.id}`, { token: ws.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("updates fields, replaces the inboxes, and deletes", async () => {
    const ws = await seedWorkspace();
    const [a, b] = [await seedInbox(ws.accountId), await seedInbox(ws.accountId)];
    const survey = await createSurvey(ws.token, { ...base, inbox_ids: [a.id] });
    const patched = await callJson<SurveyBody>("PATCH", `/v1/surveys/${survey.id}`, {
      token: ws.token,
      body: { name: "Renamed", status: "disabled", inbox_ids: [b.id], kind: "nps" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: "Renamed",
      status: "disabled",
      inbox_ids: [b.id],
      kind: "nps",
    });
    const removed = await callJson("DELETE", `/v1/surveys/${survey.id}`, { token: ws.token });
    expect(removed.body).toEqual({ id: survey.id, deleted: true });
    expect((await call("GET", `/v1/surveys/${survey.id}`, { token: ws.token })).status).toBe(404);
    expect((await call("DELETE", `/v1/surveys/${survey.id}`, { token: ws.token })).status).toBe(404);
  });

  it("refuses a change of kind once a survey email has gone out, even before any answer (409)", async () => {
    const desk = await surveyDesk("csat");
    const patch = (body: Record<string, unknown>) =>
      callJson<SurveyBody>("PATCH", `/v1/surveys/${desk.survey.id}`, { token: desk.ws.token, body });
    // Nothing sent yet: the scale is still the sender's to choose.
    expect((await patch({ kind: "nps" })).status).toBe(200);
    expect((await patch({ kind: "csat" })).status).toBe(200);
    // An email with CSAT links (1–5) is out; no one has answered yet.
    await seedRequest(desk, desk.survey.id);
    const res = await patch({ kind: "nps", name: "Renamed" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject(errorBody("Survey kind is locked", "survey_kind_locked"));
    expect(JSON.stringify(res.body)).toContain("emails");
    expect(await getSurvey(desk.ws.token, desk.survey.id)).toMatchObject({
      kind: "csat",
      name: "After resolve",
    });
    const same = await patch({ kind: "csat", name: "Ok" });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ kind: "csat", name: "Ok" });
  });

  it("a send that read the survey before its kind changed claims nothing: its links are of the old scale", async () => {
    const desk = await surveyDesk("csat");
    const ticket = await newTicket(desk.ws, desk.inbox.id, "grace@example.com");
    const request = {
      ticketId: ticket.id,
      accountId: desk.ws.accountId,
      surveyId: desk.survey.id,
      inboxId: desk.inbox.id,
      customerId: ticket.customer_id,
      assigneeId: null,
      emailId: null,
      sentAt: Date.now(),
    };
    expect(
      (
        await callJson("PATCH", `/v1/surveys/${desk.survey.id}`, {
          token: desk.ws.token,
          body: { kind: "nps" },
        })
      ).status,
    ).toBe(200);
    const db = createDb(env.DB_2);
    const [stale] = await runBatch(db, [claimStatement(request, "csat")]);
    expect(stale?.meta.changes).toBe(0);
    expect(await surveyRequestOf(ticket.id)).toBeNull();
    const [current] = await runBatch(db, [claimStatement(request, "nps")]);
    expect(current?.meta.changes).toBe(1);
  });
});

describe("tenancy", () => {
  it("another workspace's survey and inbox ids are 404", async () => {
    const mine = await seedWorkspace();
    const other = await ticketWorkspace("oth");
    const theirs = await createSurvey(other.ws.token, { ...base, inbox_ids: [other.inbox.id] });
    for (const [method, path, body] of [
      ["GET", `/v1/surveys/${theirs.id}`, undefined],
      ["PATCH", `/v1/surveys/${theirs.id}`, { name: "Mine now" }],
      ["DELETE", `/v1/surveys/${theirs.id}`, undefined],
      ["GET", `/v1/surveys/${theirs.id}/responses`, undefined],
    ] as const) {
      const res = await callJson(method, path, { token: mine.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject(errorBody("Not found", "not_found"));
    }
    const foreignInbox = await callJson("POST", "/v1/surveys", {
      token: mine.token,
      body: { ...base, inbox_ids: [other.inbox.id] },
    });
    expect(foreignInbox.status).toBe(404);
    const mySurvey = await createSurvey(mine.token, base);
    const patchForeign = await call("PATCH", `/v1/surveys/${mySurvey.id}`, {
      token: mine.token,
      body: { inbox_ids: [other.inbox.id] },
    });
    expect(patchForeign.status).toBe(404);
    expect(
      (await callJson<{ surveys: unknown[] }>("GET", "/v1/surveys", { token: mine.token })).body.surveys,
    ).toHaveLength(1);
    expect(await getName(other.ws.token, theirs.id)).toBe("CSAT");
  });
});

const getName = async (token: string, id: string) =>
  (await callJson<SurveyBody>("GET", `/v1/surveys/${id}`, { token })).body.name;
