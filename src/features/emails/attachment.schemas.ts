import { z } from "@hono/zod-openapi";
import { isBase64 } from "../../lib/crypto";
import { refineWith } from "../../lib/input";
import { hasControlCharacter, hasLoneSurrogate } from "../../lib/text";
import { contentIdProblem, mediaTypeProblem } from "../../mail/mime/checks";

/**
 * The fields every attachment input shares (POST /v1/emails, ticket messages, compose), checked
 * before anything is stored: bytes that decode, and a name and type that can be written into the
 * MIME part and into the download's response headers.
 */
export const attachmentFields = {
  filename: z
    .string()
    .min(1)
    .max(255)
    .refine((name) => !hasControlCharacter(name) && !hasLoneSurrogate(name), {
      message: "must be text without control characters",
    }),
  content: z.string().min(1).refine(isBase64, { message: "must be base64" }).openapi({
    description: "The file's bytes, base64-encoded (standard alphabet, padded); line breaks are ignored.",
  }),
  content_type: z.string().max(255).superRefine(refineWith(mediaTypeProblem)).optional().openapi({
    description:
      "A media type such as `application/pdf`, with optional `; name=value` parameters. Guessed from the filename when absent.",
  }),
};

export const AttachmentContentId = z
  .string()
  .regex(/^[^\s<>]{1,255}$/, { abort: true })
  .superRefine(refineWith(contentIdProblem))
  .openapi({
    description:
      "Makes it an inline part, referenced from HTML as `cid:<content_id>`: printable ASCII without spaces or angle brackets.",
  });
