import { z } from "@hono/zod-openapi";
import type { Db } from "../db/client";
import { AppError } from "./errors";
import { idempotencyOf, storeAnswer, storedAnswer } from "./idempotency";

export interface IdempotentRequest {
  /** The `Idempotency-Key` header; without it nothing is read or stored. */
  key: string | undefined;
  /**
   * What the key answers for: the endpoint and the ids in its path. It is hashed with the body, so
   * a key reused on another endpoint or another parent resource is a 409, never another's answer.
   */
  scope: string;
  body: unknown;
  /**
   * Turns a stored answer back into the answer, for one that holds a secret: the create stores
   * the secret sealed and this opens it, so no secret sits in the key store in clear.
   */
  revive?: (stored: unknown) => Promise<unknown>;
}

export interface Created<S extends number, B> {
  status: S;
  body: B;
}

/** What a create adds to its own batch so its answer commits with it. */
export interface AnswerStore {
  /** The statement that stores the answer (none without a key); it fails on a concurrent twin. */
  answer(status: number, body: unknown): ReturnType<typeof storeAnswer>[];
  /** The key being stored, for a create whose answer SQL must finish in the batch; null without one. */
  key: string | null;
}

const NO_KEY: AnswerStore = { answer: () => [], key: null };

/**
 * A POST that creates something, made safe to retry with `Idempotency-Key` (the rules and the
 * key space of POST /v1/emails: 24 hours, one key space per workspace). A stored answer is replayed
 * verbatim without calling `create`, so nothing is written and no event fires again. Otherwise
 * `create` commits `store.answer(...)` in the same batch as its rows and events: a concurrent
 * twin's batch then fails on the key and rolls back whole, and it answers what the winner stored.
 * Without the header this costs no D1 round trip.
 */
export async function idempotentCreate<S extends number, B>(
  ctx: { db: Db; accountId: string; now: number },
  request: IdempotentRequest,
  create: (store: AnswerStore) => Promise<Created<S, B>>,
): Promise<Created<S, B>> {
  const idem = await idempotencyOf(request.key, { [request.scope]: request.body });
  if (!idem) return create(NO_KEY);
  const replay = async (answer: { status: number; body: unknown }) =>
    ({
      status: answer.status,
      body: request.revive ? await request.revive(answer.body) : answer.body,
    }) as Created<S, B>;
  const stored = await storedAnswer(ctx.db, ctx.accountId, idem, ctx.now);
  if (stored) return replay(stored);
  try {
    return await create({
      answer: (status, body) => [storeAnswer(ctx.db, ctx.accountId, idem, status, body, ctx.now)],
      key: idem.key,
    });
  } catch (error) {
    // A twin that committed first explains the failure; a twin with another body is a 409.
    const raced = await storedAnswer(ctx.db, ctx.accountId, idem, ctx.now).catch((readError: unknown) => {
      if (readError instanceof AppError) throw readError;
      return null;
    });
    if (raced) return replay(raced);
    throw error;
  }
}

/** The `Idempotency-Key` request header of a create route, described for that route. */
export const idempotencyHeader = (description: string) =>
  z.object({
    "idempotency-key": z
      .string()
      .min(1)
      .max(256)
      .optional()
      .openapi({
        description: `${description} Replays the first answer (same status and body) for 24 hours without creating anything or firing an event again; the same key with another body, or on another endpoint, is a 409 \`idempotency_key_reused\`. Keys are per workspace (shared with POST /v1/emails). A refused request stores nothing.`,
      }),
  });
