import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { KeyGuard } from "../../src/auth/key-guard";
import { KeyLeases, LEASE_HOLD_MS, LEASE_SPEND_MS } from "../../src/auth/key-leases";
import { RollingWindow } from "../../src/auth/rolling-window";
import { hashToken } from "../../src/auth/token";
import type { Verdict } from "../../src/auth/verdict";
import { call, seedWorkspace } from "./helpers";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A key's guard and an `ask` for it, as a separate isolate (its own KeyLeases) would make it. */
async function guardFor(token: string) {
  const hash = await hashToken(token);
  const guard = env.KEY_GUARD.get(env.KEY_GUARD.idFromName(hash));
  return {
    guard,
    admitIn: (isolate: KeyLeases) =>
      isolate.admit(hash, (want, unspent) => guard.admit(hash, want, unspent)) as Promise<Verdict>,
  };
}

/** Counts the guard's admissions from now on (each admit call of an active key reads its window once). */
async function countGuardCalls(guard: DurableObjectStub<KeyGuard>) {
  const counter = { calls: 0 };
  await runInDurableObject(guard, (instance: KeyGuard) => {
    const internals = instance as unknown as { windowFor: (...args: unknown[]) => unknown };
    const original = internals.windowFor.bind(instance);
    internals.windowFor = (...args) => {
      counter.calls++;
      return original(...args);
    };
  });
  return counter;
}

const admittedOf = (verdicts: Verdict[]) => verdicts.filter((v) => v.kind === "admitted").length;

describe("RollingWindow leases", () => {
  it("counts lent slots until the hold plus the window, and frees returned ones at once", () => {
    const window = new RollingWindow(10);
    const lease = window.lease(0, 8, 1_000);
    expect(lease).toMatchObject({ admitted: true, spare: 7, remaining: 2 });
    expect(window.lease(100, 5, 1_000)).toMatchObject({ admitted: true, spare: 1, remaining: 0 });
    expect(window.tryAdmit(200).admitted).toBe(false);

    // Three of the first lease's seven come back unspent: three requests fit again.
    window.giveBack(lease.leaseId, 3);
    for (let i = 0; i < 3; i++) expect(window.tryAdmit(300).admitted).toBe(true);
    expect(window.tryAdmit(300).admitted).toBe(false);

    // The two requests admitted directly (at 0 and 100) leave after 60 s, the three at 300 then too.
    expect(window.tryAdmit(60_050).admitted).toBe(true);
    expect(window.tryAdmit(60_100).admitted).toBe(true);
    expect(window.tryAdmit(60_200).admitted).toBe(false);
    expect(window.tryAdmit(60_250).resetSeconds).toBe(1);
    // The slots lent at 0 and 100 still count a minute after the loan: only three are free.
    expect(window.lease(60_400, 10, 1_000)).toMatchObject({ admitted: true, spare: 2, remaining: 0 });
    expect(window.tryAdmit(60_999).admitted).toBe(false);
    // A second later (the hold) the four lent at 0 leave.
    expect(window.lease(61_000, 10, 1_000)).toMatchObject({ admitted: true, spare: 3, remaining: 0 });
  });

  it("gives back only what a lease still holds, and ignores unknown leases", () => {
    const window = new RollingWindow(5);
    const lease = window.lease(0, 3, 1_000);
    window.giveBack(lease.leaseId, 10);
    window.giveBack(12345, 4);
    expect(window.lease(10, 10, 1_000)).toMatchObject({ admitted: true, spare: 3, remaining: 0 });
  });
});

describe("rate-limit leases across isolates", () => {
  it("spends a busy key's budget with few guard calls and exact remaining counts", async () => {
    const ws = await seedWorkspace({ overrides: { requests_per_minute: 1000 } });
    const { guard } = await guardFor(ws.token);
    expect((await call("GET", "/v1/accounts", { token: ws.token })).status).toBe(200);
    const counter = await countGuardCalls(guard);

    const responses = await Promise.all(
      Array.from({ length: 200 }, () => call("GET", "/v1/accounts", { token: ws.token })),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    // Every request took its own slot: the remaining counts are 998 down to 799, each once.
    const remaining = responses.map((r) => Number(r.headers.get("X-RateLimit-Remaining")));
    expect(new Set(remaining).size).toBe(200);
    expect(Math.max(...remaining)).toBe(998);
    expect(Math.min(...remaining)).toBe(799);
    expect(counter.calls).toBeLessThan(40);
  });

  it("never admits more than the limit, however many isolates spend it at once", async () => {
    const ws = await seedWorkspace({ overrides: { requests_per_minute: 150 } });
    const { admitIn } = await guardFor(ws.token);
    const isolates = [new KeyLeases(10), new KeyLeases(10), new KeyLeases(10)];
    // Each isolate gets a concurrent burst of 100: 300 requests for 150 slots.
    const verdicts = await Promise.all(
      isolates.flatMap((isolate) => Array.from({ length: 100 }, () => admitIn(isolate))),
    );
    const admitted = admittedOf(verdicts);
    expect(admitted).toBeLessThanOrEqual(150);
    const refused = verdicts.find((v) => v.kind === "limited");
    expect(refused).toMatchObject({ kind: "limited", limit: 150, remaining: 0 });

    // Slots lent but not spent come back with each isolate's next call once its lease has ended,
    // so in a few rounds the whole budget is spent, and not one request more.
    let total = admitted;
    for (let round = 0; round < 4 && total < 150; round++) {
      await sleep(LEASE_SPEND_MS + 20);
      const verdicts = await Promise.all(
        isolates.flatMap((isolate) => Array.from({ length: 60 }, () => admitIn(isolate))),
      );
      total += admittedOf(verdicts);
      expect(total).toBeLessThanOrEqual(150);
    }
    expect(total).toBe(150);
    const final = await Promise.all(isolates.map((isolate) => admitIn(isolate)));
    expect(final.every((v) => v.kind === "limited")).toBe(true);
  });

  it("stops another isolate spending a revoked key's lease within a second", async () => {
    const ws = await seedWorkspace({ overrides: { requests_per_minute: 1000 } });
    const { guard, admitIn } = await guardFor(ws.token);
    const other = new KeyLeases(10);
    // A burst makes the other isolate hold spare slots.
    await Promise.all(Array.from({ length: 50 }, () => admitIn(other)));
    await Promise.all(Array.from({ length: 50 }, () => admitIn(other)));
    const revokedAt = Date.now();
    await guard.revoke();

    // The time a refused request was made, not when its answer came back: on a busy machine the
    // answer itself took tens of milliseconds, which says nothing of when refusing began.
    let refusedAt = 0;
    while (refusedAt === 0) {
      const askedAt = Date.now();
      const verdict = await admitIn(other);
      if (verdict.kind === "invalid") refusedAt = askedAt;
      else await sleep(25);
    }
    expect(refusedAt - revokedAt).toBeLessThanOrEqual(LEASE_HOLD_MS);
  });

  it("still answers a key used one request at a time with one guard call each", async () => {
    const ws = await seedWorkspace({ overrides: { requests_per_minute: 1000 } });
    const { guard, admitIn } = await guardFor(ws.token);
    const isolate = new KeyLeases(10);
    await admitIn(isolate);
    const counter = await countGuardCalls(guard);
    for (let i = 0; i < 5; i++) expect((await admitIn(isolate)).kind).toBe("admitted");
    expect(counter.calls).toBe(5);
  });
});
