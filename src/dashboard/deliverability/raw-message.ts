/** How much of a raw message a page shows: enough for any report, without loading a 25 MB mail. */
export const SHOWN_RAW_BYTES = 256 * 1024;

export interface RawExcerpt {
  /** The first SHOWN_RAW_BYTES as text (UTF-8, a broken sequence shown as U+FFFD). */
  text: string;
  size: number;
  truncated: boolean;
}

/**
 * The start of a kept message, read with an R2 range so a large mail is never loaded whole; null
 * when the bytes are gone (R2 and the row are pruned apart, so a page must survive the gap).
 */
export async function rawExcerpt(files: R2Bucket, key: string): Promise<RawExcerpt | null> {
  const object = await files.get(key, { range: { offset: 0, length: SHOWN_RAW_BYTES } });
  if (!object) return null;
  const text = new TextDecoder().decode(await object.arrayBuffer());
  return { text, size: object.size, truncated: object.size > SHOWN_RAW_BYTES };
}

/**
 * The whole message as a download: text/plain so no browser renders it, an attachment with a
 * name. `filename` is a public id the lookup matched, so it needs no quoting.
 */
export function textAttachment(raw: { body: ReadableStream; size: number }, filename: string): Response {
  return new Response(raw.body, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Length": String(raw.size),
      "Content-Disposition": `attachment; filename="${filename}"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
