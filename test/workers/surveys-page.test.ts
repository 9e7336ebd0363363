import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, callJson, seedUser } from "./helpers";
import { postForm } from "./people-helpers";
import { expectPageHeaders } from "./portal-helpers";
import {
  answer,
  getSurvey,
  responsesOf,
  seedRequest,
  sentSurveyEmail,
  setStatus,
  surveyDesk,
  tokenFor,
  tokensIn,
} from "./surveys-helpers";

const DAY = 86_400_000;

describe("the rating page /s/{token}", { timeout: 30_000 }, () => {
  it("from the email: a scanner's GET records nothing; the POST records the rating and the summary moves", async () => {
    const desk = await surveyDesk("csat");
    const agent = await seedUser(desk.ws.accountId);
    await call("PATCH", `/v1/tickets/${desk.ticket.id}`, {
      token: desk.ws.token,
      body: { assignee_id: agent.id },
    });
    await setStatus(desk.ws, desk.ticket.id, "resolved");
    const { email } = await sentSurveyEmail(desk.ws.accountId, desk.ticket.id);
    const token = tokensIn(email.text).get(4) ?? "";

    for (let i = 0; i < 2; i++) {
      const page = await call("GET", `/s/${token}`);
      expect(page.status).toBe(200);
      expectPageHeaders(page);
      const html = await page.text();
      expect(html).toContain("How did we do?");
      expect(html).toContain("<strong>4</strong> out of 5");
      expect(html).toContain(`<form method="post" action="/s/${token}?w=${desk.ws.accountId}"`);
    }
    expect((await responsesOf(desk.ticket.id)).results).toHaveLength(0);
    expect((await getSurvey(desk.ws.token, desk.survey.id)).summary).toEqual({
      responses: 0,
      average: null,
      nps: null,
    });

    const posted = await answer(token, "Quick <b>answer</b>");
    expect(posted.status).toBe(200);
    expectPageHeaders(posted);
    const thanks = await posted.text();
    expect(thanks).toContain("Thank you");
    expect(thanks).toContain("Quick &lt;b&gt;answer&lt;/b&gt;");
    expect((await getSurvey(desk.ws.token, desk.survey.id)).summary).toEqual({
      responses: 1,
      average: 4,
      nps: null,
    });
    const list = await callJson<{ data: unknown[]; pagination: unknown }>(
      "GET",
      `/v1/surveys/${desk.survey.id}/responses`,
      { token: desk.ws.token },
    );
    expect(list.body.pagination).toEqual({ limit: 50, offset: 0, total: 1 });
    expect(list.body.data).toEqual([
      {
        id: expect.stringMatching(/^rsp_/),
        survey_id: desk.survey.id,
        ticket_id: desk.ticket.id,
        customer_id: expect.stringMatching(/^cus_/),
        assignee_id: agent.id,
        inbox_id: desk.inbox.id,
        rating: 4,
        comment: "Quick <b>answer</b>",
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
  });

  it("refuses a tampered token, another rating's MAC, and a rating outside the scale (404, nothing recorded)", async () => {
    const desk = await surveyDesk("csat");
    const ticket = await seedRequest(desk, desk.survey.id);
    const good = await tokenFor(ticket.id, 3);
    const flipped = `${good.slice(0, -1)}${good.endsWith("0") ? "1" : "0"}`;
    const otherRating = `${good.slice(0, 26)}05${good.slice(28)}`;
    const outOfScale = await tokenFor(ticket.id, 9);
    for (const token of [flipped, otherRating, outOfScale, "nonsense"]) {
      const get = await call("GET", `/s/${token}`);
      expect(get.status, token).toBe(404);
      expect(await get.text()).toContain("Link not found");
      expect((await answer(token, "x")).status, token).toBe(404);
    }
    expect((await responsesOf(ticket.id)).results).toHaveLength(0);
    expect((await answer(good)).status).toBe(200);
  });

  it("a post from another origin is refused with an HTML 403", async () => {
    const desk = await surveyDesk();
    const ticket = await seedRequest(desk, desk.survey.id);
    const res = await postForm(
      `/s/${await tokenFor(ticket.id, 5)}`,
      { comment: "" },
      { Origin: "https://evil.test" },
    );
    expect(res.status).toBe(403);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect((await responsesOf(ticket.id)).results).toHaveLength(0);
  });

  it("stays editable for 14 days: rating and comment change, counters follow; then 410", async () => {
    const desk = await surveyDesk("nps");
    const ticket = await seedRequest(desk, desk.survey.id);
    expect((await answer(await tokenFor(ticket.id, 10), "Great")).status).toBe(200);
    expect((await getSurvey(desk.ws.token, desk.survey.id)).summary).toEqual({
      responses: 1,
      average: 10,
      nps: 100,
    });

    expect((await answer(await tokenFor(ticket.id, 2))).status).toBe(200);
    let [row] = (await responsesOf(ticket.id)).results;
    expect(row).toMatchObject({ rating: 2, comment: "Great" });
    expect((await getSurvey(desk.ws.token, desk.survey.id)).summary).toEqual({
      responses: 1,
      average: 2,
      nps: -100,
    });

    expect((await answer(await tokenFor(ticket.id, 8), "  ")).status).toBe(200);
    [row] = (await responsesOf(ticket.id)).results;
    expect(row).toMatchObject({ rating: 8, comment: null });
    expect((await getSurvey(desk.ws.token, desk.survey.id)).summary).toEqual({
      responses: 1,
      average: 8,
      nps: 0,
    });

    // Thirteen days on, still editable; past fourteen, refused.
    await env.DB_2.prepare("UPDATE survey_responses SET created_at = ? WHERE ticket_id = ?")
      .bind(Date.now() - 13 * DAY, ticket.id)
      .run();
    expect((await answer(await tokenFor(ticket.id, 9), "Late but fine")).status).toBe(200);
    await env.DB_2.prepare("UPDATE survey_responses SET created_at = ? WHERE ticket_id = ?")
      .bind(Date.now() - 14 * DAY - 60_000, ticket.id)
      .run();
    const late = await answer(await tokenFor(ticket.id, 0), "Changed my mind");
    expect(late.status).toBe(410);
    expect(await late.text()).toContain("can no longer be changed");
    expect((await call("GET", `/s/${await tokenFor(ticket.id, 0)}`)).status).toBe(410);
    [row] = (await responsesOf(ticket.id)).results;
    expect(row).toMatchObject({ rating: 9, comment: "Late but fine" });
    expect((await getSurvey(desk.ws.token, desk.survey.id)).summary).toEqual({
      responses: 1,
      average: 9,
      nps: 100,
    });
  });

  it("counts exactly under concurrent posts, first answers and edits alike", async () => {
    const desk = await surveyDesk("nps");
    const tickets = await Promise.all([1, 2, 3].map(() => seedRequest(desk, desk.survey.id)));
    const ratings = [10, 9, 3];
    // Each ticket answered by two links at once: one creates, the other edits (or loses, then edits).
    await Promise.all(
      tickets.flatMap((t, i) => [
        tokenFor(t.id, ratings[i] ?? 0).then((token) => answer(token, "a")),
        tokenFor(t.id, 5).then((token) => answer(token, "b")),
      ]),
    );
    const finals = await Promise.all(tickets.map(async (t) => (await responsesOf(t.id)).results));
    expect(finals.every((rows) => rows.length === 1)).toBe(true);
    const sum = finals.reduce((total, rows) => total + (rows[0]?.rating ?? 0), 0);
    const survey = await env.DB_2.prepare(
      "SELECT responses_count, rating_sum, promoters_count, detractors_count FROM surveys WHERE id = ?",
    )
      .bind(desk.survey.id)
      .first<Record<string, number>>();
    const rated = finals.map((rows) => rows[0]?.rating ?? 0);
    expect(survey).toEqual({
      responses_count: 3,
      rating_sum: sum,
      promoters_count: rated.filter((r) => r >= 9).length,
      detractors_count: rated.filter((r) => r <= 6).length,
    });
  });

  it("twenty concurrent posts to one request, every link of the scale: all answer a page, one rating stands, counters equal a recount", async () => {
    const desk = await surveyDesk("nps");
    const ticket = await seedRequest(desk, desk.survey.id);
    const ratings = Array.from({ length: 20 }, (_, i) => i % 11);
    const tokens = await Promise.all(ratings.map((r) => tokenFor(ticket.id, r)));
    const pages = await Promise.all(tokens.map((token, i) => answer(token, `comment ${i}`)));
    expect(pages.map((res) => res.status)).toEqual(ratings.map(() => 200));
    const rows = (await responsesOf(ticket.id)).results;
    expect(rows).toHaveLength(1);
    expect(ratings).toContain(rows[0]?.rating);
    // The rating and the comment that stand are those of one and the same post.
    expect(ratings[Number(rows[0]?.comment?.split(" ")[1])]).toBe(rows[0]?.rating);
    const counters = await env.DB_2.prepare(
      "SELECT responses_count, rating_sum, promoters_count, detractors_count FROM surveys WHERE id = ?",
    )
      .bind(desk.survey.id)
      .first<Record<string, number>>();
    const recount = await env.DB_2.prepare(
      `SELECT count(*) AS responses_count, coalesce(sum(rating), 0) AS rating_sum,
              coalesce(sum(rating >= 9), 0) AS promoters_count, coalesce(sum(rating <= 6), 0) AS detractors_count
       FROM survey_responses WHERE survey_id = ?`,
    )
      .bind(desk.survey.id)
      .first<Record<string, number>>();
    expect(counters).toEqual(recount);
    expect(counters?.responses_count).toBe(1);
  });

  it("the responses list filters by rating, inbox_id and created_after, newest first", async () => {
    const desk = await surveyDesk("csat");
    const [a, b, c] = [
      await seedRequest(desk, desk.survey.id),
      await seedRequest(desk, desk.survey.id),
      await seedRequest(desk, desk.survey.id),
    ];
    for (const [t, rating] of [
      [a, 5],
      [b, 1],
      [c, 5],
    ] as const)
      expect((await answer(await tokenFor(t.id, rating), "")).status).toBe(200);
    const old = Date.now() - 5 * DAY;
    await env.DB_2.prepare("UPDATE survey_responses SET created_at = ? WHERE ticket_id = ?")
      .bind(old, a.id)
      .run();
    const list = (query: string) =>
      callJson<{ data: Array<{ ticket_id: string }>; pagination: { total: number } }>(
        "GET",
        `/v1/surveys/${desk.survey.id}/responses${query}`,
        { token: desk.ws.token },
      );
    const ids = async (query: string) => (await list(query)).body.data.map((r) => r.ticket_id);
    expect(await ids("")).toEqual([c.id, b.id, a.id]);
    expect(await ids("?rating=5")).toEqual([c.id, a.id]);
    expect((await list("?rating=5")).body.pagination.total).toBe(2);
    expect(await ids(`?inbox_id=${desk.inbox.id}`)).toEqual([c.id, b.id, a.id]);
    expect(await ids("?inbox_id=inb_00000000000000000000000000")).toEqual([]);
    expect(await ids(`?created_after=${new Date(old + 1000).toISOString()}`)).toEqual([c.id, b.id]);
    expect(await ids(`?rating=5&created_after=${new Date(old + 1000).toISOString()}`)).toEqual([c.id]);
    expect(await ids("?limit=1&offset=1")).toEqual([b.id]);
    for (const bad of ["?rating=11", "?created_after=yesterday", "?limit=0"])
      expect((await list(bad)).status, bad).toBe(400);
  });
});
