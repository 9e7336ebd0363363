/** Single API calls for scenarios that need answers, not throughput: sending, counting, waiting. */
import { sleep } from "./process-group";
import type { BenchContext } from "./types";
import { UNCOUNTED } from "./work-cost";

const CALL_TIMEOUT_MS = 30_000;

export interface Answer {
  status: number;
  text: string;
}

/**
 * One authenticated JSON call; a connection failure throws, any HTTP status is answered. A GET is
 * the bench looking (is the queue empty, is the campaign sent?), not the work it measures, so its
 * D1 round trips are not counted (work-cost.ts).
 */
export async function call(
  ctx: BenchContext,
  method: "GET" | "POST" | "DELETE",
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${ctx.baseUrl}${path}`, {
    method,
    headers: {
      ...headers,
      Authorization: `Bearer ${ctx.token}`,
      ...(method === "GET" ? UNCOUNTED : {}),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  return { status: response.status, text: await response.text() } satisfies Answer;
}

/** The parsed JSON of a 200, or an error quoting the status and body. */
export async function callOk<T>(ctx: BenchContext, method: "GET" | "POST", path: string, body?: unknown) {
  const answer = await call(ctx, method, path, body);
  if (answer.status !== 200) throw new Error(`${method} ${path} answered ${describe(answer)}`);
  return JSON.parse(answer.text) as T;
}

/** Status and (shortened) body, for reports. */
export const describe = (answer: Answer) => `${answer.status} ${answer.text.slice(0, 500)}`;

/** How many emails of the workspace match the query (`status`, `tag`, ...), from the list's total. */
export async function countEmails(ctx: BenchContext, query: Record<string, string>): Promise<number> {
  const params = new URLSearchParams({ ...query, limit: "1" });
  const list = await callOk<{ pagination: { total: number } }>(ctx, "GET", `/v1/emails?${params}`);
  return list.pagination.total;
}

/** Emails the queue still has to send (queued, or claimed and being sent). */
export async function unsentBacklog(ctx: BenchContext): Promise<number> {
  const [queued, sending] = await Promise.all([
    countEmails(ctx, { status: "queued" }),
    countEmails(ctx, { status: "sending" }),
  ]);
  return queued + sending;
}

/**
 * Waits until the workspace has no queued or sending email, so what a scenario left behind does not
 * weigh on the next one. Answers the backlog it found, how long it took, and what was left at the
 * deadline (0 when it cleared).
 */
export async function waitForEmptyQueue(ctx: BenchContext, timeoutMs: number) {
  const started = Date.now();
  const found = await unsentBacklog(ctx);
  let left = found;
  while (left > 0 && Date.now() - started < timeoutMs) {
    await sleep(500);
    left = await unsentBacklog(ctx);
  }
  return { found, left, seconds: (Date.now() - started) / 1000 };
}

/** The value at quantile q (0..1) of already sorted numbers; 0 for none. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}
