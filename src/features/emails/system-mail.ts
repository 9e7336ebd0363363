import type { SQL } from "drizzle-orm";
import type { Db, Statement } from "../../db/client";
import { newId } from "../../lib/ids";
import { formatAddress, parseAddress } from "../../mail/address";
import { insertEmailStatements } from "./email-insert";
import type { EmailRow, NewEmailRow } from "./emails.repo";

/** The `source` of the service's own mail (invitations, sign-in links). */
export const SYSTEM_SOURCE = "system";

export interface SystemEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * An email of the service itself, written into the workspace's emails so that its admins see it
 * leave (and bounce) in GET /v1/emails. It carries a secret link, so the API never shows its body
 * (see `toEmail` and `emailContent`). It is the service's mail, not the workspace's: it comes from
 * SYSTEM_FROM, needs no verified sender domain of the workspace, and counts against no quota
 * (storage included). The caller commits `statements` in its own batch, then queues `row`;
 * `onlyIf` makes them write only when the caller's own conditional write did.
 */
export function systemEmail(
  db: Db,
  env: Pick<Env, "SYSTEM_FROM">,
  accountId: string,
  mail: SystemEmail,
  now: number,
  onlyIf?: SQL,
): { row: EmailRow; statements: Statement[] } {
  const from = parseAddress(env.SYSTEM_FROM);
  if (!from) throw new Error("SYSTEM_FROM is not a valid address");
  const to = parseAddress(mail.to);
  if (!to) throw new Error("A system email needs a valid recipient");
  const id = newId("eml");
  const row = {
    id,
    accountId,
    connectionId: null,
    source: SYSTEM_SOURCE,
    from: formatAddress(from),
    to: JSON.stringify([formatAddress(to)]),
    cc: "[]",
    bcc: "[]",
    replyTo: "[]",
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    // Never answered automatically by well-behaved responders (RFC 3834); X-Loop names us, so if
    // such an answer comes back anyway, src/inbound/ recognises our own mail and drops it.
    headers: JSON.stringify({ "Auto-Submitted": "auto-generated", "X-Loop": from.address }),
    attachments: "[]",
    trackOpens: false,
    trackClicks: false,
    status: "queued",
    scheduledAt: null,
    messageId: null,
    lastEvent: "queued",
    lastEventAt: now,
    storedBytes: 0,
    createdAt: now,
    updatedAt: now,
  } satisfies NewEmailRow;
  return {
    row: row as unknown as EmailRow,
    statements: insertEmailStatements(db, row, [to.address.toLowerCase()], [], onlyIf),
  };
}

export const isSystemEmail = (row: Pick<EmailRow, "source">) => row.source === SYSTEM_SOURCE;
