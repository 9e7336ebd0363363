import { z } from "@hono/zod-openapi";
import type { Db } from "../../db/client";
import { eventIdMark } from "../email-webhooks/fact-events";
import { recordClick, recordOpen } from "./tracking.repo";

/**
 * An open or click that came while its workspace was being moved (src/lib/workspace-moving.ts): a
 * pixel must still show and a click still redirect, so the fact waits in the send queue instead of
 * being written into a shard that is being copied, and is recorded, at the time it happened, once
 * the move is over. Never lost; the queue delivers at least once, so a redelivered fact counts
 * twice, as a pixel loaded twice does.
 */
export const TrackingFactSchema = z.object({
  tracking: z.enum(["open", "click"]),
  emailId: z.string().regex(/^eml_/),
  accountId: z.string(),
  url: z.string().optional(),
  at: z.number().int(),
});
export type TrackingFact = z.infer<typeof TrackingFactSchema>;

export const isTrackingFact = (body: unknown) =>
  typeof body === "object" && body !== null && "tracking" in body;

/** Records a fact that waited; answers whether it wrote one (its webhook events follow from `mark`). */
export const recordLater = (db: Db, fact: TrackingFact, mark = eventIdMark()) =>
  fact.tracking === "open"
    ? recordOpen(db, fact.emailId, fact.at, mark)
    : recordClick(db, fact.emailId, fact.url ?? "", fact.at, mark);
