import { z } from "@hono/zod-openapi";
import { hasControlCharacter, jsonLength } from "./text";

/**
 * Bounds shared by request schemas. D1 refuses a row (or one value) over 2,000,000 bytes in
 * production, while local SQLite stores anything, so every stored field has a cap chosen so that
 * its rows, and the event payloads that copy it, always fit.
 */
export const D1_MAX_ROW_BYTES = 2_000_000;

/** Serialized metadata beyond this is refused: it rides along in every payload of its object. */
export const MAX_METADATA_BYTES = 16_384;

/** A zod refinement from a check that answers what is wrong, or null. */
export const refineWith =
  <T>(problemOf: (value: T) => string | null) =>
  (value: T, ctx: z.RefinementCtx) => {
    const problem = problemOf(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  };

/** At most `limit` bytes as UTF-8 JSON: the size the value takes in JSON columns and payloads. */
export const maxJsonBytes = (limit: number) =>
  refineWith((value: unknown) =>
    jsonLength(value) > limit ? `must be at most ${limit} bytes as JSON (UTF-8)` : null,
  );

/**
 * One line of text: names and subjects end up in mail headers, logs and pages, where a line
 * break forges a header and other control characters are garbage. A tab is allowed. A failure
 * stops later refinements, which would only report the same text again.
 */
export const singleLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { abort: true })
    .max(max, { abort: true })
    .refine((text) => !hasControlCharacter(text, { allowTab: true }), {
      message: "must be one line, without control characters",
      abort: true,
    });

export const Metadata = z
  .record(z.string(), z.unknown())
  .superRefine(maxJsonBytes(MAX_METADATA_BYTES))
  .openapi({
    description: `Free-form JSON object, at most ${MAX_METADATA_BYTES} bytes serialized (16 KB).`,
    example: { plan: "pro" },
  });
