/**
 * How much one D1 database holds (issue 29): writes a known number of emails and tickets through
 * the API (each call also leaves a request log, half of them with a browser's user agent, as real
 * traffic has; each ticket's event goes to a loopback webhook), waits for the queues to send the
 * emails, deliver the webhooks and store the logs, then a campaign to as many new contacts, then
 * enrols customers in a three-step automation (enrolment history), and reads SQLite's dbstat in the
 * local files of both databases before, between and after each phase. Each figure is the growth in bytes (table plus its indexes) over the growth
 * in rows, so what earlier runs left in the database does not count; a table this run does not
 * write is shown from its whole content.
 */
import { randomBytes } from "node:crypto";
import { shardNames } from "../../scripts/lib/databases";
import { EMAIL_RETENTION_MAX_DAYS } from "../../src/lib/email-retention";
import { PLAN_NAMES, PLANS } from "../../src/lib/plans";
import { WebhookReceiver } from "../../test/support/webhook-receiver";
import { call, describe, waitForEmptyQueue } from "../lib/api";
import { enrolCustomers } from "../lib/capacity-enrolments";
import { localTableSizes, type TableSizes } from "../lib/dbstat";
import { inParallel } from "../lib/inbound-mail";
import { sleep } from "../lib/process-group";
import type { BenchContext, Figure, Scenario, ScenarioResult } from "../lib/types";

const ROWS = Number(process.env.CAPACITY_ROWS ?? 1_000);
/** Enrolments run their steps one Workflow each, slower than a write: a fifth as many. */
const ENROLMENTS = Math.max(1, Math.round(ROWS / 5));
const CONCURRENCY = 8;
const QUEUE_TIMEOUT_MS = 5 * 60_000;
/** D1's limit per database, in bytes (10 GB). */
const DATABASE_BYTES = 10e9;
const RATES = [10, 100, 1_000];
const DAY_SECONDS = 86_400;

/** What one row of each thing stored costs, counted with the rows it brings along. */
const THINGS = [
  {
    label: "email (with recipients, tags, events)",
    of: "emails",
    tables: ["emails", "email_recipients", "email_tags", "email_events"],
  },
  {
    label: "ticket (with its message, customer, tags)",
    of: "tickets",
    tables: ["tickets", "messages", "customers", "ticket_tags"],
  },
  {
    label: "request log",
    of: "request_logs",
    tables: ["request_logs", "request_logs_counts", "log_agents"],
  },
] as const;
/** High-volume tables measured on their own as well. */
const TABLES = [
  "emails",
  "email_recipients",
  "email_tags",
  "email_events",
  "tickets",
  "messages",
  "customers",
  "ticket_tags",
  "webhook_deliveries",
  "campaign_recipients",
  "automation_enrollments",
  "enrollment_steps",
] as const;
const LOG_TABLES = ["request_logs", "request_logs_counts", "log_agents"] as const;

/**
 * Browsers' user agents (the dashboard's users, scripts run from a browser console), sent on half
 * the writes: a few distinct ones, each ~80–140 bytes, as a real mix of clients has.
 */
const BROWSER_AGENTS = [
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
];
/** Every other request is a browser's; the rest keep the bench's own short agent. */
const agentHeaders = (i: number): Record<string, string> => {
  const agent = BROWSER_AGENTS[Math.floor(i / 2) % BROWSER_AGENTS.length];
  return i % 2 === 0 && agent ? { "User-Agent": agent } : {};
};

const sizes = () => localTableSizes(TABLES, LOG_TABLES);

/** Days of email kept, for the table of shards a deployment needs (issue 43 sets them per plan). */
const KEPT_DAYS = [30, 90, 400];

/**
 * The whole service: what N shards (wrangler.toml's SHARDS) hold together, and how many shards a
 * deployment needs to keep a number of days of email at a rate. One workspace's own ceiling is its
 * shard: a workspace lives in exactly one (src/db/shards.ts), so it never has more than 10 GB.
 */
function serviceLines(emailBytes: number, figures: Figure[]): string[] {
  const shards = shardNames().length;
  const held = (shards * DATABASE_BYTES) / emailBytes;
  figures.push({
    label: `emails the whole service holds with ${shards} shards`,
    value: round(held),
    unit: "",
  });
  const needed = (rate: number, days: number) =>
    Math.ceil((rate * DAY_SECONDS * days * emailBytes) / DATABASE_BYTES);
  return [
    `| Whole service, ${shards} shards (SHARDS) | Emails held | Days at 10/s | Days at 100/s | Days at 1,000/s |`,
    "|---|---:|---:|---:|---:|",
    `| email (with recipients, tags, events) | ${round(held).toLocaleString("en-US")} | ${RATES.map((r) => daysText(held, r)).join(" | ")} |`,
    "",
    `| Shards needed to keep | ${RATES.map((r) => `${r.toLocaleString("en-US")} emails/s`).join(" | ")} |`,
    `|---|${RATES.map(() => "---:").join("|")}|`,
    ...KEPT_DAYS.map(
      (days) => `| ${days} days | ${RATES.map((r) => needed(r, days).toLocaleString("en-US")).join(" | ")} |`,
    ),
  ];
}

/** Rates for one workspace's steady state: emails a second. */
const WORKSPACE_RATES = [1, 10, 100];
const GB = 1e9;
const size = (bytes: number) =>
  bytes >= 100 * GB
    ? `${Math.round(bytes / GB).toLocaleString("en-US")} GB`
    : bytes >= GB
      ? `${(bytes / GB).toFixed(1)} GB`
      : `${Math.round(bytes / 1e6)} MB`;

/**
 * One workspace's email rows at steady state under each plan's retention (issue 43): an email is
 * kept its retention and at most a day more (whole UTC days are archived), so the peak is
 * retention + 1 days of mail. A workspace lives in one shard: the last column is the highest
 * rate whose peak fits one 10 GB database on its own.
 */
function workspaceLines(emailBytes: number): string[] {
  const perDay = (rate: number) => rate * DAY_SECONDS * emailBytes;
  return [
    `| Plan (retention) | ${WORKSPACE_RATES.map((r) => `${r}/s`).join(" | ")} | At the monthly quota | Most that fits a shard |`,
    `|---|${WORKSPACE_RATES.map(() => "---:").join("|")}|---:|---:|`,
    ...PLAN_NAMES.map((plan) => {
      const kept = EMAIL_RETENTION_MAX_DAYS[plan] + 1;
      const monthly = PLANS[plan].emails_per_month;
      const quota = monthly === null ? "no quota" : size((monthly / 30) * kept * emailBytes);
      const fits = DATABASE_BYTES / (DAY_SECONDS * kept * emailBytes);
      return `| ${plan} (${kept - 1} d) | ${WORKSPACE_RATES.map((r) => size(perDay(r) * kept)).join(" | ")} | ${quota} | ${fits.toFixed(fits < 1 ? 2 : 1)}/s |`;
    }),
  ];
}

/** Bytes per row of `of` for `tables` together: growth over growth, or the whole table if it did not grow. */
function bytesPerRow(before: TableSizes, after: TableSizes, of: string, tables: readonly string[]) {
  const grown = (after.get(of)?.rows ?? 0) - (before.get(of)?.rows ?? 0);
  const bytes = (sizes: TableSizes) => tables.reduce((sum, t) => sum + (sizes.get(t)?.bytes ?? 0), 0);
  if (grown > 0) return { rows: grown, perRow: (bytes(after) - bytes(before)) / grown, whole: false };
  const rows = after.get(of)?.rows ?? 0;
  return { rows, perRow: rows > 0 ? bytes(after) / rows : 0, whole: true };
}

async function inboxWithWebhook(ctx: BenchContext, run: string, url: string): Promise<string> {
  const answer = await call(ctx, "POST", "/v1/inboxes", {
    name: "Capacity",
    email_address: `capacity-${run}@${ctx.fromDomain}`,
    webhooks: [{ url, events: ["ticket.created"], enabled: true }],
  });
  if (answer.status !== 201) throw new Error(`POST /v1/inboxes answered ${describe(answer)}`);
  return (JSON.parse(answer.text) as { id: string }).id;
}

/** The parsed answer of a POST that must succeed (200 or 201). */
async function posted<T>(ctx: BenchContext, path: string, body: unknown): Promise<T> {
  const answer = await call(ctx, "POST", path, body);
  if (answer.status !== 200 && answer.status !== 201)
    throw new Error(`POST ${path} answered ${describe(answer)}`);
  return JSON.parse(answer.text) as T;
}

/** A campaign to ROWS new contacts, sent; answers once the queue has sent it. */
async function sendCampaign(ctx: BenchContext, run: string) {
  const group = await posted<{ id: string }>(ctx, "/v1/contact-groups", { name: `Capacity ${run}` });
  const members = Array.from({ length: ROWS }, (_, i) => ({ email: `reader-${i}.${run}@example.com` }));
  await posted(ctx, `/v1/contact-groups/${group.id}/members`, { members });
  const campaign = await posted<{ id: string }>(ctx, "/v1/campaigns", {
    name: `Capacity ${run}`,
    from: `Acme News <news@${ctx.fromDomain}>`,
    subject: "What is new at Acme",
    html: '<p>Hello {{first_name|there}}</p><p><a href="{{unsubscribe_url}}">Unsubscribe</a></p>',
    text: "Hello {{first_name|there}}",
    contact_group_ids: [group.id],
  });
  await posted(ctx, `/v1/campaigns/${campaign.id}/send`, {});
  await sleep(2_000);
  return waitForEmptyQueue(ctx, QUEUE_TIMEOUT_MS);
}

async function writeThroughApi(ctx: BenchContext, run: string, inbox: string) {
  const items = Array.from({ length: ROWS }, (_, i) => i);
  const failures: string[] = [];
  const post = async (path: string, body: unknown, i: number) => {
    const answer = await call(ctx, "POST", path, body, agentHeaders(i));
    if (answer.status !== 201 && answer.status !== 200 && failures.length < 3)
      failures.push(`POST ${path} answered ${describe(answer)}`);
  };
  await inParallel(items, CONCURRENCY, (i) =>
    post(
      "/v1/emails",
      {
        from: `Acme Billing <billing@${ctx.fromDomain}>`,
        to: [`customer-${i}.${run}@example.com`],
        subject: `Your receipt #${10_000 + i}`,
        text: `Hello,\n\nThank you for your order #${10_000 + i}. Your total was $42.00.\n\nAcme`,
        html: `<p>Hello,</p><p>Thank you for your order #${10_000 + i}. Your total was $42.00.</p><p>Acme</p>`,
        tags: [{ name: "kind", value: "receipt" }],
      },
      i,
    ),
  );
  await inParallel(items, CONCURRENCY, (i) =>
    post(
      "/v1/tickets",
      {
        inbox_id: inbox,
        customer: { email: `requester-${i}.${run}@example.com`, name: `Requester ${i}` },
        subject: `Order #${10_000 + i} arrived damaged`,
        message: {
          body_text:
            "Hello,\n\nThe box was crushed and the mug inside is broken. Can you send another?\n\nThanks",
        },
        tags: ["shipping"],
      },
      i,
    ),
  );
  return failures;
}

/** Waits until LOGS holds at least `rows` request logs (they arrive through a queue). */
async function waitForLogs(rows: number) {
  const until = Date.now() + QUEUE_TIMEOUT_MS;
  while ((sizes().get("request_logs")?.rows ?? 0) < rows && Date.now() < until) await sleep(1_000);
}

const round = (n: number) => Math.round(n);
const days = (rows: number, perSecond: number) => rows / (perSecond * DAY_SECONDS);

/** Waits until the receiver has `count` deliveries (the webhook queue runs after the response). */
async function waitForDeliveries(receiver: WebhookReceiver, count: number) {
  const until = Date.now() + QUEUE_TIMEOUT_MS;
  while (receiver.received.length < count && Date.now() < until) await sleep(1_000);
}

/** Days until `rows` fill at `perSecond` rows a second, to two significant figures below 10. */
const daysText = (rows: number, perSecond: number) => {
  const value = days(rows, perSecond);
  return value >= 10 ? value.toFixed(0) : value.toPrecision(2);
};

/** Campaign recipients grow in the second phase, after the emails and tickets were measured. */
const SECOND_PHASE = new Set(["campaign_recipients"]);
/** Enrolment history grows in the third, after the campaign. */
const THIRD_PHASE = new Set(["automation_enrollments", "enrollment_steps"]);

export const capacity: Scenario = {
  name: "capacity",
  description: `bytes per row (dbstat) after ${ROWS} emails, tickets and campaign recipients and ${ENROLMENTS} enrolments through the API; what 10 GB holds`,
  needsSendingDomain: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    if (!ctx.local)
      return {
        name: "capacity",
        measurements: [],
        goals: [],
        problems: ["capacity reads the local D1 files: run it without BENCH_URL"],
      };
    const run = randomBytes(4).toString("hex");
    const receiver = new WebhookReceiver();
    const hooks = await receiver.listen();
    const problems: string[] = [];
    let before: TableSizes;
    let between: TableSizes;
    let after: TableSizes;
    let enrolled: TableSizes;
    try {
      const inbox = await inboxWithWebhook(ctx, run, `${hooks}/capacity`);
      before = sizes();
      problems.push(...(await writeThroughApi(ctx, run, inbox)));
      const queue = await waitForEmptyQueue(ctx, QUEUE_TIMEOUT_MS);
      if (queue.left > 0) problems.push(`${queue.left} emails were still unsent after ${queue.seconds} s`);
      await waitForDeliveries(receiver, ROWS);
      await waitForLogs((before.get("request_logs")?.rows ?? 0) + 2 * ROWS);
      between = sizes();
      const campaign = await sendCampaign(ctx, run);
      if (campaign.left > 0) problems.push(`${campaign.left} campaign emails were still unsent`);
      after = sizes();
      problems.push(...(await enrolCustomers(ctx, run, `${hooks}/enrolments`, ENROLMENTS, QUEUE_TIMEOUT_MS)));
      enrolled = sizes();
    } finally {
      await receiver.close();
    }

    const figures: Figure[] = [];
    const lines = [
      "| Stored | Bytes per row | Rows in 10 GB | Days at 10/s | Days at 100/s | Days at 1,000/s |",
      "|---|---:|---:|---:|---:|---:|",
    ];
    for (const thing of THINGS) {
      const { perRow, rows } = bytesPerRow(before, between, thing.of, thing.tables);
      const held = DATABASE_BYTES / perRow;
      figures.push({
        label: `${thing.label}: bytes per row (${rows} rows)`,
        value: round(perRow),
        unit: "B",
      });
      lines.push(
        `| ${thing.label} | ${round(perRow)} | ${round(held).toLocaleString("en-US")} | ${RATES.map((r) => daysText(held, r)).join(" | ")} |`,
      );
    }
    const email = bytesPerRow(before, between, "emails", THINGS[0].tables).perRow;
    lines.push("", ...serviceLines(email, figures), "", ...workspaceLines(email));
    lines.push("", "| Table (with its indexes) | Bytes per row | Rows measured |", "|---|---:|---:|");
    for (const table of [...TABLES, "request_logs"]) {
      const [from, to] = SECOND_PHASE.has(table)
        ? [between, after]
        : THIRD_PHASE.has(table)
          ? [after, enrolled]
          : [before, between];
      const { perRow, rows, whole } = bytesPerRow(from, to, table, [table]);
      const measured = rows === 0 ? "none" : `${rows}${whole ? " (whole table)" : ""}`;
      lines.push(`| ${table} | ${rows === 0 ? "–" : round(perRow)} | ${measured} |`);
      if (rows > 0) figures.push({ label: `${table}: bytes per row`, value: round(perRow), unit: "B" });
    }
    // A handful of agents fit in the pages the table already had: their growth says nothing.
    const agents = enrolled.get("log_agents") ?? { rows: 0, bytes: 0 };
    lines.push(
      "",
      `log_agents: ${agents.rows} distinct user agents in ${agents.bytes.toLocaleString("en-US")} bytes, shared by every log.`,
    );
    figures.push({ label: "log_agents: bytes in all", value: agents.bytes, unit: "B" });
    console.log(`\nCapacity of one 10 GB D1 database (dbstat, this machine):\n\n${lines.join("\n")}\n`);
    return { name: "capacity", measurements: [], goals: [], figures, problems };
  },
};
