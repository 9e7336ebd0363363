/** MIME entities (RFC 2045/2046): leaf parts, multiparts, and their serialization. */
import { toHex } from "../../lib/crypto";
import { base64Lines, CRLF, quotedPrintable } from "./encoding";
import { foldHeader } from "./fold";
import { checkMediaType, parameter } from "./params";
import type { MimeAttachment } from "./types";

export interface MimePart {
  /** The media type without parameters, for a multipart/related `type` parameter. */
  mediaType: string;
  /** Complete, folded header lines. */
  headers: string[];
  /** Encoded body, without the CRLF that ends it. */
  body: string;
}

export function serializePart(part: MimePart): string {
  return [...part.headers, "", part.body].join(CRLF);
}

/** A text body: UTF-8 in quoted-printable, which keeps mostly-ASCII text readable and 7-bit. */
export function textPart(subtype: "plain" | "html", content: string): MimePart {
  return {
    mediaType: `text/${subtype}`,
    headers: [`Content-Type: text/${subtype}; charset=utf-8`, "Content-Transfer-Encoding: quoted-printable"],
    body: quotedPrintable(content),
  };
}

/** RFC 2392 content ids are msg-id bodies: printable ASCII, no brackets, no whitespace. */
export function contentIdHeader(contentId: string): string {
  const bare = contentId.replace(/^<(.*)>$/, "$1");
  if (!/^[!-;=?-~]{1,900}$/.test(bare)) throw new Error(`Invalid content id ${JSON.stringify(contentId)}.`);
  return `Content-ID: <${bare}>`;
}

/** A file: base64, with its name in both Content-Type (older clients) and Content-Disposition. */
export function attachmentPart(attachment: MimeAttachment, disposition: "attachment" | "inline"): MimePart {
  const mediaType = checkMediaType(attachment.contentType);
  const named = (attribute: string) =>
    attachment.filename ? `; ${parameter(attribute, attachment.filename)}` : "";
  const headers = [
    foldHeader("Content-Type", `${mediaType}${named("name")}`),
    "Content-Transfer-Encoding: base64",
    foldHeader("Content-Disposition", `${disposition}${named("filename")}`),
  ];
  if (attachment.contentId !== undefined) headers.push(contentIdHeader(attachment.contentId));
  return { mediaType: mediaType.split(";")[0] ?? mediaType, headers, body: base64Lines(attachment.content) };
}

/**
 * "=_" cannot occur in quoted-printable ("=" must start a hex escape) or base64 (no "_"), so the
 * boundary can never collide with an encoded body; the loop still checks the finished children
 * because headers and nested boundaries are text too.
 */
function newBoundary(children: string[]): string {
  for (;;) {
    const boundary = `=_${toHex(crypto.getRandomValues(new Uint8Array(16)))}`;
    if (!children.some((child) => child.includes(boundary))) return boundary;
  }
}

/** A multipart entity; `extra` holds parameters placed before the boundary (e.g. related's `type`). */
export function multipart(
  subtype: "alternative" | "related" | "mixed",
  children: MimePart[],
  extra = "",
): MimePart {
  const serialized = children.map(serializePart);
  const boundary = newBoundary(serialized);
  const body = `${serialized.map((child) => `--${boundary}${CRLF}${child}${CRLF}`).join("")}--${boundary}--`;
  return {
    mediaType: `multipart/${subtype}`,
    headers: [foldHeader("Content-Type", `multipart/${subtype};${extra} boundary="${boundary}"`)],
    body,
  };
}
