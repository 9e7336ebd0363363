/**
 * A sampling profile cut into the stages of one email, accept to outcome: each stage is the time
 * of the samples under any of its functions (inclusive; a sample counts once per stage, so nested
 * stages overlap their parent; code resumed after an `await` is under its own function's frame
 * only, not its callers', so a stage is a lower bound). Named functions are matched by name, which needs the bundle
 * unminified (`npm run profile` starts wrangler with --no-minify). The stages cover the worker
 * isolate only: the local D1's SQLite, queue and R2 run elsewhere in workerd, so the isolate's busy
 * time is printed beside workerd's whole CPU.
 */
import type { CpuProfile } from "./cpu-profile";

interface Stage {
  label: string;
  functions: string[];
}

const ZOD: Stage = { label: "zod validation", functions: ["safeParse", "safeParseAsync", "_safeParseAsync"] };
const SIGNING: Stage[] = [
  { label: "MIME (buildMime)", functions: ["buildMime"] },
  { label: "DKIM signature (signDkim)", functions: ["signDkim"] },
];
/** What every D1 call costs in the isolate, whoever makes it. */
const D1_CALLS: Stage[] = [
  { label: "every D1 call: the binding's JSON (toJson, _send)", functions: ["toJson", "_send"] },
  { label: "every SQL text built by drizzle (sqlToQuery, toSQL)", functions: ["sqlToQuery", "toSQL"] },
];
/** `stages` printed under the stage before them. */
const nested = (stages: Stage[], indent: string) =>
  stages.map((s) => ({ ...s, label: `${indent}${s.label}` }));

/** The stages of POST /v1/emails and its queue consumer (function names in src/). */
export const EMAIL_STAGES: Stage[] = [
  { ...ZOD, label: "zod validation (request body, queue message)" },
  { label: "accept: acceptEmails (checks, store, count: one D1 batch)", functions: ["acceptEmails"] },
  { label: "queue send of the accepted email (enqueueEmails)", functions: ["enqueueEmails"] },
  {
    label: "queue consumer (consumeEmails: claim, build, sign, store, outcome)",
    functions: ["consumeEmails"],
  },
  ...nested(SIGNING, "  "),
  { label: "request log (recordRequest's buffer flush)", functions: ["flush"] },
  ...D1_CALLS,
];

/** The stages of a campaign batch (send-batch.ts), from the batch's reads to each recipient's outcome. */
export const CAMPAIGN_STAGES: Stage[] = [
  { label: "the batch (sendCampaignBatch: reads, build, write, deliver)", functions: ["sendCampaignBatch"] },
  { label: "  each recipient's email (campaignEmail)", functions: ["campaignEmail"] },
  { label: "    its unsubscribe link's signature (unsubscribeUrl)", functions: ["unsubscribeUrl"] },
  { label: "    personalisation (fill)", functions: ["fill"] },
  { label: "    normalizeEmail", functions: ["normalizeEmail"] },
  { label: "  the rows and their checks (prepareEmails)", functions: ["prepareEmails"] },
  {
    label: "  delivery (deliverEmails: claim, build, sign, hand over, outcome)",
    functions: ["deliverEmails"],
  },
  ...nested(SIGNING, "    "),
  ...D1_CALLS,
  ZOD,
];

export function stageTimes(profile: CpuProfile, stages: Stage[]) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  // Busy, but with no JavaScript stack to put in a stage: V8's and the runtime's own work.
  const unattributed = new Set(["(program)", "(garbage collector)"]);
  let busy = 0;
  let runtime = 0;
  const times = stages.map(() => 0);
  for (const [i, id] of profile.samples.entries()) {
    const delta = profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(id);
    if (!leaf || leaf.callFrame.functionName === "(idle)") continue;
    busy += delta;
    if (unattributed.has(leaf.callFrame.functionName)) {
      runtime += delta;
      continue;
    }
    const names = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      names.add(byId.get(at)?.callFrame.functionName ?? "");
    }
    stages.forEach((stage, s) => {
      if (stage.functions.some((f) => names.has(f))) times[s] = (times[s] ?? 0) + delta;
    });
  }
  return {
    busyMs: busy / 1000,
    runtimeMs: runtime / 1000,
    stages: stages.map((stage, s) => ({ ...stage, ms: (times[s] ?? 0) / 1000 })),
  };
}

/** The stage table: each stage's milliseconds per email (or `unit`) and its share of the isolate's busy time. */
export function stageTable(profile: CpuProfile, stages: Stage[], emails: number, unit = "email"): string {
  const { busyMs, runtimeMs, stages: timed } = stageTimes(profile, stages);
  const rows = timed.map(
    (s) =>
      `${(s.ms / emails).toFixed(2).padStart(7)} ms  ${((100 * s.ms) / busyMs).toFixed(1).padStart(5)}%  ${s.label}`,
  );
  return [
    `the worker isolate was busy ${(busyMs / emails).toFixed(2)} ms per ${unit} (of ${emails}); by stage (inclusive):`,
    ...rows,
    `${(runtimeMs / emails).toFixed(2).padStart(7)} ms  ${((100 * runtimeMs) / busyMs).toFixed(1).padStart(5)}%  V8 and the runtime with no JavaScript stack ((program), GC)`,
    "Work resumed after an await has no caller on its stack: a stage counts only what ran under its function's own frames (a lower bound).",
  ].join("\n");
}
