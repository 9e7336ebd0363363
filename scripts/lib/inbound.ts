/**
 * Delivers a raw message to a running Worker's email() handler through wrangler dev's local
 * email endpoint: `POST /cdn-cgi/handler/email?from=&to=&format=json` with the MIME as the body
 * (wrangler 4.164 serves it at /cdn-cgi/local/email and rewrites this documented path to it).
 * It answers `{ outcome, rejectReason }` as JSON: 200 when the handler returned, 500 when it threw.
 */
import { randomUUID } from "node:crypto";

export interface InboundResult {
  outcome: "accepted" | "rejected" | "failed";
  /** The rejection reason, or what went wrong. */
  reason?: string;
}

const HEADER_END = /\r?\n\r?\n/;

/** The headers of a message, before its first empty line. */
const headerBlock = (raw: string) => raw.split(HEADER_END)[0] ?? "";

/** The address of the message's From header, when it has one. */
export function fromHeaderAddress(raw: string): string | undefined {
  const from = /^From:[ \t]*(.*(?:\r?\n[ \t].*)*)/im.exec(headerBlock(raw))?.[1] ?? "";
  return /<([^<>\s]+@[^<>\s]+)>/.exec(from)?.[1] ?? /([^\s<>"]+@[^\s<>"]+)/.exec(from)?.[1];
}

/**
 * The message as a submission server passes it on: CRLF line ends, and a Message-ID when it has
 * none (the local endpoint refuses a message without one; real mail always carries one).
 */
export function asSubmitted(raw: string): string {
  const crlf = raw.replace(/\r?\n/g, "\r\n");
  if (/^Message-ID:/im.test(headerBlock(crlf))) return crlf;
  return `Message-ID: <${randomUUID()}@inbound.localhost>\r\n${crlf}`;
}

export async function deliverInbound(options: {
  baseUrl: string;
  from: string;
  to: string;
  raw: string;
}): Promise<InboundResult> {
  const url = new URL("/cdn-cgi/handler/email", options.baseUrl);
  url.search = new URLSearchParams({ from: options.from, to: options.to, format: "json" }).toString();
  const response = await fetch(url, { method: "POST", body: asSubmitted(options.raw) });
  const text = await response.text();
  if (!response.headers.get("content-type")?.includes("application/json")) {
    // wrangler dev refused the message itself (unparseable, over 25 MiB) before the Worker saw it.
    return { outcome: "failed", reason: `${response.status}: ${text.trim()}` };
  }
  const answer = JSON.parse(text) as { outcome: string; rejectReason?: string };
  if (answer.rejectReason !== undefined) return { outcome: "rejected", reason: answer.rejectReason };
  if (answer.outcome === "ok") return { outcome: "accepted" };
  return {
    outcome: "failed",
    reason: `the handler threw (${answer.outcome}): a sending server would retry later`,
  };
}
