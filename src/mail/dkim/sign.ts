/** Signs an outbound message with DKIM: rsa-sha256, relaxed/relaxed (RFC 6376). */
import { base64Decode, base64Encode } from "../../lib/crypto";
import { canonicalizeBody, canonicalizeHeader, type HeaderField, splitMessage } from "./canonicalize";
import { type FoldPiece, foldHeader } from "./fold";

/**
 * The fields whose change would alter what the recipient sees or how they can unsubscribe.
 * Trace fields (Received, Return-Path) are left out because relays add and rewrite them.
 */
export const DEFAULT_SIGNED_HEADERS = [
  "from",
  "to",
  "cc",
  "subject",
  "date",
  "message-id",
  "reply-to",
  "mime-version",
  "content-type",
  "content-transfer-encoding",
  "list-unsubscribe",
  "list-unsubscribe-post",
] as const;

export interface DkimSignOptions {
  /** The `d=` domain; it should align with the From domain for DMARC to pass. */
  domain: string;
  selector: string;
  /** base64 of the PKCS#8 DER private key, as `generateDkimKeyPair` returns it, or that key imported. */
  privateKey: string | CryptoKey;
  /** Field names to sign when present; defaults to `DEFAULT_SIGNED_HEADERS`. */
  headers?: string[];
  /** The `t=` tag in Unix seconds; defaults to now. */
  timestamp?: number;
}

const encoder = new TextEncoder();
const RSA_SIGN_PARAMS = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };

/**
 * Returns `message` (CRLF line endings, headers and body separated by an empty line) with a
 * DKIM-Signature field prepended. Throws when there is no From field: RFC 6376 §5.4 requires it.
 */
export async function signDkim(message: string, options: DkimSignOptions): Promise<string> {
  const { headers, body } = splitMessage(message);
  const signed = selectSignedFields(headers, options.headers ?? [...DEFAULT_SIGNED_HEADERS]);
  if (!signed.some((field) => field.name === "from")) throw new Error("DKIM signing needs a From header");

  const bodyHash = base64Encode(await sha256(canonicalizeBody(body)));
  const timestamp = Math.floor(options.timestamp ?? Date.now() / 1000);
  const pieces: FoldPiece[] = [
    ...["v=1;", "a=rsa-sha256;", "c=relaxed/relaxed;"].map(spaced),
    spaced(`d=${options.domain};`),
    spaced(`s=${options.selector};`),
    spaced(`t=${timestamp};`),
    ...headerListPieces(signed.map((field) => field.name)),
    spaced(`bh=${bodyHash};`),
    spaced("b="),
  ];

  // §3.7: the hash covers the signed fields, then this field with an empty b= and no final CRLF.
  const unsignedField = foldHeader("DKIM-Signature", pieces);
  const hashed =
    signed.map((field) => `${canonicalizeHeader(field.raw)}\r\n`).join("") +
    canonicalizeHeader(unsignedField);
  const signature = base64Encode(await rsaSign(options.privateKey, hashed));

  const signatureChars = [...signature].map((char): FoldPiece => ({ text: char, glue: "" }));
  return `${foldHeader("DKIM-Signature", [...pieces, ...signatureChars])}\r\n${message}`;
}

/**
 * §5.4.2: a name listed once signs its last occurrence, listed again the one above it, so every
 * occurrence is listed and taken from the bottom up. Absent names are not listed: that would forbid
 * adding the field downstream, which mailing lists legitimately do (List-Unsubscribe, Cc).
 */
function selectSignedFields(fields: HeaderField[], names: string[]): HeaderField[] {
  const wanted = [...new Set(names.map((name) => name.trim().toLowerCase()))];
  return wanted.flatMap((name) => fields.filter((field) => field.name === name).reverse());
}

function headerListPieces(names: string[]): FoldPiece[] {
  return names.map((name, index) => {
    const last = index === names.length - 1;
    const text = `${index === 0 ? "h=" : ""}${name}${last ? ";" : ":"}`;
    return { text, glue: index === 0 ? " " : "" };
  });
}

function spaced(text: string): FoldPiece {
  return { text, glue: " " };
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** The signing key of a base64 PKCS#8 private key; callers that sign often import it once. */
export function importDkimKey(privateKey: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("pkcs8", base64Decode(privateKey), RSA_SIGN_PARAMS, false, ["sign"]);
}

async function rsaSign(privateKey: string | CryptoKey, data: string): Promise<Uint8Array> {
  const key = typeof privateKey === "string" ? await importDkimKey(privateKey) : privateKey;
  return new Uint8Array(await crypto.subtle.sign(RSA_SIGN_PARAMS.name, key, encoder.encode(data)));
}
