import { createDb, type Db, runBatch, type Statement } from "../../db/client";
import { groupCommit } from "../../db/group-commit";
import { describeError, log } from "../../lib/logger";
import { SUSPENDED_REASON } from "../../lib/workspace-gate";
import { bounceAddress } from "../../mail/bounce-address";
import { mimeSize } from "../../mail/mime";
import { transportFor } from "../../mail/transports";
import type { OutgoingMessage, Transport, TransportResult } from "../../mail/transports/transport";
import type { ConnectionRow } from "../connections/connections.repo";
import { bounceStatements } from "../suppressions/bounces";
import { addresses, messageOf, PermanentFailure } from "./build-message";
import {
  failBeforeHandoffStatements,
  finishStatements,
  openRecipients,
  RECORD_MARGIN_MS,
  type RecipientOutcome,
  releaseClaimStatements,
} from "./delivery.repo";
import { claimEmails, handOffEmails } from "./delivery-batch.repo";
import type { StoredAttachment } from "./emails.dto";
import type { EmailRow } from "./emails.repo";
import { isSystemEmail } from "./system-mail";

/** Temporary failures are retried this many times in all, with growing pauses, then the email fails. */
export const MAX_ATTEMPTS = 6;
const backoffSeconds = (attempts: number) => Math.min(30 * 2 ** (attempts - 1), 3600);

export type DeliveryOutcome =
  | { kind: "skipped" }
  | { kind: "done"; status: EmailRow["status"] }
  | { kind: "retry"; delaySeconds: number };

/** What one queue batch's emails share: the transport and the group-committed writes. */
interface Pipeline {
  transport: Transport;
  /** Marks one email handed off; answers whether its claim still held (see `handOffEmails`). */
  handOff(email: EmailRow): Promise<boolean>;
  /** Commits one email's statements, with whatever other emails' statements are ready too. */
  record(statements: Statement[]): Promise<void>;
}

function pipelineOf(env: Env, db: Db): Pipeline {
  return {
    transport: transportFor(env),
    handOff: groupCommit(async (emails: EmailRow[]) => {
      const held = await handOffEmails(db, emails, Date.now());
      return emails.map((email) => held.has(email.id));
    }),
    record: groupCommit(async (groups: Statement[][]) => {
      await runBatch(db, groups.flat());
      return groups.map(() => undefined);
    }),
  };
}

/** Transports answer every outcome; one that throws anyway is read as a temporary failure. */
async function send(pipeline: Pipeline, email: EmailRow, message: OutgoingMessage): Promise<TransportResult> {
  if (message.envelopes.length === 0)
    return { kind: "sent", response: "no recipient left to send to", rejected: [] };
  try {
    return await pipeline.transport.send(message, {
      handOff: () => pipeline.handOff(email),
      deadline: (email.leaseUntil ?? Date.now()) - RECORD_MARGIN_MS,
    });
  } catch (error) {
    return {
      kind: "failed",
      permanent: false,
      response: `Transport error: ${error instanceof Error ? error.message : String(error)}`,
      rejected: [],
    };
  }
}

type Answered = Exclude<TransportResult, { kind: "withheld" }>;

/** What happened to each recipient of this attempt. */
function outcomesOf(recipients: string[], result: Answered): RecipientOutcome[] {
  const refused = new Map(result.rejected.map((r) => [r.recipient.toLowerCase(), r]));
  return recipients.map((address) => {
    const rejection = refused.get(address);
    if (rejection) {
      return { address, state: rejection.permanent ? "rejected" : "deferred", response: rejection.response };
    }
    if (result.kind === "sent") return { address, state: "accepted", response: result.response };
    // The whole message was refused (connection, DATA): every recipient shares the answer.
    return { address, state: result.permanent ? "rejected" : "deferred", response: result.response };
  });
}

/** The email's own bytes in storage: attachments it keeps itself, plus its built message. */
const storedBytesOf = (email: EmailRow, size: number) =>
  (JSON.parse(email.attachments) as StoredAttachment[])
    .filter((a) => a.key.startsWith(`emails/${email.id}/`))
    .reduce((sum, a) => sum + a.size, size);

interface Built {
  email: EmailRow;
  raw: string;
  recipients: string[];
}

/**
 * Builds, signs and keeps an email's message; a failure ends the attempt here: the email fails at
 * once when it would fail again, else the claim is given back for a retry.
 */
async function build(
  env: Env,
  db: Db,
  pipeline: Pipeline,
  email: EmailRow,
  connection: ConnectionRow | null,
  now: number,
): Promise<Built | DeliveryOutcome> {
  try {
    const all = [
      ...new Set(
        [...addresses(email.to), ...addresses(email.cc), ...addresses(email.bcc)].map((a) =>
          a.address.toLowerCase(),
        ),
      ),
    ];
    const [raw, recipients] = await Promise.all([
      messageOf(env, connection, email),
      openRecipients(db, email, all),
    ]);
    return { email, raw, recipients };
  } catch (error) {
    if (error instanceof PermanentFailure || email.attempts >= MAX_ATTEMPTS) {
      const reason = error instanceof Error ? error.message : String(error);
      await pipeline.record(
        failBeforeHandoffStatements(db, email, reason, storedBytesOf(email, email.size ?? 0), now),
      );
      return { kind: "done", status: "failed" };
    }
    // Ours and passing (R2, D1): give the claim back now rather than when the lease runs out.
    const delaySeconds = backoffSeconds(email.attempts);
    await pipeline.record(
      releaseClaimStatements(
        db,
        email,
        "Temporary storage failure; retrying.",
        now + delaySeconds * 1000,
        now,
      ),
    );
    return { kind: "retry", delaySeconds };
  }
}

/**
 * Hands one built message to the transport and records its outcome the moment it answers. A
 * message withheld at the hand-off (the claim ran out meanwhile) is the new holder's: nothing is
 * written for it here.
 */
async function sendBuilt(
  env: Env,
  db: Db,
  pipeline: Pipeline,
  built: Built,
  now: number,
): Promise<DeliveryOutcome> {
  const { email, raw, recipients } = built;
  // Each recipient its own envelope sender, so a bounce or complaint names whom it is about.
  const envelopes = await Promise.all(
    recipients.map(async (recipient) => ({
      mailFrom: await bounceAddress(env.ENCRYPTION_KEY, email.id, recipient, email.fromAddress),
      recipient,
    })),
  );
  const result = await send(pipeline, email, { emailId: email.id, from: email.fromAddress, envelopes, raw });
  if (result.kind === "withheld") return { kind: "skipped" };
  const outcomes = outcomesOf(recipients, result);
  const accepted = outcomes.some((o) => o.state === "accepted") || email.sentAt !== null;
  const deferred = outcomes.filter((o) => o.state === "deferred");
  const retry = deferred.length > 0 && email.attempts < MAX_ATTEMPTS;
  const size = mimeSize(raw);
  // Only a refusal of the recipient counts as its bounce; one of the message or session does not.
  const bounced = result.rejected.filter((r) => !r.messageLevel);
  const status = retry
    ? "queued"
    : accepted
      ? "sent"
      : outcomes.every((o) => o.state === "rejected") && bounced.length > 0
        ? "bounced"
        : "failed";
  const delaySeconds = backoffSeconds(email.attempts);
  const bounces = bounced.flatMap((r) =>
    bounceStatements(
      {
        accountId: email.accountId,
        email: r.recipient,
        kind: r.permanent ? "hard" : "soft",
        emailId: email.id,
        detail: r.response,
      },
      now,
    ),
  );
  const statements = [
    ...finishStatements(
      db,
      email,
      outcomes,
      {
        status,
        lastEvent: retry ? "deferred" : status,
        lastResponse: result.response,
        size,
        // The service's own mail is not the workspace's: it takes none of its storage.
        storedBytes: isSystemEmail(email) ? 0 : storedBytesOf(email, size),
        nextAttemptAt: retry ? now + delaySeconds * 1000 : null,
        ...(accepted ? { sentAt: email.sentAt ?? now } : {}),
      },
      result.response,
      now,
    ),
    ...bounces,
  ];
  await pipeline.record(statements);
  return retry ? { kind: "retry", delaySeconds } : { kind: "done", status };
}

/** One claimed email through build, hand-off, transport and record. */
async function deliverClaimed(
  env: Env,
  db: Db,
  pipeline: Pipeline,
  email: EmailRow,
  connection: ConnectionRow | null,
  suspended: boolean,
  now: number,
): Promise<DeliveryOutcome> {
  if (suspended) {
    // Queued before its workspace was suspended: it ends here, recorded, and never goes out later.
    const bytes = storedBytesOf(email, email.size ?? 0);
    await pipeline.record(
      failBeforeHandoffStatements(db, email, SUSPENDED_REASON, bytes, now, SUSPENDED_REASON),
    );
    return { kind: "done", status: "failed" };
  }
  const built = await build(env, db, pipeline, email, connection, now);
  return "raw" in built ? sendBuilt(env, db, pipeline, built, now) : built;
}

/** A write that failed (D1 unreachable): the claim stays, so the minute sweep settles the email. */
const RECORD_FAILED: DeliveryOutcome = { kind: "retry", delaySeconds: 30 };

/**
 * Sends the emails that are due and nobody else has taken: one D1 round trip claims them all (with
 * the sender keys), then each goes its own way as soon as it is ready: built, marked handed off
 * at the last safe moment (see `SendHooks`), sent, and its outcome recorded the moment the
 * transport answers. The hand-offs and records of emails that are ready together share a round
 * trip (`groupCommit`), so a batch costs about one each, yet a crash leaves at most the emails
 * truly at the transport in doubt: every other one is either recorded or still unhanded and goes
 * out again. Each email keeps its own fences (claim, lease, attempt). Recipients the transport
 * accepted are never sent to again; those it deferred (4xx) are retried with growing pauses even
 * when others were accepted; each refused recipient counts one bounce per email. Answers one
 * outcome per id, in order.
 */
export async function deliverEmails(env: Env, ids: string[], now = Date.now()): Promise<DeliveryOutcome[]> {
  const db = createDb(env.DB);
  const outcomes = new Map<string, DeliveryOutcome>();
  const { claimed, connections, suspended } = await claimEmails(db, ids, now);
  if (claimed.length > 0) {
    const pipeline = pipelineOf(env, db);
    try {
      await Promise.all(
        claimed.map(async (email) => {
          const connection = (email.connectionId && connections.get(email.connectionId)) || null;
          try {
            const suspendedNow = suspended.has(email.accountId);
            outcomes.set(
              email.id,
              await deliverClaimed(env, db, pipeline, email, connection, suspendedNow, now),
            );
          } catch (error) {
            log.error("emails.record_failed", { email_id: email.id, ...describeError(error) });
            outcomes.set(email.id, RECORD_FAILED);
          }
        }),
      );
    } finally {
      await pipeline.transport.close();
    }
  }
  return ids.map((id) => outcomes.get(id) ?? { kind: "skipped" });
}

/** Sends one email if it is due and nobody else has taken it (see `deliverEmails`). */
export async function deliverEmail(env: Env, emailId: string, now = Date.now()): Promise<DeliveryOutcome> {
  const [outcome] = await deliverEmails(env, [emailId], now);
  return outcome ?? { kind: "skipped" };
}
