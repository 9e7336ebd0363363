import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import worker from "../../src/index";
import { CRON } from "../../src/jobs/schedules";

export const DAY = 86_400_000;

/** The minute cron, as Cloudflare runs it at `scheduledTime`, over every shard. */
export async function runMinuteCron(scheduledTime: number) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: CRON.everyMinute, scheduledTime }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** Sets a workspace's chosen email retention (null: its plan's maximum). */
export const keepEmailDays = (accountId: string, days: number | null) =>
  env.DB_2.prepare("UPDATE accounts SET email_retention_days = ? WHERE id = ?").bind(days, accountId).run();

export async function idsOf(query: string, ...params: unknown[]): Promise<string[]> {
  const { results } = await env.DB_2.prepare(query)
    .bind(...params)
    .all<{ id: string }>();
  return results.map((r) => String(r.id)).sort();
}

/**
 * The plan of a prune over workspaces: they are the outer loop (`SCAN a`, the only scan), and each
 * one's expired rows are a range of `index` (`range` as SQLite prints it), searched after it.
 * A plan that scans the whole index and looks each row's workspace up would read every row each
 * minute while using an index all the same.
 */
export function expectRangePerWorkspace(plan: string[], index: string, range: string) {
  const text = plan.join("\n");
  const scans = plan.flatMap((line, at) => (line.startsWith("SCAN ") ? [at] : []));
  expect(
    scans.map((at) => plan[at]),
    text,
  ).toEqual([expect.stringMatching(/^SCAN a( USING COVERING INDEX \w+)?$/)]);
  const search = plan.findIndex((line) =>
    new RegExp(`^SEARCH \\w+ USING (COVERING )?INDEX ${index} \\(`).test(line),
  );
  expect(search, text).toBeGreaterThan(scans[0] ?? Number.POSITIVE_INFINITY);
  expect(plan[search], text).toContain(`${index} (${range})`);
  expect(text).not.toContain("TEMP B-TREE");
}
