import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  deleteExpiredInvitationCounts,
  INVITATION_COUNT_RETENTION_MS,
} from "../../src/jobs/prune-invitation-counts";
import { seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";
import { expectRangePerWorkspace, idsOf, runMinuteCron } from "./retention-helpers";

const HOUR = 3_600_000;

describe("hourly invitation counts retention", () => {
  it("the minute cron deletes the counts of hours older than a day and keeps the rest", async () => {
    const ws = await seedWorkspace();
    const now = Date.now();
    const thisHour = Math.floor(now / HOUR) * HOUR;
    const hours = [thisHour, thisHour - 23 * HOUR, thisHour - 25 * HOUR, thisHour - 400 * HOUR];
    await env.DB_2.batch(
      hours.map((hour) =>
        env.DB_2.prepare(
          "INSERT INTO invitation_mail_counts (account_id, hour_start, sent) VALUES (?, ?, 3)",
        ).bind(ws.accountId, hour),
      ),
    );

    await runMinuteCron(now);

    const kept = hours.filter((hour) => hour >= now - INVITATION_COUNT_RETENTION_MS);
    expect(kept).toHaveLength(2);
    expect(
      await idsOf("SELECT hour_start AS id FROM invitation_mail_counts WHERE account_id = ?", ws.accountId),
    ).toEqual(kept.map(String).sort());
  });

  it("finds each workspace's old hours through its primary key", async () => {
    const plan = await planOf(deleteExpiredInvitationCounts(Date.now(), 5_000));
    expectIndexed(plan, "invitation_mail_counts");
    expectRangePerWorkspace(
      plan,
      "sqlite_autoindex_invitation_mail_counts_1",
      "account_id=? AND hour_start<?",
    );
  });
});
