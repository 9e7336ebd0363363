/**
 * A hostile HTML-only mail (issue 24): `<p>Hello</p>` then `<style ` repeated, which the old
 * regex converter took seconds for per view. Reports the CPU and wall time of turning the 420 KB
 * and 1 MB bodies into text (in this process: the same code the Worker runs), then of delivering
 * the 1 MB one through wrangler dev's local email endpoint into the email() handler (the server's
 * CPU from /proc when it is local) and of opening its ticket's portal page. One delivery, not a
 * throughput run: BENCH_SECONDS does not apply.
 */
import { randomBytes } from "node:crypto";
import { deliverInbound } from "../../scripts/lib/inbound";
import { htmlToText } from "../../src/features/portal/html-to-text";
import { callOk } from "../lib/api";
import { cpuSince, groupCpuMs } from "../lib/cpu-profile";
import { createInbox } from "../lib/inbound-seed";
import type { BenchContext, Figure, Scenario, ScenarioResult } from "../lib/types";

const hostileHtml = (repeats: number) => `<p>Hello</p>${"<style ".repeat(repeats)}`;
/** 420 KB, as reported; and the most under wrangler dev's 1 MiB local cap with the headers. */
const BODIES = [
  { label: "420 KB", repeats: 60_000 },
  { label: "1 MB", repeats: 149_000 },
];

/** CPU and wall milliseconds of one conversion in this process. */
function convert(html: string) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const text = htmlToText(html);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { text, wall, cpu: (used.user + used.system) / 1000 };
}

function mail(from: string, to: string, html: string) {
  return [
    `From: Bench Customer <${from}>`,
    `To: <${to}>`,
    "Subject: Hostile markup",
    "Date: Thu, 12 Nov 2026 10:00:00 +0000",
    `Message-ID: <hostile-${randomBytes(6).toString("hex")}@customer.example>`,
    "MIME-Version: 1.0",
    "Content-Type: text/html; charset=utf-8",
    "",
    html,
  ].join("\r\n");
}

const total = (used: Map<string, number>) => [...used.values()].reduce((sum, ms) => sum + ms, 0);

/** Delivers the 1 MB body and opens its ticket's portal page: wall times, and the server's CPU. */
async function deliverAndView(ctx: BenchContext, html: string, figures: Figure[], problems: string[]) {
  const run = randomBytes(4).toString("hex");
  const inbox = `hostile-${run}@${ctx.fromDomain}`;
  const inboxId = await createInbox(ctx, inbox);
  const before = ctx.local ? groupCpuMs(ctx.local.processGroup) : null;
  const started = performance.now();
  const from = `hostile-${run}@example.com`;
  const result = await deliverInbound({
    baseUrl: ctx.baseUrl,
    from,
    to: inbox,
    raw: mail(from, inbox, html),
  });
  figures.push({
    label: "deliver 1 MB through email(): wall",
    value: performance.now() - started,
    unit: "ms",
  });
  if (before && ctx.local) {
    const used = total(cpuSince(before, groupCpuMs(ctx.local.processGroup)));
    figures.push({ label: "deliver 1 MB through email(): server CPU", value: used, unit: "ms" });
  }
  if (result.outcome !== "accepted") {
    problems.push(`the hostile mail was ${result.outcome}: ${result.reason ?? ""}`);
    return;
  }
  const list = await callOk<{ data: Array<{ public_url: string }> }>(
    ctx,
    "GET",
    `/v1/tickets?inbox_id=${inboxId}`,
  );
  const page = list.data[0]?.public_url;
  if (!page) return void problems.push("the hostile mail opened no ticket");
  const viewStarted = performance.now();
  const answer = await fetch(new URL(new URL(page).pathname, ctx.baseUrl));
  await answer.text();
  figures.push({ label: "its portal page: wall", value: performance.now() - viewStarted, unit: "ms" });
  if (answer.status !== 200) problems.push(`the portal page answered ${answer.status}`);
}

export const hostileHtmlScenario: Scenario = {
  name: "hostile-html",
  description: "HTML to text of a hostile 420 KB and 1 MB body, and one such mail through email()",
  needsSendingDomain: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const figures: Figure[] = [];
    const problems: string[] = [];
    htmlToText(hostileHtml(1_000)); // compiled before it is timed
    for (const body of BODIES) {
      const { text, wall, cpu } = convert(hostileHtml(body.repeats));
      if (text !== "Hello")
        problems.push(`the ${body.label} body became ${JSON.stringify(text.slice(0, 40))}`);
      figures.push(
        { label: `convert ${body.label}: CPU`, value: cpu, unit: "ms" },
        { label: `convert ${body.label}: wall`, value: wall, unit: "ms" },
      );
    }
    if (/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(ctx.baseUrl))
      await deliverAndView(ctx, hostileHtml(BODIES[1]?.repeats ?? 0), figures, problems);
    else problems.push("delivery needs a local wrangler dev: the email endpoint exists only there");
    return { name: hostileHtmlScenario.name, measurements: [], goals: [], figures, problems };
  },
};
