import { base64Decode } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import { describeError, log } from "../../lib/logger";
import { guessContentType } from "../emails/emails.input";
import type { TicketContext } from "../tickets/ticket-context";
import type { AttachmentRow } from "./messages.repo";
import type { AttachmentInputs } from "./messages.schemas";

export interface DecodedFile {
  row: AttachmentRow;
  bytes: Uint8Array;
}

/** One file of a message, named and keyed, not stored yet. */
export function messageFile(
  ctx: Pick<TicketContext, "accountId" | "now">,
  messageId: string,
  file: { filename: string; contentType: string; bytes: Uint8Array; contentId?: string | null },
): DecodedFile {
  const id = newId("att");
  return {
    bytes: file.bytes,
    row: {
      id,
      accountId: ctx.accountId,
      messageId,
      filename: file.filename,
      contentType: file.contentType,
      size: file.bytes.length,
      key: `messages/${messageId}/${id}`,
      contentId: file.contentId ?? null,
      createdAt: ctx.now,
    },
  };
}

/** A message's attachments decoded and named, not stored yet: checks and quota come first. */
export function decodeFiles(ctx: TicketContext, messageId: string, inputs: AttachmentInputs): DecodedFile[] {
  return inputs.map((input) =>
    messageFile(ctx, messageId, {
      filename: input.filename,
      contentType: input.content_type ?? guessContentType(input.filename),
      bytes: base64Decode(input.content.replace(/\s+/g, "")),
    }),
  );
}

export const filesBytes = (files: DecodedFile[]) => files.reduce((sum, f) => sum + f.bytes.length, 0);

/** Puts the bytes into R2; the rows are written by the message's batch, after this. */
export async function putFiles(ctx: TicketContext, files: DecodedFile[]) {
  await Promise.all(files.map((f) => ctx.env.FILES.put(f.row.key, f.bytes)));
}

/** Removes the bytes of a message whose batch did not commit. */
export async function removeFiles(ctx: TicketContext, files: DecodedFile[]) {
  if (files.length === 0) return;
  await ctx.env.FILES.delete(files.map((f) => f.row.key)).catch((error: unknown) =>
    log.warn("messages.attachment_cleanup_failed", describeError(error)),
  );
}
