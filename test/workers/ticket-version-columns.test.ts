import { describe, expect, it } from "vitest";
import { sweepSla } from "../../src/features/sla/sla-sweep";
import { db, shardD1Of, shardEnv } from "./helpers";
import { MIN, slaDesk, T0 } from "./sla-helpers";

/** The ticket columns whose change is the SLA clock's bookkeeping, not an edit (migration 0052). */
const SLA_BOOKKEEPING = ["sla", "sla_due_at", "sla_breached", "sla_next_at"];

const versionOf = async (id: string) =>
  (
    await shardD1Of()
      .prepare("SELECT version FROM tickets WHERE id = ?")
      .bind(id)
      .first<{ version: number }>()
  )?.version;

describe("what moves a ticket's version (its ETag)", () => {
  it("every column but the version and the SLA bookkeeping is in the bump trigger's UPDATE OF list", async () => {
    const d1 = shardD1Of();
    const columns = (
      await d1.prepare("SELECT name FROM pragma_table_info('tickets')").all<{ name: string }>()
    ).results.map((c) => c.name);
    const trigger = await d1
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'tickets_version_bump'")
      .first<{ sql: string }>();
    const listed = /UPDATE OF ([\s\S]*?)\s+ON tickets/i
      .exec(trigger?.sql ?? "")?.[1]
      ?.split(",")
      .map((c) => c.trim());
    const expected = columns.filter((c) => c !== "version" && !SLA_BOOKKEEPING.includes(c));
    expect(listed?.sort()).toEqual(expected.sort());
  });

  it("an SLA warning and breach marked by the sweep leave it; a status change moves it", async () => {
    const desk = await slaDesk();
    const ticket = await desk.open(T0);
    const before = await versionOf(ticket.id);
    await sweepSla(db(), shardEnv(), T0 + 30 * MIN);
    await sweepSla(db(), shardEnv(), T0 + 60 * MIN);
    const marked = await shardD1Of()
      .prepare("SELECT sla_breached FROM tickets WHERE id = ?")
      .bind(ticket.id)
      .first<{ sla_breached: number }>();
    expect(marked?.sla_breached).toBe(1);
    expect(await versionOf(ticket.id)).toBe(before);
    await desk.patch(T0 + 61 * MIN, ticket.id, { status: "on_hold" });
    expect(await versionOf(ticket.id)).toBe((before ?? 0) + 1);
  });
});
