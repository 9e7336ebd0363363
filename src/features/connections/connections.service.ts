import type { Db } from "../../db/client";
import { encryptSecret } from "../../lib/crypto";
import { AppError, conflict, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { describeError, log } from "../../lib/logger";
import { type DkimKeyPair, generateDkimKeyPair, newSelector } from "../../mail/dkim/keys";
import { dnsConfigOf, toConnection } from "./connections.dto";
import {
  deleteConnection,
  findConnection,
  findConnectionByDomain,
  inboxesUsing,
  insertConnection,
  listConnections,
  updateConnection,
} from "./connections.repo";
import { checkRecords, recordsFor } from "./dns-records";

type ConnectionEnv = Pick<Env, "ENCRYPTION_KEY" | "SPF_INCLUDE" | "INBOUND_MX_HOST" | "DOH_RESOLVER_URL">;

/** Adds a domain with a fresh DKIM key pair; the private key is kept only encrypted. */
export async function createConnection(db: Db, env: ConnectionEnv, accountId: string, domain: string) {
  if (await findConnectionByDomain(db, accountId, domain)) {
    throw conflict(
      "domain_exists",
      "Domain already connected",
      `${domain} is already connected to this workspace.`,
    );
  }
  const keys = await generateDkimKeyPair();
  const [row] = await insertConnection(db, await newConnectionRow(env, accountId, domain, keys, Date.now()));
  // The unique index settles a race between two creations of the same domain.
  if (!row)
    throw conflict(
      "domain_exists",
      "Domain already connected",
      `${domain} is already connected to this workspace.`,
    );
  return toConnection(row, dnsConfigOf(env));
}

/** A new connection's row, pending: its own selector, the key pair's private key kept only encrypted. */
export async function newConnectionRow(
  env: Pick<Env, "ENCRYPTION_KEY">,
  accountId: string,
  domain: string,
  keys: DkimKeyPair,
  now: number,
) {
  return {
    id: newId("con"),
    accountId,
    domain,
    dkimSelector: newSelector(),
    dkimPublicKey: keys.publicKey,
    dkimPrivateKeyEncrypted: await encryptSecret(env.ENCRYPTION_KEY, keys.privateKey),
    createdAt: now,
    updatedAt: now,
  };
}

export async function listAccountConnections(db: Db, env: ConnectionEnv, accountId: string) {
  return (await listConnections(db, accountId)).map((row) => toConnection(row, dnsConfigOf(env)));
}

export async function getConnection(db: Db, env: ConnectionEnv, accountId: string, id: string) {
  const row = await findConnection(db, accountId, id);
  if (!row) throw notFound(`Connection ${id}`);
  return toConnection(row, dnsConfigOf(env));
}

/**
 * Looks the records up over DNS-over-HTTPS. Verified when the required ones (DKIM, SPF) are in
 * place; failed otherwise, with each record's finding. A resolver outage changes nothing.
 */
export async function verifyConnection(db: Db, env: ConnectionEnv, accountId: string, id: string) {
  const row = await findConnection(db, accountId, id);
  if (!row) throw notFound(`Connection ${id}`);
  const config = dnsConfigOf(env);
  const records = recordsFor(row.domain, row.dkimSelector, row.dkimPublicKey, config);
  let statuses: Awaited<ReturnType<typeof checkRecords>>;
  try {
    statuses = await checkRecords(env.DOH_RESOLVER_URL, records, config);
  } catch (error) {
    log.warn("connections.dns_check_failed", { connection_id: id, ...describeError(error) });
    throw new AppError(
      502,
      "dns_unavailable",
      "DNS check failed",
      "The DNS resolver could not be reached; try again.",
    );
  }
  const verified = records.every((record, i) => !record.required || statuses[i] === "verified");
  const now = Date.now();
  const updated = await updateConnection(db, accountId, id, {
    status: verified ? "verified" : "failed",
    checks: JSON.stringify(statuses),
    lastCheckedAt: now,
    verifiedAt: verified ? (row.verifiedAt ?? now) : null,
    updatedAt: now,
  });
  if (!updated) throw notFound(`Connection ${id}`);
  return toConnection(updated, config);
}

export async function removeConnection(db: Db, accountId: string, id: string) {
  const row = await findConnection(db, accountId, id);
  if (!row) throw notFound(`Connection ${id}`);
  const users = await inboxesUsing(db, accountId, id);
  if (users.length > 0) {
    throw conflict(
      "connection_in_use",
      "Connection in use",
      `Inboxes use this domain: ${users.join(", ")}. Move or delete them first.`,
    );
  }
  await deleteConnection(db, accountId, id);
}
