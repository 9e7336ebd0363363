import { dkimVerify } from "mailauth/lib/dkim/verify.js";
import { beforeAll, describe, expect, it } from "vitest";
import { base64Decode } from "../../src/lib/crypto";
import { canonicalizeBody, canonicalizeHeader } from "../../src/mail/dkim/canonicalize";
import { dkimRecordValue, generateDkimKeyPair, newSelector } from "../../src/mail/dkim/keys";
import { signDkim } from "../../src/mail/dkim/sign";

const DOMAIN = "mail.example.com";
const SELECTOR = newSelector();

/** Real TXT answers come as 255-byte character strings; mailauth joins them, as resolvers do. */
function resolverFor(publicKey: string) {
  return async (name: string, rrtype: string): Promise<string[][]> => {
    if (rrtype !== "TXT" || name !== `${SELECTOR}._domainkey.${DOMAIN}`) {
      throw Object.assign(new Error(`no ${rrtype} record for ${name}`), { code: "ENOTFOUND" });
    }
    return [dkimRecordValue(publicKey).match(/.{1,255}/g) ?? []];
  };
}

const HEADERS = [
  "From: Support Team <support@mail.example.com>",
  "To: Ada Lovelace <ada@example.net>",
  "Subject: Your ticket #42 has an update,",
  "\tfolded onto a second line  with  extra   spaces",
  "Date: Tue, 14 Jan 2025 09:30:00 +0000",
  "Message-ID: <42.1736847000@mail.example.com>",
  "MIME-Version: 1.0",
  "Content-Type: text/plain; charset=utf-8",
  "X-Trace:  not signed",
];
const BODY = [
  "Hello Ada,  ",
  "",
  "Your\tticket    has a new reply.\t",
  "  Indented line with trailing tab\t",
  "Thanks -- the team",
  "",
  "",
  "",
].join("\r\n");
const MESSAGE = `${HEADERS.join("\r\n")}\r\n\r\n${BODY}`;

let keys: { privateKey: string; publicKey: string };
beforeAll(async () => {
  keys = await generateDkimKeyPair();
});

/** The tags of the DKIM-Signature field that `signDkim` put first, with folding whitespace removed. */
function signatureTags(signed: string): Map<string, string> {
  const field = signed.split(/\r\n(?![ \t])/)[0] ?? "";
  const tags = field.slice(field.indexOf(":") + 1).replace(/\s+/g, "");
  return new Map(
    tags.split(";").map((tag) => [tag.slice(0, tag.indexOf("=")), tag.slice(tag.indexOf("=") + 1)]),
  );
}

async function verify(message: string) {
  const { results } = await dkimVerify(message, { resolver: resolverFor(keys.publicKey), strict: true });
  expect(results).toHaveLength(1);
  return results[0];
}

function sign(message: string, extra: { headers?: string[] } = {}) {
  return signDkim(message, { domain: DOMAIN, selector: SELECTOR, privateKey: keys.privateKey, ...extra });
}

describe("signDkim verified by mailauth", () => {
  it("passes for a realistic message with folded headers, odd whitespace and trailing blank lines", async () => {
    const signed = await sign(MESSAGE);
    expect(signed.endsWith(MESSAGE)).toBe(true);
    const result = await verify(signed);
    expect(result?.status.result).toBe("pass");
    expect(result?.signingDomain).toBe(DOMAIN);
    expect(result?.selector).toBe(SELECTOR);
    expect(signatureTags(signed).get("h")).toBe("from:to:subject:date:message-id:mime-version:content-type");
  });

  it("fails when one body character changes", async () => {
    const signed = await sign(MESSAGE);
    const result = await verify(signed.replace("new reply", "new replY"));
    expect(result?.status.result).toBe("fail");
    expect(result?.status.comment).toBe("body hash did not verify");
  });

  it("fails when the Subject changes", async () => {
    const signed = await sign(MESSAGE);
    const result = await verify(signed.replace("Your ticket #42", "Your ticket #43"));
    expect(result?.status.result).toBe("fail");
    expect(result?.status.comment).toBe("bad signature");
  });

  it("still passes after whitespace-only changes that relaxed canonicalization ignores", async () => {
    const signed = await sign(MESSAGE);
    const reflowed = signed
      .replace("Subject: Your", "Subject:    Your")
      .replace("Hello Ada,  ", "Hello Ada,");
    expect((await verify(`${reflowed}\r\n\r\n`))?.status.result).toBe("pass");
  });

  it("passes for an empty body", async () => {
    const message = `${HEADERS.slice(0, 2).join("\r\n")}\r\nSubject: empty\r\n\r\n`;
    expect((await verify(await sign(message)))?.status.result).toBe("pass");
  });

  it("signs every occurrence of a repeated field from the bottom up, so reordering them fails", async () => {
    const message = `${HEADERS.join("\r\n")}\r\nX-Tag: first\r\nX-Tag: second\r\n\r\n${BODY}`;
    const signed = await sign(message, { headers: ["From", "X-Tag"] });
    expect((await verify(signed))?.status.result).toBe("pass");
    expect(signatureTags(signed).get("h")).toBe("from:x-tag:x-tag");
    const swapped = signed.replace("X-Tag: first\r\nX-Tag: second", "X-Tag: second\r\nX-Tag: first");
    expect((await verify(swapped))?.status.result).toBe("fail");
  });

  it("refuses a message without a From field", async () => {
    await expect(sign("To: ada@example.net\r\n\r\nHi\r\n")).rejects.toThrow(/From/);
  });
});

describe("relaxed canonicalization", () => {
  it("matches the RFC 6376 §3.4.5 example", () => {
    expect(canonicalizeHeader("A: X")).toBe("a:X");
    expect(canonicalizeHeader("B : Y\t\r\n\tZ  ")).toBe("b:Y Z");
    expect(canonicalizeBody(" C \r\nD \t E\r\n\r\n\r\n")).toBe(" C\r\nD E\r\n");
  });

  it("keeps an empty body empty and ends a non-empty one with CRLF", () => {
    expect(canonicalizeBody("")).toBe("");
    expect(canonicalizeBody("\r\n \t\r\n")).toBe("");
    expect(canonicalizeBody("no newline")).toBe("no newline\r\n");
  });
});

describe("DKIM keys", () => {
  it("publishes the SPKI public key as an RSA DKIM1 record", async () => {
    expect(dkimRecordValue(keys.publicKey)).toBe(`v=DKIM1; k=rsa; p=${keys.publicKey}`);
    expect(keys.publicKey).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const params = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
    const key = await crypto.subtle.importKey("spki", base64Decode(keys.publicKey), params, true, ["verify"]);
    expect(key.type).toBe("public");
    expect((key.algorithm as { modulusLength: number }).modulusLength).toBe(2048);
    const priv = await crypto.subtle.importKey("pkcs8", base64Decode(keys.privateKey), params, false, [
      "sign",
    ]);
    expect(priv.type).toBe("private");
  });

  it("makes selectors that are short lowercase DNS labels", () => {
    const selectors = Array.from({ length: 50 }, newSelector);
    for (const selector of selectors) expect(selector).toMatch(/^sm[0-9a-z]{6}$/);
    expect(new Set(selectors).size).toBe(50);
  });
});
