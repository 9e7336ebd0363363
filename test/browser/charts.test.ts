import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { deliverInbound, fromHeaderAddress } from "../../scripts/lib/inbound";
import { WORKER_SECRETS } from "../../smtp-relay/test/support/running-worker";
import { surveyToken } from "../../src/mail/survey-token";
import { api, connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

const { chromium, sessions } = inject("browser");

const BOUNCE_FIXTURE = join(import.meta.dirname, "..", "fixtures", "inbound", "postfix-dsn-hard.eml");
const DAY_MS = 86_400_000;

/** Asks `check` again every 250 ms until it answers something: the queue works after the response. */
async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await api(method, path, body);
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return (await response.json()) as T;
}

type Row = Record<string, number | string | null>;
interface Report {
  data: Row[];
  from: string;
  to: string;
}

/** What a chart draws: per series (its name), each point's interval start and raw value. */
async function drawn(chart: Locator): Promise<Record<string, Record<string, number>>> {
  return chart
    .locator("g.chart-series")
    .evaluateAll((groups) =>
      Object.fromEntries(
        groups.map((g) => [
          g.getAttribute("data-series") ?? "",
          Object.fromEntries(
            [...g.querySelectorAll("circle")].map((c) => [
              c.getAttribute("data-start") ?? "",
              Number(c.getAttribute("data-value")),
            ]),
          ),
        ]),
      ),
    );
}

/** What a series should draw: its value for each interval that has one (no point for null). */
function expected(report: Report, series: Record<string, (row: Row) => number | null>) {
  return Object.fromEntries(
    Object.entries(series).map(([name, pick]) => [
      name,
      Object.fromEntries(
        report.data
          .map((row) => [row.start as string, pick(row)] as const)
          .filter((entry): entry is readonly [string, number] => entry[1] !== null),
      ),
    ]),
  );
}

const count = (name: string) => (row: Row) => row[name] as number;
const maybe = (name: string) => (row: Row) => row[name] as number | null;
const EMAIL_SERIES = {
  Sent: count("sent"),
  Delivered: count("delivered"),
  Bounced: (row: Row) => (row.bounced_hard as number) + (row.bounced_soft as number),
  Complained: count("complained"),
  Opened: count("opened"),
  Clicked: count("clicked"),
};
const TICKET_SERIES = { Created: count("created"), Resolved: count("resolved") };
const FIRST_RESPONSE_SERIES = { "Median first response": maybe("first_response_p50") };

/** A chart with nothing to draw has no series at all. */
const orEmpty = (series: Record<string, Record<string, number>>) =>
  Object.values(series).every((points) => Object.keys(points).length === 0) ? {} : series;

/** The period a page's section charts, as the reports' own from/to. */
async function periodOf(section: Locator) {
  return {
    from: (await section.getAttribute("data-from")) ?? "",
    to: (await section.getAttribute("data-to")) ?? "",
  };
}

/**
 * Every browser test file shares the one workspace, and another may send mail meanwhile: the
 * page is compared with the reports read just before and just after it, when those two agree.
 */
async function compareWithReports(
  page: Page,
  url: string,
  section: string,
  check: (reports: { email: Report; support: Report }) => Promise<void>,
) {
  for (let attempt = 1; ; attempt++) {
    await page.goto(url);
    const { from, to } = await periodOf(page.locator(section));
    const read = async () => ({
      email: await json<Report>("GET", `/v1/reports/email?from=${from}&to=${to}`),
      support: await json<Report>("GET", `/v1/reports/support?from=${from}&to=${to}`),
    });
    const before = await read();
    await page.reload();
    const after = await read();
    if (JSON.stringify(before) === JSON.stringify(after) || attempt === 5) {
      await check(after);
      return { from, to };
    }
  }
}

/** Mail that bounces: an email, then its recipient's hard bounce to the email's bounce address. */
async function bouncedEmail() {
  const recipient = `gone-${crypto.randomUUID().slice(0, 8)}@example.net`;
  const { id } = await json<{ id: string }>("POST", "/v1/emails", {
    from: "Acme <hello@example.com>",
    to: recipient,
    subject: "Your receipt",
    text: "Thank you.",
  });
  const copy = await eventually(async () => {
    const { data } = (await (await fetch(`${workerUrl}/_dev/mailbox.json`)).json()) as {
      data: Array<{ id: string; return_path: string; raw: string }>;
    };
    return data.find((m) => m.id === id);
  });
  await eventually(async () => {
    const email = await json<{ status: string }>("GET", `/v1/emails/${id}`);
    return email.status === "sent" ? email : undefined;
  });
  const bounce = readFileSync(BOUNCE_FIXTURE, "utf8")
    .replaceAll("{{BOUNCE}}", copy.return_path)
    .replaceAll("{{RECIPIENT}}", recipient)
    .replaceAll("{{SENDER}}", "hello@example.com")
    .replaceAll("{{ORIGINAL_ID}}", /^Message-ID:\s*(<[^>]+>)/im.exec(copy.raw)?.[1] ?? "")
    .replaceAll("{{ID}}", crypto.randomUUID());
  const delivered = await deliverInbound({
    baseUrl: workerUrl,
    from: fromHeaderAddress(bounce) ?? "",
    to: copy.return_path,
    raw: bounce,
  });
  expect(delivered).toEqual({ outcome: "accepted" });
}

describe.skipIf(!chromium)("the reports' charts in a real Chromium", () => {
  let browser: Browser;
  let inboxId: string;
  beforeAll(async () => {
    browser = await connectChromium();
    const suffix = crypto.randomUUID().slice(0, 8);
    inboxId = (
      await json<{ id: string }>("POST", "/v1/inboxes", {
        name: `Charts ${suffix}`,
        email_address: `charts-${suffix}@example.com`,
      })
    ).id;
    // Today has a ticket asked, answered and resolved, and an email that bounced.
    const ticket = await json<{ id: string }>("POST", "/v1/tickets", {
      inbox_id: inboxId,
      subject: "Where is my order?",
      customer: { email: `charts-${suffix}@customer.example` },
      message: { body_text: "It has not arrived." },
    });
    await json("POST", `/v1/tickets/${ticket.id}/messages`, { body_text: "On its way." });
    await json("PATCH", `/v1/tickets/${ticket.id}`, { status: "resolved" });
    await bouncedEmail();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("draws on the Overview what GET /v1/reports/email and /support return for the same days, over 7, 30 or 90", async () => {
    const { page, errors } = await signedInPage(browser, "agent");
    const today = Math.floor(Date.now() / DAY_MS);
    for (const days of [30, 7, 90]) {
      const url = `${workerUrl}/dashboard${days === 30 ? "" : `?days=${days}`}`;
      const period = await compareWithReports(page, url, "section#reports", async ({ email, support }) => {
        expect(email.data).toHaveLength(days);
        expect(await drawn(page.locator("#email-chart"))).toEqual(expected(email, EMAIL_SERIES));
        expect(await drawn(page.locator("#tickets-chart"))).toEqual(expected(support, TICKET_SERIES));
        expect(orEmpty(await drawn(page.locator("#first-response-chart")))).toEqual(
          orEmpty(expected(support, FIRST_RESPONSE_SERIES)),
        );
        // The table alternative has one row per day, and the email chart's today counts our mail.
        expect(await page.locator("#email-chart details tbody tr").count()).toBe(days);
        const todayRow = email.data.at(-1) as Row;
        expect(todayRow.sent as number).toBeGreaterThanOrEqual(1);
        expect(todayRow.bounced_hard as number).toBeGreaterThanOrEqual(1);
      });
      expect(period).toEqual({
        from: new Date((today + 1 - days) * DAY_MS).toISOString(),
        to: new Date((today + 1) * DAY_MS).toISOString(),
      });
      const current = page.locator(".period-switch a[aria-current='page']");
      expect(await current.textContent()).toBe(`${days} days`);
      expect(await page.locator("#email-chart svg[role='img']").getAttribute("aria-label")).toMatch(
        /^Email: Sent, Delivered, Bounced, Complained, Opened, Clicked per day, /,
      );
      await screenshot(page, `overview-charts-${days}d`);
    }
    // The switch is links: from 90 days, 7 is a click away.
    await page.getByRole("link", { name: "7 days" }).click();
    await page.waitForURL(/\?days=7$/);
    expect(await page.locator("#email-chart details tbody tr").count()).toBe(7);
    // A point's native tooltip says the day and the value.
    const point = page.locator("#email-chart g[data-series='Sent'] circle").last();
    expect(await point.locator("title").textContent()).toMatch(/^Sent, \d{4}-\d{2}-\d{2}: [\d,]+$/);
    // Anything but 7, 30 or 90 shows 30 days.
    for (const odd of ["5", "abc", "30.5", ""]) {
      expect((await page.goto(`${workerUrl}/dashboard?days=${odd}`))?.status()).toBe(200);
      expect(await page.locator(".period-switch a[aria-current='page']").textContent()).toBe("30 days");
    }
    expect(errors).toEqual([]);
  });

  it("draws the Deliverability page's bounce and complaint rates as the email report gives them", async () => {
    const { page, errors } = await signedInPage(browser, "agent");
    await compareWithReports(
      page,
      `${workerUrl}/dashboard/deliverability`,
      "section#rates",
      async ({ email }) => {
        expect(email.data).toHaveLength(30);
        expect(orEmpty(await drawn(page.locator("#bounce-rate-chart")))).toEqual(
          orEmpty(expected(email, { "Bounce rate": maybe("bounce_rate") })),
        );
        expect(orEmpty(await drawn(page.locator("#complaint-rate-chart")))).toEqual(
          orEmpty(expected(email, { "Complaint rate": maybe("complaint_rate") })),
        );
        // Today bounced: its rate is drawn, as a percentage in its tooltip.
        const today = email.data.at(-1) as Row;
        expect(today.bounce_rate).not.toBeNull();
        const point = page.locator(`#bounce-rate-chart circle[data-start='${today.start}']`);
        expect(await point.locator("title").textContent()).toBe(
          `Bounce rate, ${String(today.start).slice(0, 10)}: ${Number(((today.bounce_rate as number) * 100).toFixed(2))}%`,
        );
      },
    );
    expect(await page.locator("#bounce-rate-chart").textContent()).not.toContain("NaN");
    await screenshot(page, "deliverability-charts");
    expect(errors).toEqual([]);
  });

  it("draws a survey's average rating per week as its responses give it", async () => {
    const survey = await json<{ id: string }>("POST", "/v1/surveys", {
      name: `Charts survey ${crypto.randomUUID().slice(0, 8)}`,
      kind: "csat",
      question: "How did we do?",
      inbox_ids: [inboxId],
    });
    const { page, errors } = await signedInPage(browser, "agent");
    // Three customers resolved and answering 5, 4 and 2 from their email's links.
    for (const rating of [5, 4, 2]) {
      const ticket = await json<{ id: string }>("POST", "/v1/tickets", {
        inbox_id: inboxId,
        subject: `Rated ${rating}`,
        customer: { email: `rater-${crypto.randomUUID().slice(0, 8)}@customer.example` },
      });
      await json("PATCH", `/v1/tickets/${ticket.id}`, { status: "resolved" });
      const token = await surveyToken(WORKER_SECRETS.ENCRYPTION_KEY, { ticketId: ticket.id, rating });
      await eventually(async () => {
        const response = await page.goto(`${workerUrl}/s/${token}`);
        return response?.status() === 200 ? true : undefined;
      });
      await page.getByRole("button", { name: "Send my rating" }).click();
      await page.getByText(/thank/i).first().waitFor();
    }

    await page.goto(`${workerUrl}/dashboard/surveys/${survey.id}`);
    const { data } = await json<{ data: Array<{ rating: number; created_at: string }> }>(
      "GET",
      `/v1/surveys/${survey.id}/responses?limit=100`,
    );
    expect(data).toHaveLength(3);
    // Each UTC week (Monday first) of the responses, and its average to two decimals.
    const weeks = new Map<string, number[]>();
    for (const response of data) {
      const day = Math.floor(Date.parse(response.created_at) / DAY_MS);
      const monday = new Date((day - ((day + 3) % 7)) * DAY_MS).toISOString();
      weeks.set(monday, [...(weeks.get(monday) ?? []), response.rating]);
    }
    const averages = Object.fromEntries(
      [...weeks].map(([week, ratings]) => [
        week,
        Math.round((ratings.reduce((a, b) => a + b, 0) * 100) / ratings.length) / 100,
      ]),
    );
    expect(await drawn(page.locator("#score-chart"))).toEqual({ "Average rating": averages });
    expect(await page.locator("#score-chart details tbody tr").count()).toBe(12);
    await screenshot(page, "survey-chart");
    expect(errors).toEqual([]);
  });

  it("shows every chart as a table without JavaScript, the switch still working", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    await context.addCookies([
      { name: "session", value: sessions.agent, url: workerUrl, httpOnly: true, sameSite: "Lax" },
    ]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto(`${workerUrl}/dashboard`);
    await page.getByRole("link", { name: "7 days" }).click();
    await page.waitForURL(/\?days=7$/);
    await compareWithReports(page, page.url(), "section#reports", async ({ email }) => {
      const table = page.locator("#email-chart details table");
      expect(await table.isVisible()).toBe(false);
      await page.locator("#email-chart details summary").click();
      expect(await table.isVisible()).toBe(true);
      expect(await table.locator("caption").textContent()).toBe("Email");
      const rows = await table
        .locator("tbody tr")
        .evaluateAll((trs) =>
          trs.map((tr) => [
            tr.getAttribute("data-start"),
            ...[...tr.querySelectorAll("td")].map((td) => td.textContent),
          ]),
        );
      expect(rows).toEqual(
        email.data.map((row) => [
          row.start,
          ...Object.values(EMAIL_SERIES).map((pick) => (pick(row) ?? 0).toLocaleString("en")),
        ]),
      );
    });
    await screenshot(page, "overview-charts-no-script");
    expect(errors).toEqual([]);
    await context.close();
  });
});
