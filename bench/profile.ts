/**
 * npm run profile -- <METHOD> <PATH> [JSON body]: where one request's time goes on a local
 * `wrangler dev` (the bench's own server and workspace). It reports the CPU milliseconds per request
 * of every process of the server (workerd, wrangler's Node) for GET /health and for the request
 * under load, then a sampling profile of the worker isolate during that load. `{domain}` in the
 * body becomes the workspace's verified sending domain. For POST /v1/emails the queue's work is in
 * the figures: the profile and the CPU count run until the queue has sent every email.
 *
 * `MAIL` profiles inbound mail instead: new conversations through the local email endpoint, each
 * stored as a new ticket (bench/lib/mail-load.ts); its CPU figures are per message. `MAIL refused`
 * sends them to an unknown address instead: what the endpoint and the refusal cost alone.
 *
 * `CAMPAIGN [recipients]` profiles a campaign (default 2,000 recipients, the campaign-send
 * scenario's content) from `send` until it is `sent`; its CPU figures are per recipient.
 *
 *   npm run profile -- GET /v1/accounts
 *   npm run profile -- POST /v1/emails '{"from":"a@{domain}","to":"b@example.com","subject":"s","text":"t"}'
 *   npm run profile -- MAIL
 *   npm run profile -- MAIL refused
 *   npm run profile -- CAMPAIGN 2000
 */
import { randomBytes } from "node:crypto";
import { waitForEmptyQueue } from "./lib/api";
import { campaignTo, groupOf, sendAndWait } from "./lib/campaign";
import { cpuSince, groupCpuMs, openInspector, summarizeProfile } from "./lib/cpu-profile";
import { mailLoad } from "./lib/mail-load";
import { type Load, measure, warmUp } from "./lib/measure";
import { CAMPAIGN_STAGES, EMAIL_STAGES, stageTable } from "./lib/profile-stages";
import { startServer } from "./lib/server";

const SECONDS = Number(process.env.PROFILE_SECONDS ?? "8");
const DRAIN_TIMEOUT_MS = 5 * 60_000;

const perRequest = (cpu: Map<string, number>, requests: number) =>
  [...cpu]
    .filter(([, ms]) => ms > 0)
    .map(([command, ms]) => `${command} ${(ms / requests).toFixed(2)}`)
    .join(", ");

async function main() {
  const [method = "GET", path = "/v1/accounts", body] = process.argv.slice(2);
  if (!["GET", "POST", "MAIL", "CAMPAIGN"].includes(method))
    throw new Error("METHOD must be GET, POST, MAIL or CAMPAIGN");
  // Every function named in the profile, for its stages (bench/lib/profile-stages.ts).
  process.env.BENCH_NO_MINIFY = "1";
  const server = await startServer();
  try {
    if (!server.local) throw new Error("profiling needs the local server; unset BENCH_URL");
    const { processGroup, inspectorPort } = server.local;
    const ctx = { baseUrl: server.baseUrl, token: server.token, seconds: SECONDS };
    const target: Omit<Load, "label" | "seconds"> = {
      url: `${server.baseUrl}${path}`,
      method: method === "POST" ? "POST" : "GET",
      headers: {
        Authorization: `Bearer ${server.token}`,
        ...(body ? { "Content-Type": "application/json" } : {}),
      },
      ...(body ? { body: body.replaceAll("{domain}", server.fromDomain ?? "") } : {}),
    };
    const sends = method === "POST" && path.startsWith("/v1/emails");

    const health = { url: `${server.baseUrl}/health` };
    await warmUp(health);
    let before = groupCpuMs(processGroup);
    const floor = await measure({ ...health, label: "GET /health", seconds: SECONDS });
    console.log(
      `GET /health: ${floor.rps.toFixed(0)} req/s; CPU ms per request: ${perRequest(cpuSince(before, groupCpuMs(processGroup)), floor.total)}`,
    );

    if (method === "CAMPAIGN") {
      await profileCampaign(
        { ...ctx, fromDomain: server.fromDomain },
        inspectorPort,
        processGroup,
        Number(path),
      );
      return;
    }
    const mail =
      method === "MAIL"
        ? await mailLoad({ ...ctx, fromDomain: server.fromDomain }, path === "refused")
        : null;
    if (mail) await mail(2);
    else await warmUp(target);
    if (sends) await waitForEmptyQueue(ctx, DRAIN_TIMEOUT_MS);
    const inspector = await openInspector(inspectorPort);
    await inspector.startProfile();
    before = groupCpuMs(processGroup);
    const load = mail
      ? await mail(SECONDS)
      : await measure({ ...target, label: `${method} ${path}`, seconds: SECONDS });
    const duringLoad = cpuSince(before, groupCpuMs(processGroup));
    const drained = sends ? await waitForEmptyQueue(ctx, DRAIN_TIMEOUT_MS) : undefined;
    const withDrain = cpuSince(before, groupCpuMs(processGroup));
    const profile = await inspector.stopProfile();
    const sources = await inspector.sourcesOf(profile);
    inspector.close();

    console.log(`${load.label}: ${load.rps.toFixed(0)} req/s, ${load.non2xx} non-2xx`);
    console.log(`  CPU ms per request during the load: ${perRequest(duringLoad, load.total)}`);
    if (drained) {
      console.log(
        `  and with the queue's work (drained in ${drained.seconds.toFixed(1)} s): ${perRequest(withDrain, load.total)}`,
      );
    }
    console.log(`\n${summarizeProfile(profile, sources)}`);
    if (sends) console.log(`\n${stageTable(profile, EMAIL_STAGES, load.total)}`);
  } finally {
    await server.stop();
  }
}

/** A campaign of `recipients` (the campaign-send scenario's content), profiled from send to sent. */
async function profileCampaign(
  ctx: Parameters<typeof groupOf>[0],
  inspectorPort: number,
  processGroup: number,
  recipients: number,
) {
  const count = Number.isInteger(recipients) && recipients > 0 ? recipients : 2_000;
  const runId = randomBytes(4).toString("hex");
  const campaign = await campaignTo(ctx, `Profile ${runId}`, await groupOf(ctx, runId, count));
  await waitForEmptyQueue(ctx, DRAIN_TIMEOUT_MS);
  const inspector = await openInspector(inspectorPort);
  await inspector.startProfile();
  const before = groupCpuMs(processGroup);
  const run = await sendAndWait(ctx, campaign, DRAIN_TIMEOUT_MS);
  const cpu = cpuSince(before, groupCpuMs(processGroup));
  const profile = await inspector.stopProfile();
  const sources = await inspector.sourcesOf(profile);
  inspector.close();
  if (run.finished === undefined)
    throw new Error(`the campaign ended ${run.last.status}, ${run.last.stats.sent} sent`);
  const seconds = (run.finished - run.started) / 1000;
  console.log(`campaign of ${count}: sent in ${seconds.toFixed(1)} s (${(count / seconds).toFixed(0)}/s)`);
  console.log(`  CPU ms per recipient: ${perRequest(cpu, count)}`);
  console.log(`\n${summarizeProfile(profile, sources)}`);
  console.log(`\n${stageTable(profile, CAMPAIGN_STAGES, count, "recipient")}`);
}

try {
  await main();
} catch (error) {
  console.error(`profile failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
