import { describeError, log } from "../lib/logger";

/** Messages over this are refused before a byte is read (Cloudflare Email Routing's own limit). */
export const MAX_INBOUND_BYTES = 25 * 1024 * 1024;

/** A received message's bytes and where they are kept in R2. */
export interface RawMail {
  key: string;
  bytes: Uint8Array;
  /**
   * The R2 put of the bytes, started when they arrived and run alongside parsing and reading:
   * whatever writes a row naming `key` awaits it first.
   */
  stored: Promise<void>;
}

/** Under the workspace, named by the message id it gets (if it becomes one). */
export const rawKeyOf = (accountId: string, messageId: string) => `inbound/${accountId}/${messageId}.eml`;

export async function readRaw(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Kept before anything is written, so that whatever fails next, the bytes are still there. */
export async function keepRaw(files: R2Bucket, raw: Pick<RawMail, "key" | "bytes">): Promise<void> {
  await files.put(raw.key, raw.bytes, { httpMetadata: { contentType: "message/rfc822" } });
}

/** For mail the sender still holds (we answered with a temporary failure) or that we already stored. */
export async function forgetRaw(files: R2Bucket, raw: Pick<RawMail, "key">): Promise<void> {
  await files
    .delete(raw.key)
    .catch((error: unknown) => log.warn("inbound.raw_cleanup_failed", describeError(error)));
}
