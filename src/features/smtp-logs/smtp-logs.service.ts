import type { Db } from "../../db/client";
import { newId } from "../../lib/ids";
import { insertSmtpLogs, keysByHash, type NewSmtpLogRow } from "./smtp-logs.repo";
import type { SmtpLogRecord } from "./smtp-logs.schemas";

/**
 * Stores the relay's records. A row belongs to the account of the key whose hash the relay sent
 * (revoked keys included, so a leaked-then-revoked key's attempts show up for its owner); with no
 * matching key it belongs to nobody. The key prefix comes from the stored key, never from what
 * the client typed, so a mistyped secret is not written anywhere.
 */
export async function recordSmtpLogs(db: Db, records: SmtpLogRecord[]): Promise<number> {
  const hashes = [...new Set(records.flatMap((r) => (r.key_hash ? [r.key_hash] : [])))];
  const keys = hashes.length > 0 ? await keysByHash(db, hashes) : [];
  const byHash = new Map(keys.map((k) => [k.tokenHash, k]));
  const rows: NewSmtpLogRow[] = records.map((record) => {
    const key = record.key_hash ? byHash.get(record.key_hash) : undefined;
    return {
      id: newId("smtp"),
      accountId: key?.accountId ?? null,
      sessionId: record.session_id,
      keyId: key?.id ?? null,
      keyPrefix: key?.keyPrefix ?? null,
      clientIp: record.client_ip,
      tls: record.tls,
      auth: record.auth,
      mailFrom: record.mail_from,
      rcptTo: JSON.stringify(record.rcpt_to),
      size: record.size,
      outcome: record.outcome,
      replyCode: record.reply_code,
      reply: record.reply,
      emailId: record.email_id,
      createdAt: Date.parse(record.at),
    };
  });
  await insertSmtpLogs(db, rows);
  return rows.length;
}
