import { env } from "cloudflare:workers";
import { and, asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { emailArchiveParts, emailArchives } from "../../src/db/schema";
import { archivePartKey, dayOfLabel } from "../../src/lib/email-retention";
import { db } from "./helpers";

/** Days of email archives as the retention job leaves them (rows and R2 objects), and gzip helpers. */

export const bytesOf = async (stream: ReadableStream<Uint8Array>) =>
  new Uint8Array(await new Response(stream).arrayBuffer());

export const gzip = (text: string) =>
  bytesOf(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip")));

export const gunzip = async (bytes: Uint8Array) =>
  new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();

/**
 * A multi-member file read member by member (each `sizes` bytes long, in order): workerd's
 * DecompressionStream stops at the end of the first member ("Trailing bytes after end of
 * compressed data") where gunzip, zlib and Python read on.
 */
export async function gunzipMembers(file: Uint8Array, sizes: number[]) {
  let text = "";
  let at = 0;
  for (const size of sizes) {
    text += await gunzip(file.subarray(at, at + size));
    at += size;
  }
  expect(at).toBe(file.length);
  return text;
}

export const concat = (chunks: Uint8Array[]) => {
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
};

export const randomHex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");

/** One line of an archive, as the retention job writes it (its content does not matter here). */
export const line = (n: number) =>
  `${JSON.stringify({ object: "email", id: `eml_${n}`, subject: `Email ${n}` })}\n`;

export interface SeededPart {
  part: number;
  state?: "writing" | "archived";
  lines: string[];
  /** Leave the object out of R2, as if it had been lost. */
  missing?: boolean;
}

/**
 * A day's parts as the retention job leaves them: each an object in R2 under its key (a gzip
 * member), its row, and the day's row totalling the archived ones.
 */
export async function seedDay(accountId: string, date: string, parts: SeededPart[], at = Date.now()) {
  const day = dayOfLabel(date) as number;
  const archived: Uint8Array[] = [];
  for (const p of parts) {
    const token = crypto.randomUUID().replaceAll("-", "");
    const body = await gzip(p.lines.join(""));
    const state = p.state ?? "archived";
    const object = p.missing
      ? null
      : await env.FILES.put(archivePartKey(accountId, day, p.part, token), body);
    await db()
      .insert(emailArchiveParts)
      .values({
        accountId,
        day,
        part: p.part,
        state,
        token,
        emails: p.lines.length,
        bytes: body.length,
        etag: object?.etag ?? "gone",
        createdAt: at,
      });
    if (state === "archived") archived.push(body);
  }
  const done = parts.filter((p) => (p.state ?? "archived") === "archived");
  const totals = {
    parts: done.length,
    emails: done.reduce((n, p) => n + p.lines.length, 0),
    bytes: archived.reduce((n, b) => n + b.length, 0),
  };
  await db()
    .insert(emailArchives)
    .values({ accountId, day, ...totals, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: [emailArchives.accountId, emailArchives.day],
      set: { ...totals, updatedAt: at },
    });
  return { file: concat(archived), ...totals };
}

/** Adds the next part to a day already seeded, as a later retention run would. */
export async function addPart(accountId: string, date: string, part: number, lines: string[]) {
  const day = dayOfLabel(date) as number;
  const token = crypto.randomUUID().replaceAll("-", "");
  const body = await gzip(lines.join(""));
  const object = await env.FILES.put(archivePartKey(accountId, day, part, token), body);
  await db()
    .insert(emailArchiveParts)
    .values({
      accountId,
      day,
      part,
      state: "archived",
      token,
      emails: lines.length,
      bytes: body.length,
      etag: object?.etag ?? null,
      createdAt: Date.now(),
    });
  return body;
}

/** A day's part rows, in part order. */
export const partsOf = (accountId: string, date: string) =>
  db()
    .select()
    .from(emailArchiveParts)
    .where(
      and(eq(emailArchiveParts.accountId, accountId), eq(emailArchiveParts.day, dayOfLabel(date) as number)),
    )
    .orderBy(asc(emailArchiveParts.part));

/** The bytes of a part's object in R2. */
export async function objectBytes(accountId: string, date: string, p: { part: number; token: string }) {
  const object = await env.FILES.get(archivePartKey(accountId, dayOfLabel(date) as number, p.part, p.token));
  return new Uint8Array(await (object as R2ObjectBody).arrayBuffer());
}
