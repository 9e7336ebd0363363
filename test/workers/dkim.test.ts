import { describe, expect, it } from "vitest";
import { base64Decode, base64Encode } from "../../src/lib/crypto";
import { canonicalizeBody, canonicalizeHeader } from "../../src/mail/dkim/canonicalize";
import { generateDkimKeyPair, newSelector } from "../../src/mail/dkim/keys";
import { signDkim } from "../../src/mail/dkim/sign";

const encoder = new TextEncoder();
/** One entry per header field, in message order; the Subject is folded. */
const FIELDS = [
  "From: Support <support@example.com>",
  "To: ada@example.net",
  "Subject: Runs inside workerd,\r\n folded",
  "Date: Tue, 14 Jan 2025 09:30:00 +0000",
  "Message-ID: <1@example.com>",
];
const BODY = "Hello \t there  \r\nBye\r\n\r\n";
const MESSAGE = `${FIELDS.join("\r\n")}\r\n\r\n${BODY}`;

/** The first field of the signed message, which is the DKIM-Signature field with its folding. */
function signatureField(signed: string): string {
  return signed.split(/\r\n(?![ \t])/)[0] ?? "";
}

function tagsOf(field: string): Map<string, string> {
  const tags = field.slice(field.indexOf(":") + 1).replace(/\s+/g, "");
  return new Map(
    tags.split(";").map((tag) => [tag.slice(0, tag.indexOf("=")), tag.slice(tag.indexOf("=") + 1)]),
  );
}

describe("DKIM in the Workers runtime", () => {
  it("generates a key pair and signs with the expected tags and folding", async () => {
    const keys = await generateDkimKeyPair();
    const selector = newSelector();
    const signed = await signDkim(MESSAGE, {
      domain: "example.com",
      selector,
      privateKey: keys.privateKey,
      timestamp: 1736847000,
    });
    expect(signed.endsWith(MESSAGE)).toBe(true);

    const field = signatureField(signed);
    expect(field.startsWith("DKIM-Signature: ")).toBe(true);
    for (const line of field.split("\r\n")) expect(line.length).toBeLessThanOrEqual(78);

    const tags = tagsOf(field);
    expect(tags.get("v")).toBe("1");
    expect(tags.get("a")).toBe("rsa-sha256");
    expect(tags.get("c")).toBe("relaxed/relaxed");
    expect(tags.get("d")).toBe("example.com");
    expect(tags.get("s")).toBe(selector);
    expect(tags.get("t")).toBe("1736847000");
    expect(tags.get("h")).toBe("from:to:subject:date:message-id");
    const bodyHash = await crypto.subtle.digest("SHA-256", encoder.encode(canonicalizeBody(BODY)));
    expect(tags.get("bh")).toBe(base64Encode(new Uint8Array(bodyHash)));
    expect(base64Decode(tags.get("b") ?? "")).toHaveLength(256);
  });

  it("produces a signature the public key verifies over the RFC 6376 §3.7 input", async () => {
    const keys = await generateDkimKeyPair();
    const signed = await signDkim(MESSAGE, {
      domain: "example.com",
      selector: "sm0test0",
      privateKey: keys.privateKey,
    });
    const field = signatureField(signed);
    const signature = tagsOf(field).get("b") ?? "";
    const unsignedField = field.slice(0, field.lastIndexOf("b=") + 2);
    const data =
      FIELDS.map((raw) => `${canonicalizeHeader(raw)}\r\n`).join("") + canonicalizeHeader(unsignedField);

    const params = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
    const publicKey = await crypto.subtle.importKey("spki", base64Decode(keys.publicKey), params, false, [
      "verify",
    ]);
    const valid = await crypto.subtle.verify(
      params.name,
      publicKey,
      base64Decode(signature),
      encoder.encode(data),
    );
    expect(valid).toBe(true);
  });
});
