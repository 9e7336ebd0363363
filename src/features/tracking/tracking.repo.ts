import { eq, sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import { emails } from "../../db/schema";
import { deliveryOutcomes } from "../../mail/delivery-outcomes";
import { eventIdMark, eventsWrittenSince, wroteEvents } from "../email-webhooks/fact-events";

/** The workspace of an email, by its id alone (unique in the service). */
export async function accountOfEmail(db: Db, emailId: string): Promise<string | null> {
  const rows = await db
    .select({ accountId: emails.accountId })
    .from(emails)
    .where(eq(emails.id, emailId))
    .limit(1);
  return rows[0]?.accountId ?? null;
}

/**
 * Counts an open (first and last time, and how many), with its event. Answers whether it wrote a
 * webhook event (the first open, for a workspace with a subscribed endpoint) since `mark`.
 */
export async function recordOpen(
  db: Db,
  emailId: string,
  now: number,
  mark = eventIdMark(),
): Promise<boolean> {
  const results = await runBatch(db, [
    ...deliveryOutcomes.firstOpen(emailId, now),
    db
      .update(emails)
      .set({
        openCount: sql`${emails.openCount} + 1`,
        firstOpenedAt: sql`coalesce(${emails.firstOpenedAt}, ${now})`,
        lastOpenedAt: now,
        lastEvent: "opened",
        lastEventAt: now,
      })
      .where(eq(emails.id, emailId)),
    sql`INSERT INTO email_events (email_seq, type, detail, created_at) SELECT seq, 'opened', NULL, ${now} FROM emails WHERE id = ${emailId}`,
    eventsWrittenSince(mark),
  ]);
  return wroteEvents(results);
}

/** Counts a click, with its event; answers as recordOpen does. */
export async function recordClick(
  db: Db,
  emailId: string,
  url: string,
  now: number,
  mark = eventIdMark(),
): Promise<boolean> {
  const results = await runBatch(db, [
    ...deliveryOutcomes.firstClick(emailId, now, url),
    db
      .update(emails)
      .set({
        clickCount: sql`${emails.clickCount} + 1`,
        firstClickedAt: sql`coalesce(${emails.firstClickedAt}, ${now})`,
        lastClickedAt: now,
        lastEvent: "clicked",
        lastEventAt: now,
      })
      .where(eq(emails.id, emailId)),
    sql`INSERT INTO email_events (email_seq, type, detail, created_at) SELECT seq, 'clicked', ${url}, ${now} FROM emails WHERE id = ${emailId}`,
    eventsWrittenSince(mark),
  ]);
  return wroteEvents(results);
}
