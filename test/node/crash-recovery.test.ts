import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sleep } from "../../bench/lib/process-group";
import { workspaceSql } from "../../scripts/lib/workspace";
import { WORKER_SECRETS } from "../../smtp-relay/test/support/running-worker";
import { type RestartableWorker, startRestartableWorker } from "../support/restartable-worker";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink";
import { WebhookReceiver } from "../support/webhook-receiver";

/**
 * Crash safety, from the outside: one real `wrangler dev` sends transactional email to a loopback
 * SMTP sink, a campaign, a release of scheduled email and webhooks of new tickets, all at once; the
 * whole runtime is SIGKILLed (its process group, workerd included) in the middle of that work, started
 * again on the same persisted state, killed again shortly after, and started once more. Then the
 * minute cron is fired (as production's trigger would) until everything is final, or the bound.
 * What the sink and the receiver got is compared with what the API says: nothing accepted is lost
 * or stuck, nobody is mailed twice, each webhook delivery is attempted at most once.
 */

/** How long after the last restart everything must be final. The minute cron drives recovery. */
const RECOVERY_BOUND_MS = Number(process.env.CRASH_RECOVERY_BOUND_MS ?? 4 * 60_000);
/** How often the test fires the minute cron; production fires it every 60 s. */
const CRON_EVERY_MS = 10_000;
/**
 * Emails closed as "outcome unknown" (handed to the transport when the runtime died): at most
 * those truly in flight at a kill, a few Queue batches' worth.
 */
const UNKNOWN_OUTCOME_BOUND = 25;

const SENDS = 300;
const CAMPAIGN_RECIPIENTS = 1_000;
const SCHEDULED = 200;
const TICKETS = 200;
/** The campaign has sent this many before the rest of the burst joins in. */
const CAMPAIGN_HEAD_START = 100;
/** The tickets start once the sink took this many of the sends and of the scheduled emails each, */
const FIRST_KILL_AT_SUNK = 60;
/** and the first kill comes once the receiver took this many webhooks (or after KILL_BY_MS). */
const FIRST_KILL_AT_WEBHOOKS = 30;
/** The second kill, after the first restart and one cron, once the sink took this many more. */
const SECOND_KILL_AT_SUNK = 60;
const KILL_BY_MS = 60_000;
/** The second kill comes by then even if nothing was sent after the first restart. */
const SECOND_KILL_BY_MS = 20_000;
/** The scheduled emails are due this long after they start being created. */
const SCHEDULE_LEAD_MS = 25_000;

const DOMAIN = "crash.test";
const UNKNOWN_OUTCOME_PREFIX = "The sender stopped after handing the message to the transport";
const FINAL_EMAIL = new Set(["sent", "delivered", "bounced", "failed", "cancelled"]);
const FINAL_DELIVERY = new Set(["succeeded", "failed", "unknown"]);

interface EmailSummary {
  id: string;
  to: string[];
  bcc: string[];
  status: string;
  last_response: string | null;
  tags: Array<{ name: string; value: string }>;
}

interface EventRecord {
  id: string;
  inbox_id: string;
  data: { ticket?: { id: string } };
  dispatched_at: string | null;
  deliveries: Array<{ id: string; status: string; error: string | null }>;
}

interface Row {
  scenario: string;
  accepted: number;
  final: number;
  lost: number;
  stuck: number;
  duplicated: number;
  /** Of the stuck, how many the sink got anyway (for at least one recipient). */
  stuckReceived: number;
  unknown: number;
  unknownReceived: number;
  /** Each lost email as the API and the sink see it, printed under the table. */
  lostEmails: string[];
}

let worker: RestartableWorker;
let sink: SmtpSink;
let receiver: WebhookReceiver;
let token = "";
let accountId = "";
const rows = new Map<string, Row>();
const timeline: string[] = [];
let recoveryMs = -1;

const started = Date.now();
const note = (what: string) => {
  const line = `${((Date.now() - started) / 1000).toFixed(1)}s ${what}`;
  timeline.push(line);
  console.log(`[crash] ${line}`);
};

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${worker.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

async function ok<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await call(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json as T;
}

/** Runs `count` calls, `width` at a time; answers the id of each 2xx, null for the rest (the kill cuts them). */
async function fire(count: number, width: number, one: (i: number) => Promise<string>) {
  const ids: Array<string | null> = new Array(count).fill(null);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      try {
        ids[i] = await one(i);
      } catch {
        ids[i] = null;
      }
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return ids;
}

async function allEmails(): Promise<EmailSummary[]> {
  const out: EmailSummary[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await ok<{ data: EmailSummary[]; pagination: { total: number } }>(
      "GET",
      `/v1/emails?limit=100&offset=${offset}`,
    );
    out.push(...page.data);
    if (offset + 100 >= page.pagination.total) return out;
  }
}

async function allEvents(): Promise<EventRecord[]> {
  const out: EventRecord[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await ok<{ data: EventRecord[]; pagination: { total: number } }>(
      "GET",
      `/v1/accounts/${accountId}/events?event=ticket.created&limit=100&offset=${offset}`,
    );
    out.push(...page.data);
    if (offset + 100 >= page.pagination.total || page.data.length === 0) return out;
  }
}

/** Each recipient's own state, from GET /v1/emails/{id}: an email's `last_response` is its last recipient's. */
interface RecipientRecord {
  address: string;
  status: string;
  response: string | null;
}

/**
 * The recipients of the final emails the sink missed someone of, though their `last_response` is
 * not the unknown outcome: with two envelopes, one handed to the transport as the runtime died is
 * `unknown` while the other, sent after the restart, gives the email its response.
 */
async function recipientsOfMissed(emails: EmailSummary[]) {
  const counts = sunkCounts();
  const missed = emails.filter(
    (e) =>
      FINAL_EMAIL.has(e.status) &&
      !isUnknown(e) &&
      [...e.to, ...e.bcc].some((r) => !counts.get(`${e.id}|${r.toLowerCase()}`)),
  );
  const details = await Promise.all(
    missed.map((e) => ok<{ recipients: RecipientRecord[] }>("GET", `/v1/emails/${e.id}`)),
  );
  return new Map(missed.map((e, i) => [e.id, details[i]?.recipients ?? []]));
}

const tagOf = (email: EmailSummary, name: string) => email.tags.find((t) => t.name === name)?.value;
const isUnknown = (email: EmailSummary) => (email.last_response ?? "").startsWith(UNKNOWN_OUTCOME_PREFIX);

/** How many times the sink took each (email id, recipient). */
function sunkCounts() {
  const counts = new Map<string, number>();
  for (const m of sink.messages)
    for (const rcpt of m.to)
      counts.set(`${m.emailId}|${rcpt}`, (counts.get(`${m.emailId}|${rcpt}`) ?? 0) + 1);
  return counts;
}

/** A scenario's row before anything is judged. */
const emptyRow = (scenario: string, accepted: number): Row => ({
  scenario,
  accepted,
  final: 0,
  lost: 0,
  stuck: 0,
  stuckReceived: 0,
  duplicated: 0,
  unknown: 0,
  unknownReceived: 0,
  lostEmails: [],
});

/** The emails a client was told were accepted, judged by what the API says now and what the sink got. */
function judgeEmails(
  scenario: string,
  accepted: string[],
  emails: Map<string, EmailSummary>,
  recipients: Map<string, RecipientRecord[]>,
): Row {
  const counts = sunkCounts();
  const row = emptyRow(scenario, accepted.length);
  for (const id of accepted) {
    const email = emails.get(id);
    if (!email) {
      row.lost++;
      row.lostEmails.push(`${id}: not listed by the API`);
      continue;
    }
    const rcpts = [...email.to, ...email.bcc].map((a) => a.toLowerCase());
    const got = rcpts.map((r) => counts.get(`${id}|${r}`) ?? 0);
    row.duplicated += got.reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    if (!FINAL_EMAIL.has(email.status)) {
      row.stuck++;
      if (got.some((n) => n > 0)) row.stuckReceived++;
      continue;
    }
    row.final++;
    if (isUnknown(email)) {
      row.unknown++;
      if (got.some((n) => n > 0)) row.unknownReceived++;
    } else if (email.status === "sent" && missedOnlyUnknown(rcpts, got, recipients.get(id) ?? [])) {
      // Sent to the others; the recipients the sink missed were handed off as a runtime died.
      row.unknown++;
      row.unknownReceived++;
    } else if (email.status !== "sent" || got.some((n) => n === 0)) {
      row.lost++;
      row.lostEmails.push(
        `${id}: ${email.status} (${email.last_response ?? "no response"}); the sink took ${rcpts.map((r, i) => `${r} ${got[i]}x`).join(", ")}`,
      );
    }
  }
  return row;
}

/** Whether every recipient the sink did not get (`got` 0) is recorded `unknown` by the recovery. */
function missedOnlyUnknown(rcpts: string[], got: number[], records: RecipientRecord[]) {
  const missed = rcpts.filter((_, i) => got[i] === 0);
  return (
    missed.length > 0 &&
    missed.every((address) =>
      records.some(
        (r) =>
          r.address.toLowerCase() === address &&
          r.status === "unknown" &&
          (r.response ?? "").startsWith(UNKNOWN_OUTCOME_PREFIX),
      ),
    )
  );
}

/** A campaign's members: each must get exactly one email, whichever email id carries it. */
function judgeCampaign(members: string[], campaignEmails: EmailSummary[]): Row {
  const perAddress = new Map<string, number>();
  for (const m of sink.messages)
    for (const rcpt of m.to)
      if (rcpt.endsWith(`@members.${DOMAIN}`)) perAddress.set(rcpt, (perAddress.get(rcpt) ?? 0) + 1);
  const emailsOf = new Map<string, EmailSummary[]>();
  for (const e of campaignEmails) {
    const to = (e.to[0] ?? "").toLowerCase();
    emailsOf.set(to, [...(emailsOf.get(to) ?? []), e]);
  }
  const row = emptyRow("campaign", members.length);
  for (const address of members) {
    const got = perAddress.get(address) ?? 0;
    const emails = emailsOf.get(address) ?? [];
    row.duplicated += Math.max(0, got - 1) + Math.max(0, emails.length - 1);
    const email = emails[0];
    if (!email || !FINAL_EMAIL.has(email.status)) {
      row.stuck++;
      if (got > 0) row.stuckReceived++;
      continue;
    }
    row.final++;
    if (isUnknown(email)) {
      row.unknown++;
      if (got > 0) row.unknownReceived++;
    } else if (email.status !== "sent" || got === 0) {
      row.lost++;
      row.lostEmails.push(
        `${email.id}: ${email.status} (${email.last_response ?? "no response"}); the sink took ${address} ${got}x`,
      );
    }
  }
  return row;
}

function judgeWebhooks(ticketIds: string[], events: EventRecord[]): Row {
  const perEvent = new Map<string, number>();
  for (const r of receiver.received) {
    const id = r.headers["x-webhook-id"] ?? "";
    perEvent.set(id, (perEvent.get(id) ?? 0) + 1);
  }
  const byTicket = new Map(events.map((e) => [e.data.ticket?.id ?? "", e]));
  const row = emptyRow("webhooks", ticketIds.length);
  const failures = new Map<string, number>();
  for (const ticketId of ticketIds) {
    const event = byTicket.get(ticketId);
    const delivery = event?.deliveries[0];
    if (!event || !delivery) {
      row.lost++;
      continue;
    }
    const got = perEvent.get(event.id) ?? 0;
    row.duplicated += Math.max(0, got - 1);
    if (!FINAL_DELIVERY.has(delivery.status)) {
      row.stuck++;
      if (got > 0) row.stuckReceived++;
      continue;
    }
    row.final++;
    if (delivery.status !== "succeeded") {
      // `unknown`: closed without a known answer (the runtime died mid-attempt), reported, not
      // retried (the spec); `failed`: the receiver's own answer.
      const reason = delivery.error ?? "no error recorded";
      failures.set(reason, (failures.get(reason) ?? 0) + 1);
      row.unknown++;
      if (got > 0) row.unknownReceived++;
    } else if (got === 0) row.lost++;
  }
  // Why the attempts did not succeed: an outcome lost to the kill, or the receiver's own answer.
  for (const [reason, count] of failures) console.log(`[crash] webhook not succeeded x${count}: ${reason}`);
  return row;
}

/** Waits until `done()`, or `ms` passed. */
async function until(done: () => boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await sleep(100);
}

/** Which scenario a recipient address belongs to (see the addresses `crashAndRecover` mails). */
const kindOf = (address: string) =>
  address.endsWith(`@members.${DOMAIN}`)
    ? "campaign"
    : /^(bcc-)?(send)-/.test(address)
      ? "send"
      : /^(bcc-scheduled|sched)-/.test(address)
        ? "scheduled"
        : "other";

/** Messages the sink took for one scenario's recipients so far. */
const sunkOf = (kind: string) =>
  sink.messages.reduce((n, m) => n + m.to.filter((rcpt) => kindOf(rcpt) === kind).length, 0);

const inFlight = () =>
  `sink: send ${sunkOf("send")}, scheduled ${sunkOf("scheduled")}, campaign ${sunkOf("campaign")}; webhooks ${receiver.received.length}`;

async function crashAndRecover() {
  const emailBody = (i: number, kind: string, to: string) => ({
    from: `Crash <app@${DOMAIN}>`,
    to: [to],
    bcc: [`bcc-${kind}-${i}@rcpt.${DOMAIN}`],
    subject: `Crash ${kind} ${i}`,
    text: `Message ${i} of the ${kind} scenario.`,
    tags: [{ name: "crash", value: kind }],
  });

  // Set-up: the contact group, the campaign, the inbox whose webhook goes to the receiver.
  const scheduleAt = new Date(Date.now() + SCHEDULE_LEAD_MS).toISOString();
  const scheduled = fire(SCHEDULED, 10, async (i) => {
    const body = { ...emailBody(i, "scheduled", `sched-${i}@rcpt.${DOMAIN}`), scheduled_at: scheduleAt };
    return (await ok<{ id: string }>("POST", "/v1/emails", body)).id;
  });
  const members = Array.from({ length: CAMPAIGN_RECIPIENTS }, (_, i) => `m${i}@members.${DOMAIN}`);
  const group = await ok<{ id: string }>("POST", "/v1/contact-groups", { name: "Crash members" });
  await ok("POST", `/v1/contact-groups/${group.id}/members`, {
    members: members.map((email) => ({ email })),
  });
  const campaign = await ok<{ id: string }>("POST", "/v1/campaigns", {
    name: "Crash campaign",
    from: `News <news@${DOMAIN}>`,
    subject: "News",
    html: '<p>Hello</p><p><a href="{{unsubscribe_url}}">Unsubscribe</a></p>',
    text: "Hello",
    contact_group_ids: [group.id],
  });
  const hookUrl = await receiver.listen();
  const inbox = await ok<{ id: string }>("POST", "/v1/inboxes", {
    name: "Crash support",
    email_address: `support@${DOMAIN}`,
    webhooks: [{ url: `${hookUrl}/crash/ok`, events: ["ticket.created"], enabled: true }],
  });
  const scheduledIds = (await scheduled).filter((id): id is string => id !== null);
  note(
    `set up: ${scheduledIds.length} scheduled for ${scheduleAt}, campaign ${campaign.id}, inbox ${inbox.id}`,
  );

  // The campaign goes first, so that its batches are under way when the rest joins in: the release
  // of the scheduled emails (the cron) with the sends, then the tickets, and the kill hits them all.
  note("campaign send");
  const campaignSend = call("POST", `/v1/campaigns/${campaign.id}/send`, {}).then(
    (r) => r.status,
    () => 0,
  );
  await until(() => sunkOf("campaign") >= CAMPAIGN_HEAD_START, KILL_BY_MS);
  // The scheduled emails come due now (their queue messages were delayed until then), with the burst.
  const wait = Date.parse(scheduleAt) - Date.now();
  if (wait > 0) await sleep(wait);
  note(`burst: cron (scheduled release), sends; ${inFlight()}`);
  const release = worker.cron().catch(() => 0);
  const sends = fire(SENDS, 50, async (i) => {
    const res = await call("POST", "/v1/emails", emailBody(i, "send", `send-${i}@rcpt.${DOMAIN}`));
    if (res.status !== 200 && res.status !== 201 && res.status !== 202) throw new Error(String(res.status));
    return String(res.json.id);
  });
  await until(
    () => sunkOf("send") >= FIRST_KILL_AT_SUNK && sunkOf("scheduled") >= FIRST_KILL_AT_SUNK,
    KILL_BY_MS,
  );
  // Webhooks go out within a second of their ticket, so the tickets come last, just before the kill.
  note(`tickets; ${inFlight()}`);
  const tickets = fire(TICKETS, 10, async (i) => {
    const res = await call("POST", "/v1/tickets", {
      inbox_id: inbox.id,
      customer: { email: `customer-${i}@people.${DOMAIN}`, name: `Customer ${i}` },
      subject: `Crash ticket ${i}`,
    });
    if (res.status !== 201) throw new Error(String(res.status));
    return String(res.json.id);
  });
  await until(() => receiver.received.length >= FIRST_KILL_AT_WEBHOOKS, KILL_BY_MS);
  const first = await worker.kill();
  note(`kill 1 (${first.killed} processes, ${first.workerds} workerd); ${inFlight()}`);
  const [, sendIds, ticketIds] = await Promise.all([release, sends, tickets]);
  const campaignAnswer = await campaignSend;
  if (campaignAnswer !== 200) throw new Error(`the campaign send answered ${campaignAnswer}`);
  const accepted = {
    send: sendIds.filter((id): id is string => id !== null),
    tickets: ticketIds.filter((id): id is string => id !== null),
  };
  note(`accepted before the kill: ${accepted.send.length} sends, ${accepted.tickets.length} tickets`);

  await worker.start();
  note("restart 1");
  const sunkRestart = sink.messages.length;
  void worker.cron().catch(() => 0);
  await until(() => sink.messages.length - sunkRestart >= SECOND_KILL_AT_SUNK, SECOND_KILL_BY_MS);
  const second = await worker.kill();
  note(`kill 2 (${second.killed} processes, ${second.workerds} workerd); ${inFlight()}`);

  await worker.start();
  const restarted = Date.now();
  note("restart 2: firing the minute cron until everything is final");
  let emails: EmailSummary[] = [];
  let events: EventRecord[] = [];
  for (;;) {
    await worker.cron();
    emails = await allEmails();
    events = await allEvents();
    const openEmails = emails.filter((e) => !FINAL_EMAIL.has(e.status)).length;
    const openDeliveries = events.filter((e) =>
      e.deliveries.some((d) => !FINAL_DELIVERY.has(d.status)),
    ).length;
    const campaignNow = await ok<{ status: string }>("GET", `/v1/campaigns/${campaign.id}`);
    const campaignEmails = emails.filter((e) => tagOf(e, "campaign") === campaign.id).length;
    const done =
      openEmails === 0 &&
      openDeliveries === 0 &&
      campaignNow.status === "sent" &&
      campaignEmails >= CAMPAIGN_RECIPIENTS &&
      events.length >= accepted.tickets.length;
    note(
      `open emails ${openEmails}, open deliveries ${openDeliveries}, campaign ${campaignNow.status} (${campaignEmails} emails), sink ${sink.messages.length}`,
    );
    if (done) {
      recoveryMs = Date.now() - restarted;
      break;
    }
    if (Date.now() - restarted > RECOVERY_BOUND_MS) break;
    await sleep(CRON_EVERY_MS);
  }

  const byId = new Map(emails.map((e) => [e.id, e]));
  const recipients = await recipientsOfMissed(emails);
  rows.set("send", judgeEmails("send", accepted.send, byId, recipients));
  rows.set(
    "campaign",
    judgeCampaign(
      members,
      emails.filter((e) => tagOf(e, "campaign") === campaign.id),
    ),
  );
  rows.set("scheduled", judgeEmails("scheduled", scheduledIds, byId, recipients));
  rows.set("webhooks", judgeWebhooks(accepted.tickets, events));
  // Emails nobody in the test asked for directly (a ticket's acknowledgement, system mail): final too.
  const others = emails.filter((e) => !tagOf(e, "crash") && !tagOf(e, "campaign")).map((e) => e.id);
  rows.set("other", judgeEmails("other", others, byId, recipients));
  // Every email of the server, including those whose request the kill cut off before it answered.
  const unanswered = emails.filter((e) => tagOf(e, "crash") === "send" && !accepted.send.includes(e.id));
  rows.set(
    "send (cut off)",
    judgeEmails(
      "send (cut off)",
      unanswered.map((e) => e.id),
      byId,
      recipients,
    ),
  );

  const header = [
    "scenario",
    "accepted",
    "final",
    "lost",
    "stuck (received)",
    "duplicated",
    "unknown (received)",
  ];
  const table = [...rows.values()].map((r) => [
    r.scenario,
    r.accepted,
    r.final,
    r.lost,
    `${r.stuck} (${r.stuckReceived})`,
    r.duplicated,
    `${r.unknown} (${r.unknownReceived})`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => String(r[i]).length)));
  const line = (cells: Array<string | number>) =>
    cells.map((c, i) => String(c).padEnd(widths[i] ?? 0)).join("  ");
  console.log(
    [
      "",
      `Crash recovery: recovery ${recoveryMs < 0 ? `not reached within ${RECOVERY_BOUND_MS / 1000} s` : `${(recoveryMs / 1000).toFixed(1)} s`} after the last restart (bound ${RECOVERY_BOUND_MS / 1000} s); sink took ${sink.messages.length} messages, receiver ${receiver.received.length} webhooks`,
      line(header),
      ...table.map(line),
      ...[...rows.values()].flatMap((r) => r.lostEmails.map((e) => `lost (${r.scenario}): ${e}`)),
      "",
    ].join("\n"),
  );
}

beforeAll(
  async () => {
    sink = await startSmtpSink();
    receiver = new WebhookReceiver();
    const { sql, directorySql, workspace } = await workspaceSql(
      {
        name: "Crash",
        plan: "enterprise",
        overrides: { requests_per_minute: 1_000_000 },
        domain: { name: DOMAIN, encryptionKey: WORKER_SECRETS.ENCRYPTION_KEY },
        // The second shard: the queues and the cron find it through the directory after each crash.
        shard: "DB_2",
      },
      "local",
    );
    token = workspace.token;
    accountId = workspace.account_id;
    worker = await startRestartableWorker(
      { db: sql, shard: "DB_2", directory: directorySql },
      {
        EMAIL_TRANSPORT: "smtp",
        SMTP_HOST: "127.0.0.1",
        SMTP_PORT: String(sink.port),
        SMTP_SECURITY: "none",
        SMTP_USER: "",
      },
    );
    await crashAndRecover();
  },
  RECOVERY_BOUND_MS + 10 * 60_000,
);

afterAll(async () => {
  await worker?.dispose();
  await sink?.close();
  await receiver?.close();
}, 30_000);

const row = (name: string) => rows.get(name) as Row;

describe("a SIGKILL of the whole runtime, twice, in the middle of the work", () => {
  it("loses no accepted email of POST /v1/emails, leaves none stuck and sends none twice", () => {
    expect(row("send")).toMatchObject({ lost: 0, stuck: 0, duplicated: 0 });
    expect(row("send (cut off)")).toMatchObject({ stuck: 0, duplicated: 0 });
  });

  it("mails every campaign recipient once and leaves nobody stuck", () => {
    expect(row("campaign")).toMatchObject({ lost: 0, stuck: 0, duplicated: 0 });
  });

  it("releases every scheduled email once", () => {
    expect(row("scheduled")).toMatchObject({ lost: 0, stuck: 0, duplicated: 0 });
  });

  it("attempts every webhook delivery at most once and leaves none open", () => {
    expect(row("webhooks")).toMatchObject({ lost: 0, stuck: 0, duplicated: 0 });
  });

  it("closes as outcome-unknown only the few emails in flight at a kill, and everything else is final", () => {
    const unknown = [...rows.values()].reduce(
      (sum, r) => sum + (r.scenario === "webhooks" ? 0 : r.unknown),
      0,
    );
    expect(unknown).toBeLessThanOrEqual(UNKNOWN_OUTCOME_BOUND);
    expect(row("other")).toMatchObject({ stuck: 0 });
    expect(recoveryMs).toBeGreaterThanOrEqual(0);
  });
});
