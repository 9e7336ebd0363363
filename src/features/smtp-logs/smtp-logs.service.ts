import { createDb } from "../../db/client";
import { directoryDb } from "../../db/directory/client";
import { workspacesOfKeyHashes } from "../../db/directory/key-hashes";
import { LEGACY_SHARD } from "../../db/directory/workspaces";
import { shardD1 } from "../../db/shards";
import { newId } from "../../lib/ids";
import { insertSmtpLogs, keysByHash, type NewSmtpLogRow } from "./smtp-logs.repo";
import type { SmtpLogRecord } from "./smtp-logs.schemas";

type Key = Awaited<ReturnType<typeof keysByHash>>[number] & { shard: string };

/**
 * The keys behind the hashes the relay sent, revoked ones included: the directory names each
 * hash's workspace and shard (one read), then each shard is asked for its keys (in parallel),
 * scoped by the workspaces the directory named (the shard has the last word).
 */
async function keysOf(env: Env, hashes: string[]): Promise<Map<string, Key>> {
  const named = await workspacesOfKeyHashes(directoryDb(env), hashes);
  const byShard = new Map<string, string[]>();
  for (const [hash, { shard }] of named) byShard.set(shard, [...(byShard.get(shard) ?? []), hash]);
  const found = await Promise.all(
    [...byShard].map(async ([shard, shardHashes]) =>
      (await keysByHash(createDb(shardD1(env, shard)), shardHashes)).map((key) => ({ ...key, shard })),
    ),
  );
  const asNamed = (key: Key) => named.get(key.tokenHash)?.accountId === key.accountId;
  return new Map(
    found
      .flat()
      .filter(asNamed)
      .map((key) => [key.tokenHash, key]),
  );
}

/**
 * Stores the relay's records. A row belongs to the account of the key whose hash the relay sent
 * (revoked keys included, so a leaked-then-revoked key's attempts show up for its owner), in that
 * workspace's shard; with no matching key it belongs to nobody and goes to the first shard (`DB`),
 * where operators look and the prune keeps it a week. The key prefix comes from the stored key,
 * never from what the client typed, so a mistyped secret is not written anywhere.
 */
export async function recordSmtpLogs(env: Env, records: SmtpLogRecord[]): Promise<number> {
  const hashes = [...new Set(records.flatMap((r) => (r.key_hash ? [r.key_hash] : [])))];
  const byHash = hashes.length > 0 ? await keysOf(env, hashes) : new Map<string, Key>();
  const rowsByShard = new Map<string, NewSmtpLogRow[]>();
  for (const record of records) {
    const key = record.key_hash ? byHash.get(record.key_hash) : undefined;
    const shard = key?.shard ?? LEGACY_SHARD;
    rowsByShard.set(shard, [...(rowsByShard.get(shard) ?? []), rowOf(record, key)]);
  }
  await Promise.all(
    [...rowsByShard].map(([shard, rows]) => insertSmtpLogs(createDb(shardD1(env, shard)), rows)),
  );
  return records.length;
}

function rowOf(record: SmtpLogRecord, key: Key | undefined): NewSmtpLogRow {
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
}
