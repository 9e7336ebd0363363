import { exports } from "cloudflare:workers";
import PostalMime from "postal-mime";
import apple from "../fixtures/inbound/apple-mail-reply.eml?raw";
import arf from "../fixtures/inbound/arf-complaint.eml?raw";
import attachments from "../fixtures/inbound/attachments.eml?raw";
import autoReply from "../fixtures/inbound/auto-reply.eml?raw";
import forged from "../fixtures/inbound/forged-reply.eml?raw";
import gmail from "../fixtures/inbound/gmail-reply.eml?raw";
import htmlOnly from "../fixtures/inbound/html-only.eml?raw";
import latin1 from "../fixtures/inbound/latin1-quoted-printable.eml?raw";
import nested from "../fixtures/inbound/nested-too-deep.eml?raw";
import outlook from "../fixtures/inbound/outlook-reply.eml?raw";
import overLimit from "../fixtures/inbound/over-limit.eml?raw";
import plainText from "../fixtures/inbound/plain-text.eml?raw";
import dsnHard from "../fixtures/inbound/postfix-dsn-hard.eml?raw";
import dsnSoft from "../fixtures/inbound/postfix-dsn-soft.eml?raw";
import { callJson, seedInbox, seedWorkspace, shardD1Of } from "./helpers";

/** The MIME fixtures: real shapes of real clients, with `{{...}}` for what each test decides. */
export const FIXTURES = {
  apple,
  arf,
  dsnHard,
  dsnSoft,
  attachments,
  autoReply,
  forged,
  gmail,
  htmlOnly,
  latin1,
  nested,
  outlook,
  overLimit,
  plainText,
};

export const CUSTOMER = "ada@example.com";

/**
 * A fixture with its placeholders filled and CRLF line ends, as a receiving server hands it on.
 * `ID` (the Message-ID's unique part) is fresh unless given, so each delivery is a new mail.
 */
export function fill(template: string, values: Record<string, string> = {}): string {
  const all: Record<string, string> = { ID: crypto.randomUUID(), FROM: CUSTOMER, ...values };
  const text = template.replace(/\{\{([A-Z_]+)\}\}/g, (_, key: string) => {
    const value = all[key];
    if (value === undefined) throw new Error(`fixture placeholder ${key} not given`);
    return value;
  });
  return text.replace(/\r?\n/g, "\r\n");
}

export interface Delivery {
  outcome: "accepted" | "rejected" | "failed";
  reason?: string;
  error?: string;
}

/** The top-level headers, as the runtime hands them over (parsed the way wrangler dev does, when it can be). */
async function headersOf(bytes: Uint8Array): Promise<Headers> {
  try {
    const parsed = await PostalMime.parse(bytes);
    return new Headers(parsed.headers.map((h) => [h.key, h.value] as [string, string]));
  } catch {
    return new Headers();
  }
}

/**
 * Delivers raw MIME to the Worker's real email() handler, the way wrangler dev's local email
 * endpoint does it: the Worker's own entrypoint called over RPC with a message object carrying the
 * envelope, the bytes as a stream, the parsed headers and callbacks. (The vitest plugin has no
 * email trigger of its own; the runtime builds ForwardableEmailMessage only for real SMTP.) A
 * thrown handler is what the sending server sees as a temporary failure.
 */
export async function deliver(
  raw: string | Uint8Array,
  envelope: { from?: string; to: string },
): Promise<Delivery> {
  const { message, rejection } = await emailMessage(raw, envelope);
  try {
    await (exports.default as unknown as { email(m: typeof message): Promise<void> }).email(message);
  } catch (error) {
    return { outcome: "failed", error: String(error) };
  }
  const reason = rejection();
  return reason === undefined ? { outcome: "accepted" } : { outcome: "rejected", reason };
}

/**
 * The message object `deliver` hands the handler, for a test that calls `handleEmail` itself
 * (with bindings of its own); `rejection()` answers the reason given to `setReject`, if any.
 */
export async function emailMessage(raw: string | Uint8Array, envelope: { from?: string; to: string }) {
  const bytes = typeof raw === "string" ? new TextEncoder().encode(raw) : raw;
  let reason: string | undefined;
  const message = {
    from: envelope.from ?? CUSTOMER,
    to: envelope.to,
    raw: new Response(bytes).body as ReadableStream<Uint8Array>,
    rawSize: bytes.length,
    canBeForwarded: false,
    headers: await headersOf(bytes),
    setReject: (text: string) => {
      reason = text;
    },
    forward: () => Promise.reject(new Error("the service never forwards")),
    reply: () => Promise.reject(new Error("the service never replies through Email Routing")),
  };
  return { message, rejection: () => reason };
}

/** A generated message from CUSTOMER (CRLF, a fresh Message-ID): `contentType` and its body. */
export function generatedMail(to: string, subject: string, contentType: string, body: string) {
  return [
    `From: Ada Lovelace <${CUSTOMER}>`,
    `To: ${to}`,
    `Subject: ${subject}`,
    "Date: Thu, 12 Nov 2026 10:00:00 +0000",
    `Message-ID: <${crypto.randomUUID()}@mail.example.com>`,
    "MIME-Version: 1.0",
    `Content-Type: ${contentType}`,
    "",
    body,
  ].join("\r\n");
}

/** A workspace with an inbox: what every inbound test starts from. */
export async function inboundWorkspace() {
  const ws = await seedWorkspace();
  const inbox = await seedInbox(ws.accountId);
  return { ws, inbox };
}

export interface TicketBody {
  id: string;
  client_id: string;
  subject: string;
  status: string;
  customer: { id: string; email: string; name: string | null };
  message_count: number;
  snoozed_until: string | null;
}

export interface MessageBody {
  id: string;
  type: string;
  direction: string;
  status: string;
  from: string;
  to: string[];
  cc: string[];
  subject: string | null;
  body_text: string | null;
  body_html: string | null;
  stripped_text: string | null;
  auto_submitted: boolean;
  email_message_id: string | null;
  attachments: Array<{
    id: string;
    filename: string;
    content_type: string;
    size: number;
    content_id: string | null;
  }>;
}

export async function ticketsOf(token: string) {
  const { body } = await callJson<{ data: TicketBody[] }>("GET", "/v1/tickets?limit=100", { token });
  return body.data;
}

export async function messagesOf(token: string, ticketId: string) {
  const { body } = await callJson<{ data: MessageBody[] }>("GET", `/v1/tickets/${ticketId}/messages`, {
    token,
  });
  return body.data;
}

/** Rows of `dropped_mail` for the account, oldest first. */
export async function droppedOf(accountId: string) {
  const { results } = await shardD1Of()
    .prepare(
      "SELECT reason, detail, raw_key, raw_size, message_id FROM dropped_mail WHERE account_id = ? ORDER BY id",
    )
    .bind(accountId)
    .all<{
      reason: string;
      detail: string | null;
      raw_key: string;
      raw_size: number;
      message_id: string | null;
    }>();
  return results;
}
