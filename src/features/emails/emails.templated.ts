import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { answerFrom, type Idempotency, storedAnswerQueries } from "../../lib/idempotency";
import { type Filled, templateReads } from "../templates/send";
import type { SendEmailInput, SendEmailRequest } from "./emails.schemas";

/**
 * Sends through templates read what they are built from in one D1 round trip, whatever the number
 * of emails: every template and version they name, with the idempotent replay when a key is given
 * (answered first: a replay is never checked against templates changed since). Then the accepting
 * batch follows as for any send.
 */
export async function readTemplates(
  ctx: { db: Db; accountId: string; now: number },
  requests: SendEmailRequest[],
  idem: Idempotency | null,
  prefix: (index: number) => string,
): Promise<{ replay: unknown } | { filled: Array<Filled<SendEmailRequest>> }> {
  const reads = templateReads(ctx.db, ctx.accountId, requests);
  const idemQueries = idem ? storedAnswerQueries(ctx.db, ctx.accountId, idem, ctx.now) : [];
  const [first, ...rest] = [...idemQueries, ...reads.queries];
  const answers = first ? await ctx.db.batch([first, ...rest]) : [];
  if (idem) {
    const replay = answerFrom((answers[1] as Array<Parameters<typeof answerFrom>[0]>)[0] ?? null, idem);
    if (replay) return { replay: replay.body };
  }
  return { filled: reads.fill(answers.slice(idemQueries.length) as unknown[], prefix) };
}

/** A send's fields once its template (if any) filled them: 400 when neither gave a from or subject. */
export function resolvedInput(email: SendEmailRequest & { html?: string }, prefix: string): SendEmailInput {
  const { from, subject, template: _template, ...rest } = email;
  const missing = [
    ...(from === undefined ? [{ path: `${prefix}from`, message: "required: the template has no from" }] : []),
    ...(subject === undefined
      ? [{ path: `${prefix}subject`, message: "required: the template has no subject" }]
      : []),
  ];
  if (from === undefined || subject === undefined) {
    const summary = missing.map((d) => `${d.path}: ${d.message}`).join("; ");
    throw new AppError(400, "validation_error", "Invalid request", summary, { details: missing });
  }
  return { ...rest, from, subject };
}
