import { eq, sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import { emails } from "../../db/schema";
import { deliveryOutcomes } from "../../mail/delivery-outcomes";

/** Counts an open (first and last time, and how many), with its event. */
export function recordOpen(db: Db, emailId: string, now: number) {
  return runBatch(db, [
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
  ]);
}

export function recordClick(db: Db, emailId: string, url: string, now: number) {
  return runBatch(db, [
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
  ]);
}
