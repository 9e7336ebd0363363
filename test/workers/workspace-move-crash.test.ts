import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { moveOf } from "../../src/db/directory/workspace-moves";
import { shardOf } from "../../src/db/directory/workspaces";
import {
  beginMove,
  FREEZE_LEASE_MS,
  type StepReport,
  stepMove,
} from "../../src/features/workspace-moves/move.service";
import { call, callJson, directory, seedInbox, sendingWorkspace, shardD1Of } from "./helpers";
import { deliver, FIXTURES, fill } from "./inbound-helpers";
import { apiView, finishMove, NO_SETTLE, talliesOn, wholeOn } from "./workspace-move-helpers";

/**
 * The command stopped at each point of a move: right after the move began, at the first step of
 * each phase, and in the middle of the copy and of the check. Then either its freeze runs out and
 * its next step (whoever runs it) finds that, or the command is run again. Either way the
 * workspace ends whole on exactly one shard, the same rows as before, and usable.
 */
const setStatus = (shard: string, accountId: string, status: string) =>
  shardD1Of(shard).prepare("UPDATE accounts SET status = ? WHERE id = ?").bind(status, accountId).run();

const statusOn = async (shard: string, accountId: string) =>
  (
    await shardD1Of(shard)
      .prepare("SELECT status FROM accounts WHERE id = ?")
      .bind(accountId)
      .first<{ status: string }>()
  )?.status;

interface CrashPoint {
  name: string;
  stop: (reports: StepReport[]) => boolean;
  switched: boolean;
  /** What the step the command died in had written of its own writes. */
  afterCrash?: (accountId: string) => Promise<unknown>;
}

const CRASH_POINTS: CrashPoint[] = [
  { name: "after it began", stop: () => true, switched: false },
  ...["wiping", "copying", "verifying", "sealing"].map((step) => ({
    name: `at the first ${step} step`,
    stop: (reports: StepReport[]) => reports.at(-1)?.step === step,
    switched: false,
  })),
  ...["copying", "verifying"].map((step) => ({
    name: `in the middle of ${step}`,
    stop: (reports: StepReport[]) => reports.filter((r) => r.step === step).length === 5,
    switched: false,
  })),
  ...["switched", "cleaning"].map((step) => ({
    name: `at the first ${step} step`,
    stop: (reports: StepReport[]) => reports.at(-1)?.step === step,
    switched: true,
  })),
  // Inside the switch's own writes: the old shard's workspace made inert, the directory not yet
  // switched; and the directory switched, the target's workspace not yet active.
  {
    name: "inside the switch, before the directory changed",
    stop: (reports: StepReport[]) => reports.at(-1)?.step === "sealing",
    switched: false,
    afterCrash: (accountId: string) => setStatus("DB_2", accountId, "moving"),
  },
  {
    name: "inside the switch, before the target's workspace was active",
    stop: (reports: StepReport[]) => reports.at(-1)?.step === "switched",
    switched: true,
    afterCrash: (accountId: string) => setStatus("DB", accountId, "moving"),
  },
];

async function smallBusyWorkspace() {
  const ws = await sendingWorkspace("acme.test");
  const inbox = await seedInbox(ws.accountId);
  const raw = fill(FIXTURES.plainText, { TO: inbox.emailAddress });
  expect(await deliver(raw, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });
  for (let i = 0; i < 3; i++) {
    await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: { from: `a@${ws.domain}`, to: `b${i}@example.com`, subject: `Hello ${i}`, text: "x" },
    });
  }
  return ws;
}

/** Runs the move until `stop` says the command dies there. */
async function crashedMove(accountId: string, stop: (reports: StepReport[]) => boolean) {
  const reports = [await beginMove(directory(), env, accountId, "DB", NO_SETTLE)];
  while (!stop(reports)) {
    const report = await stepMove(directory(), env, accountId, NO_SETTLE);
    reports.push(report);
    if (report.step === "done") throw new Error("the move ended before its crash point");
  }
}

describe.each(CRASH_POINTS)("a move whose command stops $name", ({ stop, switched, afterCrash }) => {
  it("then whose freeze runs out: the workspace is whole on one shard", async () => {
    const ws = await smallBusyWorkspace();
    const before = await talliesOn("DB_2", ws.accountId);
    const view = await apiView(ws.token);
    await crashedMove(ws.accountId, stop);
    await afterCrash?.(ws.accountId);
    const ended = await finishMove(ws.accountId, Date.now() + FREEZE_LEASE_MS + 1_000);
    expect(ended.step).toBe(switched ? "done" : "aborted");
    const home = switched ? "DB" : "DB_2";
    expect(await shardOf(directory(), ws.accountId, Date.now() + 60_000)).toBe(home);
    await wholeOn(home, home === "DB" ? "DB_2" : "DB", ws.accountId, before);
    expect(await statusOn(home, ws.accountId)).toBe("active");
    expect(await moveOf(directory(), ws.accountId)).toBeNull();
    expect(await apiView(ws.token)).toEqual(view);
    const created = await call("POST", "/v1/customers", {
      token: ws.token,
      body: { email: "later@example.com" },
    });
    expect(created.status).toBe(201);
  });

  it("then run again: the move resumes and ends on the target", async () => {
    const ws = await smallBusyWorkspace();
    const before = await talliesOn("DB_2", ws.accountId);
    const view = await apiView(ws.token);
    await crashedMove(ws.accountId, stop);
    await afterCrash?.(ws.accountId);
    const resumed = await beginMove(directory(), env, ws.accountId, "DB", NO_SETTLE);
    expect(resumed.detail).toContain("resumed");
    expect((await finishMove(ws.accountId)).step).toBe("done");
    expect(await shardOf(directory(), ws.accountId, Date.now() + 60_000)).toBe("DB");
    await wholeOn("DB", "DB_2", ws.accountId, before);
    expect(await statusOn("DB", ws.accountId)).toBe("active");
    expect(await apiView(ws.token)).toEqual(view);
    const created = await call("POST", "/v1/customers", {
      token: ws.token,
      body: { email: "later@example.com" },
    });
    expect(created.status).toBe(201);
  });
});
