import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createDb } from "../../src/db/client";
import { homedIn } from "../../src/db/directory/workspaces";
import { archiveDueEmails } from "../../src/features/email-archives/archive-emails";
import { DAY_MS } from "../../src/lib/email-retention";
import { directory, seedShard, shardD1Of } from "./helpers";
import { deliver, FIXTURES } from "./inbound-helpers";
import { MAILER_DAEMON, report, sentEmail } from "./reports-helpers";

// The email goes through the real send path (queue, capture transport) first.
vi.setConfig({ testTimeout: 30_000 });

/** The outcomes of the reports sent to `address`, whichever shard recorded them. */
async function outcomesTo(address: string) {
  const outcomes: string[] = [];
  for (const d1 of [env.DB, env.DB_2]) {
    const { results } = await d1
      .prepare("SELECT outcome FROM mail_reports WHERE rcpt_to = ? ORDER BY id")
      .bind(address)
      .all<{ outcome: string }>();
    outcomes.push(...results.map((r) => r.outcome));
  }
  return outcomes;
}

describe("a report about an email past retention", () => {
  it("is recorded as unmatched, and changes nothing", async () => {
    const sent = await sentEmail(["gone-later@example.net"]);
    await shardD1Of()
      .prepare("UPDATE accounts SET email_retention_days = 1 WHERE id = ?")
      .bind(sent.ws.accountId)
      .run();
    const at = (Math.floor(Date.now() / DAY_MS) + 2) * DAY_MS + 60_000;
    const homedHere = (ids: string[]) => homedIn(directory(), seedShard(), ids, at);
    expect((await archiveDueEmails(createDb(shardD1Of()), env.FILES, at, homedHere)).emails).toBeGreaterThan(
      0,
    );
    const left = await shardD1Of()
      .prepare("SELECT count(*) AS n FROM emails WHERE id = ?")
      .bind(sent.id)
      .first();
    expect(left).toEqual({ n: 0 });

    const raw = report(FIXTURES.dsnHard, sent, "gone-later@example.net");
    expect(await deliver(raw, { from: MAILER_DAEMON, to: sent.bounce })).toEqual({ outcome: "accepted" });
    expect(await outcomesTo(sent.bounce)).toEqual(["unmatched"]);
    const suppressed = await shardD1Of()
      .prepare("SELECT count(*) AS n FROM suppressions WHERE account_id = ?")
      .bind(sent.ws.accountId)
      .first();
    expect(suppressed).toEqual({ n: 0 });
  });
});
