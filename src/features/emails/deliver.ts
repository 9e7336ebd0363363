import { createDb, type Db, runBatch, type Statement } from "../../db/client";
import { groupCommit } from "../../db/group-commit";
import { describeError, log } from "../../lib/logger";
import { SUSPENDED_REASON } from "../../lib/workspace-gate";
import { bounceAddress } from "../../mail/bounce-address";
import { mimeSize } from "../../mail/mime";
import { transportFor } from "../../mail/transports";
import type { EnvelopeOutcome, Transport } from "../../mail/transports/transport";
import type { ConnectionRow } from "../connections/connections.repo";
import {
  type AttemptEndItem,
  attemptEndStatements,
  failBeforeHandoffStatements,
  type RecipientOutcome,
} from "./attempt-end.repo";
import { recipientOutcomeOf, verdictOf } from "./attempt-outcome";
import { AttemptRecorder, type SharedWrites } from "./attempt-recorder";
import { addresses, messageOf, PermanentFailure } from "./build-message";
import { type OpenRecipient, openRecipients, sendWindowMs } from "./delivery.repo";
import { claimEmails, handOffEmails } from "./delivery-batch.repo";
import type { StoredAttachment } from "./emails.dto";
import type { EmailRow } from "./emails.repo";
import { isSystemEmail } from "./system-mail";

export { MAX_ATTEMPTS } from "./attempt-outcome";

export type DeliveryOutcome =
  | { kind: "skipped" }
  | { kind: "done"; status: EmailRow["status"] }
  | { kind: "retry"; delaySeconds: number };

/** What one queue batch's emails share: the transport and the group-committed writes. */
interface Pipeline extends SharedWrites {
  transport: Transport;
  /** Writes how an attempt ended, with whatever else is ready (see `attemptEndStatements`). */
  end(item: AttemptEndItem): Promise<void>;
}

/** A write of the round: statements as they are, or an attempt's end, counted with the others'. */
type Write = { statements: Statement[] } | { end: AttemptEndItem };

function pipelineOf(env: Env, db: Db): Pipeline {
  const handOff = groupCommit((items: Parameters<typeof handOffEmails>[1]) => handOffEmails(db, items));
  // An email's progress and its end never share a round: its end waits for its progress writes.
  const write = groupCommit(async (writes: Write[]) => {
    const ends = writes.flatMap((w) => ("end" in w ? [w.end] : []));
    await runBatch(db, [
      ...writes.flatMap((w) => ("statements" in w ? w.statements : [])),
      ...(ends.length > 0 ? attemptEndStatements(ends) : []),
    ]);
    return writes.map(() => undefined);
  });
  return {
    transport: transportFor(env),
    handOff: (email, recipients, now) => handOff({ email, recipients, now }),
    record: (statements) => write({ statements }),
    end: (item) => write({ end: item }),
  };
}

/** The email's own bytes in storage: attachments it keeps itself, plus its built message. */
const storedBytesOf = (email: EmailRow, size: number) =>
  (JSON.parse(email.attachments) as StoredAttachment[])
    .filter((a) => a.key.startsWith(`emails/${email.id}/`))
    .reduce((sum, a) => sum + a.size, size);

/** One claimed email's attempt: its clock, and what every step of it reads. */
interface Attempt {
  env: Env;
  db: Db;
  pipeline: Pipeline;
  email: EmailRow;
  /** The claim's time on the attempt's clock. */
  claimedAt: number;
  clock: () => number;
}

const TEMPORARY_BUILD_FAILURE = "Temporary storage failure; retrying.";

/** Records the attempt's end and answers what the queue should do with the email's message. */
async function finish(
  attempt: Attempt,
  open: OpenRecipient[],
  outcomes: Map<string, RecipientOutcome | null>,
  unwritten: RecipientOutcome[],
  reachedAt: number | null,
  built: { size: number } | null,
): Promise<DeliveryOutcome> {
  const { email, pipeline } = attempt;
  const now = attempt.clock();
  const reached = reachedAt !== null || unwritten.some((o) => o.state === "accepted");
  const verdict = verdictOf(email, open, outcomes, reached, now);
  const sentAt = email.sentAt ?? reachedAt ?? (reached ? now : null);
  await pipeline.end({
    email,
    outcomes: unwritten,
    changes: {
      status: verdict.status,
      lastEvent: verdict.status === "queued" ? "deferred" : verdict.status,
      lastResponse: verdict.lastResponse,
      nextAttemptAt: verdict.nextAttemptAt,
      ...(built
        ? {
            size: built.size,
            // The service's own mail is not the workspace's: it takes none of its storage.
            storedBytes: isSystemEmail(email) ? 0 : storedBytesOf(email, built.size),
          }
        : {}),
      ...(sentAt !== null ? { sentAt } : {}),
    },
    detail: verdict.lastResponse,
    now,
  });
  if (verdict.status !== "queued") return { kind: "done", status: verdict.status };
  return {
    kind: "retry",
    delaySeconds: Math.max(0, Math.ceil(((verdict.nextAttemptAt ?? now) - now) / 1000)),
  };
}

/** The open recipients due in this attempt: never tried, or deferred and due. */
const dueOf = (open: OpenRecipient[], now: number) =>
  open.filter((r) => r.state === "pending" || (r.retryAt ?? 0) <= now);

/** Every open recipient's outcome of one answer shared by all (a temporary failure of ours). */
function sharedOutcomes(
  due: OpenRecipient[],
  answer: EnvelopeOutcome,
  since: number,
  fromTransport: boolean,
) {
  return new Map(due.map((r) => [r.address, recipientOutcomeOf(r, answer, since, fromTransport)]));
}

/**
 * Hands the built message to the transport, one envelope per due recipient, each recorded as
 * it goes (see `AttemptRecorder`), then the attempt's end. A message withheld at a hand-off (the
 * claim ran out meanwhile) is the new holder's: nothing more is written for it here.
 */
async function sendBuilt(attempt: Attempt, raw: string, open: OpenRecipient[]): Promise<DeliveryOutcome> {
  const { env, email, pipeline } = attempt;
  const due = dueOf(open, attempt.claimedAt);
  // Each recipient its own envelope sender, so a bounce or complaint names whom it is about.
  const envelopes = await Promise.all(
    due.map(async ({ address }) => ({
      mailFrom: await bounceAddress(env.ENCRYPTION_KEY, email.id, address, email.fromAddress),
      recipient: address,
    })),
  );
  const dueByAddress = new Map(due.map((r) => [r.address, r]));
  const window = sendWindowMs(env);
  const recorder = new AttemptRecorder(
    pipeline,
    email,
    dueByAddress,
    attempt.clock,
    attempt.claimedAt,
    window,
  );
  let answers: EnvelopeOutcome[];
  if (envelopes.length === 0) answers = [];
  else {
    const result = await pipeline.transport
      .send({ emailId: email.id, from: email.fromAddress, envelopes, raw }, recorder.hooks())
      .catch((error): { kind: "answered"; outcomes: EnvelopeOutcome[] } => {
        // Transports answer every outcome; one that throws anyway is a temporary failure for all.
        const response = `Transport error: ${error instanceof Error ? error.message : String(error)}`;
        return {
          kind: "answered",
          outcomes: envelopes.map(() => ({ kind: "refused", permanent: false, response })),
        };
      });
    await recorder.settledWrites();
    if (result.kind === "withheld") return { kind: "skipped" };
    answers = result.outcomes;
  }
  const outcomes = new Map<string, RecipientOutcome | null>();
  const unwritten: RecipientOutcome[] = [];
  for (const [i, recipient] of due.entries()) {
    const written = recorder.written.get(recipient.address);
    const outcome =
      written ?? recipientOutcomeOf(recipient, answers[i] ?? { kind: "untried" }, attempt.claimedAt);
    outcomes.set(recipient.address, outcome);
    if (!written && outcome) unwritten.push(outcome);
  }
  return finish(attempt, open, outcomes, unwritten, recorder.reachedAt, { size: mimeSize(raw) });
}

/**
 * Builds, signs and keeps an email's message, then sends it. A message that cannot be built fails
 * the email at once; a passing failure of ours (R2) spends one try of each due recipient and gives
 * the claim back for a retry.
 */
async function buildAndSend(attempt: Attempt, connection: ConnectionRow | null): Promise<DeliveryOutcome> {
  const { env, db, email, pipeline } = attempt;
  const all = [
    ...new Set(
      [...addresses(email.to), ...addresses(email.cc), ...addresses(email.bcc)].map((a) =>
        a.address.toLowerCase(),
      ),
    ),
  ];
  const [raw, open] = await Promise.all([
    messageOf(env, connection, email).catch((error: unknown) => ({ error })),
    openRecipients(db, email, all),
  ]);
  if (typeof raw === "string") return sendBuilt(attempt, raw, open);
  if (raw.error instanceof PermanentFailure) {
    const reason = raw.error.message;
    const bytes = storedBytesOf(email, email.size ?? 0);
    await pipeline.record(failBeforeHandoffStatements(email, reason, bytes, attempt.clock()));
    return { kind: "done", status: "failed" };
  }
  log.warn("emails.build_failed", { email_id: email.id, ...describeError(raw.error) });
  const answer: EnvelopeOutcome = {
    kind: "refused",
    permanent: false,
    response: TEMPORARY_BUILD_FAILURE,
    messageLevel: true,
  };
  const outcomes = sharedOutcomes(dueOf(open, attempt.claimedAt), answer, attempt.claimedAt, false);
  const unwritten = [...outcomes.values()].filter((o) => o !== null);
  return finish(attempt, open, outcomes, unwritten, null, null);
}

/** One claimed email through build, hand-off, transport and record. */
async function deliverClaimed(
  attempt: Attempt,
  connection: ConnectionRow | null,
  suspended: boolean,
): Promise<DeliveryOutcome> {
  const { email, pipeline } = attempt;
  if (suspended) {
    // Queued before its workspace was suspended: it ends here, recorded, and never goes out later.
    const bytes = storedBytesOf(email, email.size ?? 0);
    await pipeline.record(
      failBeforeHandoffStatements(email, SUSPENDED_REASON, bytes, attempt.clock(), SUSPENDED_REASON),
    );
    return { kind: "done", status: "failed" };
  }
  return buildAndSend(attempt, connection);
}

/** A write that failed (D1 unreachable): the claim stays, so the minute sweep settles the email. */
const RECORD_FAILED: DeliveryOutcome = { kind: "retry", delaySeconds: 30 };

/**
 * Sends the emails that are due and nobody else has taken: one D1 round trip claims them all (with
 * the sender keys), then each goes its own way as soon as it is ready: built, and each due
 * recipient's envelope handed off at the last safe moment (see `SendHooks`), sent, and its
 * outcome recorded as the transport answers. The hand-offs and records that are ready together
 * share a round trip (`groupCommit`), so a batch of one-recipient emails costs about one each, yet
 * a crash leaves in doubt only the envelopes truly at the transport: every other recipient is
 * either recorded or still open and goes out again. Each email keeps its own fences (claim, lease,
 * attempt). Recipients the transport accepted are never sent to again; those it deferred (4xx)
 * are retried with growing pauses of their own, six tries each; those not begun in the attempt's
 * time go in the next one at once. Each refused recipient counts one bounce per email. Answers one
 * outcome per id, in order. `now` sets the attempt's clock (tests move it ahead).
 */
export async function deliverEmails(env: Env, ids: string[], now = Date.now()): Promise<DeliveryOutcome[]> {
  const db = createDb(env.DB);
  const skew = now - Date.now();
  const clock = () => Date.now() + skew;
  const outcomes = new Map<string, DeliveryOutcome>();
  const { claimed, connections, suspended } = await claimEmails(db, ids, now);
  if (claimed.length > 0) {
    const pipeline = pipelineOf(env, db);
    try {
      await Promise.all(
        claimed.map(async (email) => {
          const connection = (email.connectionId && connections.get(email.connectionId)) || null;
          const attempt: Attempt = { env, db, pipeline, email, claimedAt: now, clock };
          try {
            outcomes.set(email.id, await deliverClaimed(attempt, connection, suspended.has(email.accountId)));
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
