import { describe, expect, it } from "vitest";
import { surveyInboxes, surveyResponses, surveys } from "../../src/db/schema";
import { newId } from "../../src/lib/ids";
import { dashboardGet, signIn } from "./dashboard-helpers";
import { db, seedInbox, seedUser, seedWorkspace, ticketWorkspace } from "./helpers";

const DAY = 86_400_000;
const WEEK = 7 * DAY;

/** Monday 00:00 UTC of the current week, computed from the calendar. */
function thisMonday() {
  const today = new Date();
  const sinceMonday = (today.getUTCDay() + 6) % 7;
  return Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - sinceMonday);
}

async function seedSurvey(
  accountId: string,
  kind: "csat" | "nps",
  counters: {
    responsesCount?: number;
    ratingSum?: number;
    promotersCount?: number;
    detractorsCount?: number;
  } = {},
  name = "After resolve",
) {
  const row = {
    id: newId("srv"),
    accountId,
    name,
    kind,
    question: "How did we do?",
    ...counters,
    createdAt: Date.now(),
    updatedAt: Date.now(),
  };
  await db().insert(surveys).values(row);
  return row;
}

async function respond(
  survey: { id: string; accountId: string },
  rating: number,
  createdAt: number,
  extra: { ticketId?: string; assigneeId?: string; comment?: string; inboxId?: string } = {},
) {
  await db()
    .insert(surveyResponses)
    .values({
      id: newId("rsp"),
      accountId: survey.accountId,
      surveyId: survey.id,
      ticketId: extra.ticketId ?? `tkv_${crypto.randomUUID()}`,
      inboxId: extra.inboxId ?? newId("inb"),
      customerId: newId("cus"),
      assigneeId: extra.assigneeId ?? null,
      rating,
      comment: extra.comment ?? null,
      createdAt,
      updatedAt: createdAt,
    });
}

/** The rows of the weekly table: week start, responses, average and (NPS) score. */
function weeksIn(page: string) {
  const table = page.slice(
    page.indexOf('class="survey-weeks"'),
    page.indexOf("</table>", page.indexOf('class="survey-weeks"')),
  );
  return [
    ...table.matchAll(
      /<tr><td>(\d{4}-\d{2}-\d{2})<\/td><td>(\d+)<\/td><td><span class="rating-value">([^<]+)<\/span>.*?<\/td>(?:<td>([^<]+)<\/td>)?<\/tr>/g,
    ),
  ].map((m) => ({ week: m[1], responses: Number(m[2]), average: m[3], nps: m[4] }));
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe("dashboard: surveys", () => {
  it("lists surveys with their summary for everyone signed in, escaped and paginated", async () => {
    const ws = await seedWorkspace();
    await seedSurvey(ws.accountId, "csat", { responsesCount: 4, ratingSum: 15 }, "<b>CSAT</b>");
    await seedSurvey(
      ws.accountId,
      "nps",
      { responsesCount: 4, ratingSum: 33, promotersCount: 2, detractorsCount: 1 },
      "Loyalty",
    );
    await seedSurvey(ws.accountId, "csat", {}, "Quiet");
    const agent = await signIn(ws.accountId, "agent");
    const page = await (await dashboardGet("/dashboard/surveys", agent)).text();
    expect(page).toContain('aria-current="page">Surveys');
    expect(page).toContain("&lt;b&gt;CSAT&lt;/b&gt;");
    // CSAT: 15 / 4 = 3.75, no score; NPS: 33 / 4 = 8.25, (2 - 1) / 4 = 25; none yet: dashes.
    expect(page).toMatch(
      /&lt;b&gt;CSAT&lt;\/b&gt;<\/a><\/td><td>CSAT<\/td><td>.*?<\/td><td>4<\/td><td>3.75<\/td><td>–<\/td>/,
    );
    expect(page).toMatch(/Loyalty<\/a><\/td><td>NPS<\/td><td>.*?<\/td><td>4<\/td><td>8.25<\/td><td>25<\/td>/);
    expect(page).toMatch(/Quiet<\/a><\/td><td>CSAT<\/td><td>.*?<\/td><td>0<\/td><td>–<\/td><td>–<\/td>/);

    const paged = await (await dashboardGet("/dashboard/surveys?limit=2", agent)).text();
    expect(paged).toContain("1–2 of 3");
    expect(paged).not.toContain("&lt;b&gt;CSAT");
  });

  it("counts each of the last 12 UTC weeks from the responses: responses, average, a bar", async () => {
    const ws = await seedWorkspace();
    const survey = await seedSurvey(ws.accountId, "csat");
    const other = await seedSurvey(ws.accountId, "csat", {}, "Other");
    const monday = thisMonday();
    await respond(survey, 5, monday);
    await respond(survey, 4, monday);
    await respond(survey, 1, monday - 1); // Sunday night: last week.
    for (const rating of [3, 4, 4]) await respond(survey, rating, monday - 3 * WEEK + 2 * DAY);
    await respond(survey, 2, monday - 12 * WEEK + DAY); // 13 weeks back: outside.
    await respond(other, 1, monday);
    const agent = await signIn(ws.accountId, "agent");
    const page = await (await dashboardGet(`/dashboard/surveys/${survey.id}`, agent)).text();
    const weeks = weeksIn(page);
    expect(weeks).toHaveLength(12);
    expect(weeks[0]).toMatchObject({ week: day(monday), responses: 2, average: "4.5" });
    expect(weeks[1]).toMatchObject({ week: day(monday - WEEK), responses: 1, average: "1" });
    expect(weeks[2]).toMatchObject({ week: day(monday - 2 * WEEK), responses: 0, average: "–" });
    expect(weeks[3]).toMatchObject({ week: day(monday - 3 * WEEK), responses: 3, average: "3.67" });
    expect(weeks[11]).toMatchObject({ week: day(monday - 11 * WEEK), responses: 0 });
    expect(weeks.reduce((sum, w) => sum + w.responses, 0)).toBe(6);
    expect(page).toContain('<meter class="rating-bar" min="1" max="5"');
    expect(page).toContain('value="4.5" aria-label="Average 4.5 of 5"');
    expect(page).not.toContain("<th>NPS</th>");
  });

  it("gives NPS surveys their score per week", async () => {
    const ws = await seedWorkspace();
    const survey = await seedSurvey(ws.accountId, "nps");
    const monday = thisMonday();
    for (const rating of [10, 9, 6, 8]) await respond(survey, rating, monday);
    await respond(survey, 0, monday - WEEK);
    const owner = await signIn(ws.accountId, "owner");
    const weeks = weeksIn(await (await dashboardGet(`/dashboard/surveys/${survey.id}`, owner)).text());
    expect(weeks[0]).toEqual({ week: day(monday), responses: 4, average: "8.25", nps: "25" });
    expect(weeks[1]).toEqual({ week: day(monday - WEEK), responses: 1, average: "0", nps: "-100" });
    expect(weeks[2]).toEqual({ week: day(monday - 2 * WEEK), responses: 0, average: "–", nps: "–" });
  });

  it("shows the latest responses with comment, ticket and assignee, newest first, paginated", async () => {
    const { ws, ticket } = await ticketWorkspace("survey");
    const inbox = await seedInbox(ws.accountId);
    const survey = await seedSurvey(ws.accountId, "csat");
    await db()
      .insert(surveyInboxes)
      .values({ surveyId: survey.id, inboxId: inbox.id, accountId: ws.accountId });
    const assignee = await seedUser(ws.accountId, { role: "agent" });
    const now = Date.now();
    await respond(survey, 2, now - 3 * DAY, { comment: "Slow" });
    await respond(survey, 5, now - DAY, {
      ticketId: ticket.id,
      assigneeId: assignee.id,
      comment: "<script>alert(1)</script> great",
    });
    const agent = await signIn(ws.accountId, "agent");
    const page = await (await dashboardGet(`/dashboard/surveys/${survey.id}?limit=1`, agent)).text();
    expect(page).toContain("How did we do?");
    expect(page).toContain(`<a href="/dashboard/inboxes/${inbox.id}">Support</a>`);
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt; great");
    expect(page).not.toContain("<script>alert(1)");
    expect(page).toContain(`<a href="/dashboard/tickets/${ticket.id}">Help</a>`);
    expect(page).toContain("<td>Test Person</td>");
    expect(page).not.toContain("Slow");
    expect(page).toContain("1–1 of 2");
    const older = await (
      await dashboardGet(`/dashboard/surveys/${survey.id}?limit=1&offset=1`, agent)
    ).text();
    expect(older).toContain("Slow");
    expect(older).toContain("<td>Unassigned</td>");
  });

  it("answers 404 for another workspace's survey and never counts its responses", async () => {
    const mine = await seedWorkspace();
    const theirs = await seedWorkspace();
    const survey = await seedSurvey(theirs.accountId, "csat", { responsesCount: 1, ratingSum: 5 }, "Theirs");
    await respond(survey, 5, Date.now());
    const owner = await signIn(mine.accountId, "owner");
    expect((await dashboardGet(`/dashboard/surveys/${survey.id}`, owner)).status).toBe(404);
    const list = await (await dashboardGet("/dashboard/surveys", owner)).text();
    expect(list).not.toContain("Theirs");
    expect(list).toContain("No surveys here yet.");
  });
});
