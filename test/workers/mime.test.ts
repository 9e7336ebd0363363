import PostalMime, { type Email, type Mailbox } from "postal-mime";
import { describe, expect, it } from "vitest";
import { domainOf, formatAddress, parseAddress } from "../../src/mail/address";
import { buildMime, type MimeMessage, mimeSize } from "../../src/mail/mime";

function message(overrides: Partial<MimeMessage> = {}): MimeMessage {
  return {
    from: { name: "Acme", address: "hello@acme.example" },
    to: [{ address: "ada@example.com" }],
    cc: [],
    replyTo: [],
    subject: "Your receipt",
    text: "Thanks for your order.",
    headers: {},
    attachments: [],
    messageId: "<eml_01JD3Z6X8Y9ABCDEFGHJKMNPQR@acme.example>",
    date: new Date("2025-02-13T10:00:00Z"),
    ...overrides,
  };
}

const parse = (mime: string): Promise<Email> => PostalMime.parse(mime);
const header = (email: Email, key: string) => email.headers.find((h) => h.key === key)?.value;
const headerBlock = (mime: string) => mime.slice(0, mime.indexOf("\r\n\r\n"));
const mailboxes = (list: Email["to"]) => (list ?? []).map((a) => a as Mailbox);
const bytesOf = (content: ArrayBuffer | Uint8Array | string) =>
  typeof content === "string" ? new TextEncoder().encode(content) : new Uint8Array(content);
const randomBytes = (n: number) => crypto.getRandomValues(new Uint8Array(n));

function expectWellFormed(mime: string) {
  expect(mime.endsWith("\r\n")).toBe(true);
  expect(mime.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  expect(mime).toMatch(/^[\t\x20-\x7e\r\n]*$/);
  const lines = mime.split("\r\n");
  for (const line of lines) expect(line.length).toBeLessThanOrEqual(998);
  const bodyStart = lines.indexOf("");
  for (const line of lines.slice(bodyStart)) expect(line.length).toBeLessThanOrEqual(78);
  // Nothing needs SMTP dot-stuffing.
  for (const line of lines) expect(line.startsWith(".")).toBe(false);
}

describe("buildMime structure", () => {
  it("writes a text-only message as one text/plain part", async () => {
    const mime = buildMime(message({ text: "Hello,\nthanks for your order.\n" }));
    expectWellFormed(mime);
    expect(headerBlock(mime)).toMatch(/^Content-Type: text\/plain; charset=utf-8$/m);
    expect(headerBlock(mime)).toMatch(/^Content-Transfer-Encoding: quoted-printable$/m);
    expect(mime).not.toContain("multipart");
    const email = await parse(mime);
    expect(email.text?.trimEnd()).toBe("Hello,\nthanks for your order.");
    expect(email.html).toBeUndefined();
    expect(email.from).toEqual({ name: "Acme", address: "hello@acme.example" });
    expect(mailboxes(email.to)).toEqual([{ name: "", address: "ada@example.com" }]);
    expect(email.messageId).toBe("<eml_01JD3Z6X8Y9ABCDEFGHJKMNPQR@acme.example>");
    expect(email.date).toBe("2025-02-13T10:00:00.000Z");
    expect(header(email, "date")).toBe("Thu, 13 Feb 2025 10:00:00 +0000");
    expect(header(email, "mime-version")).toBe("1.0");
  });

  it("writes an html-only message as one text/html part", async () => {
    const html = "<p>Hi <b>Ada</b> &mdash; 100% = done</p>";
    const mime = buildMime(message({ text: undefined, html }));
    expectWellFormed(mime);
    expect(headerBlock(mime)).toMatch(/^Content-Type: text\/html; charset=utf-8$/m);
    const email = await parse(mime);
    expect(email.html?.trimEnd()).toBe(html);
  });

  it("puts text then html in a multipart/alternative", async () => {
    const mime = buildMime(message({ text: "Plain body", html: "<p>HTML body</p>" }));
    expectWellFormed(mime);
    expect(headerBlock(mime)).toMatch(
      /^Content-Type: multipart\/alternative;\r\n boundary="=_[0-9a-f]{32}"$/m,
    );
    expect(mime.indexOf("text/plain")).toBeLessThan(mime.indexOf("text/html"));
    const email = await parse(mime);
    expect(email.text?.trimEnd()).toBe("Plain body");
    expect(email.html?.trimEnd()).toBe("<p>HTML body</p>");
  });

  it("makes an attachment-only message a mixed part around an empty text part", async () => {
    const content = randomBytes(10);
    const mime = buildMime(
      message({
        text: undefined,
        attachments: [{ filename: "a.bin", contentType: "application/octet-stream", content }],
      }),
    );
    const email = await parse(mime);
    expect(email.attachments).toHaveLength(1);
    expect(bytesOf(email.attachments[0]?.content ?? "")).toEqual(content);
  });

  it("round-trips a binary attachment byte for byte, with its filename and type", async () => {
    const content = randomBytes(3000);
    const mime = buildMime(
      message({
        html: "<p>See attached</p>",
        attachments: [{ filename: "report 2025.pdf", contentType: "application/pdf", content }],
      }),
    );
    expectWellFormed(mime);
    expect(headerBlock(mime)).toMatch(/^Content-Type: multipart\/mixed; boundary=/m);
    expect(mime).toContain('Content-Disposition: attachment; filename="report 2025.pdf"');
    expect(mime).toContain('Content-Type: application/pdf; name="report 2025.pdf"');
    const email = await parse(mime);
    expect(email.text?.trimEnd()).toBe("Thanks for your order.");
    expect(email.html?.trimEnd()).toBe("<p>See attached</p>");
    const [attachment] = email.attachments;
    expect(attachment?.filename).toBe("report 2025.pdf");
    expect(attachment?.mimeType).toBe("application/pdf");
    expect(attachment?.disposition).toBe("attachment");
    expect(bytesOf(attachment?.content ?? "")).toEqual(content);
  });

  it("encodes non-ASCII, quoted and very long filenames with RFC 2231", async () => {
    const names = [
      'Résumé "final".pdf',
      `${"日本語のファイル名".repeat(12)}.txt`,
      `a long plain ascii name that will not fit on one header line ${"x".repeat(40)}.txt`,
      "plain.txt",
    ];
    const mime = buildMime(
      message({
        attachments: names.map((filename) => ({
          filename,
          contentType: "text/plain",
          content: randomBytes(5),
        })),
      }),
    );
    expectWellFormed(mime);
    expect(mime).toContain("filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.pdf");
    expect(mime).toContain("filename*0*=UTF-8''");
    const email = await parse(mime);
    expect(email.attachments.map((a) => a.filename)).toEqual(names);
  });

  it("wraps inline images in multipart/related with their Content-ID", async () => {
    const png = randomBytes(500);
    const pdf = randomBytes(700);
    const mime = buildMime(
      message({
        html: '<img src="cid:logo@acme">',
        attachments: [
          { filename: "logo.png", contentType: "image/png", content: png, contentId: "logo@acme" },
          { filename: "terms.pdf", contentType: "application/pdf", content: pdf },
        ],
      }),
    );
    expectWellFormed(mime);
    expect(headerBlock(mime)).toMatch(/^Content-Type: multipart\/mixed;/m);
    expect(mime).toMatch(/Content-Type: multipart\/related; type="multipart\/alternative";\s+boundary=/);
    expect(mime).toContain("Content-ID: <logo@acme>");
    expect(mime).toContain('Content-Disposition: inline; filename="logo.png"');
    const email = await parse(mime);
    const logo = email.attachments.find((a) => a.filename === "logo.png");
    expect(logo).toMatchObject({ contentId: "<logo@acme>", related: true, disposition: "inline" });
    expect(bytesOf(logo?.content ?? "")).toEqual(png);
    const terms = email.attachments.find((a) => a.filename === "terms.pdf");
    expect(terms?.disposition).toBe("attachment");
    expect(terms?.related).toBeFalsy();
    expect(bytesOf(terms?.content ?? "")).toEqual(pdf);
  });

  it("gives multipart/related the html type when there is no text part", async () => {
    const mime = buildMime(
      message({
        text: undefined,
        html: '<img src="cid:x">',
        attachments: [
          { filename: "x.gif", contentType: "image/gif", content: randomBytes(9), contentId: "<x>" },
        ],
      }),
    );
    expect(headerBlock(mime)).toMatch(/^Content-Type: multipart\/related; type="text\/html";/m);
    expect(mime).toContain("Content-ID: <x>");
  });
});

describe("buildMime headers", () => {
  it("round-trips a non-ASCII subject and display names", async () => {
    const subject = "Ваш заказ №42 подтверждён ✅ — 注文確認のお知らせ, thank you very much indeed 🎉";
    const mime = buildMime(
      message({
        subject,
        from: { name: "Zoë Café", address: "zoe@acme.example" },
        to: [{ name: "山田 太郎", address: "taro@example.jp" }],
        cc: [{ name: "Doe, Jane", address: "jane@example.com" }],
        replyTo: [{ name: "Support (Acme)", address: "support@acme.example" }],
      }),
    );
    expectWellFormed(mime);
    expect(
      headerBlock(mime)
        .split("\r\n")
        .every((line) => line.length <= 78),
    ).toBe(true);
    expect(headerBlock(mime)).toMatch(/^Subject: =\?UTF-8\?B\?/m);
    const email = await parse(mime);
    expect(email.subject).toBe(subject);
    expect(email.from).toEqual({ name: "Zoë Café", address: "zoe@acme.example" });
    expect(mailboxes(email.to)).toEqual([{ name: "山田 太郎", address: "taro@example.jp" }]);
    expect(mailboxes(email.cc)).toEqual([{ name: "Doe, Jane", address: "jane@example.com" }]);
    expect(mailboxes(email.replyTo)).toEqual([{ name: "Support (Acme)", address: "support@acme.example" }]);
  });

  it("folds long ASCII subjects and recipient lists without losing anything", async () => {
    const subject = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    const to = Array.from({ length: 30 }, (_, i) => ({ name: `Person ${i}`, address: `p${i}@example.com` }));
    const mime = buildMime(message({ subject, to }));
    expectWellFormed(mime);
    expect(
      headerBlock(mime)
        .split("\r\n")
        .every((line) => line.length <= 78),
    ).toBe(true);
    const email = await parse(mime);
    expect(email.subject).toBe(subject);
    expect(mailboxes(email.to)).toEqual(to);
  });

  it("omits To and Cc when empty and never writes Bcc", async () => {
    const mime = buildMime(message({ to: [], cc: [] }));
    expect(headerBlock(mime)).not.toMatch(/^(To|Cc|Reply-To):/im);
    expect(mime).not.toMatch(/bcc/i);
    const withCc = buildMime(message({ cc: [{ address: "cc@example.com" }] }));
    expect(headerBlock(withCc)).toMatch(/^Cc: cc@example\.com$/m);
    expect(withCc).not.toMatch(/bcc/i);
  });

  it("writes the standard headers in order, then custom headers", async () => {
    const mime = buildMime(
      message({
        replyTo: [{ address: "reply@acme.example" }],
        headers: {
          "X-Entity-Ref-ID": "ref-123",
          "List-Unsubscribe": "<mailto:unsub@acme.example>, <https://acme.example/u?t=abc&x=?y>",
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          "X-Campaign": "Été 2025",
        },
      }),
    );
    expectWellFormed(mime);
    const names = headerBlock(mime)
      .split("\r\n")
      .filter((line) => !/^[ \t]/.test(line))
      .map((line) => line.slice(0, line.indexOf(":")));
    expect(names).toEqual([
      "From",
      "To",
      "Reply-To",
      "Subject",
      "Date",
      "Message-ID",
      "MIME-Version",
      "X-Entity-Ref-ID",
      "List-Unsubscribe",
      "List-Unsubscribe-Post",
      "X-Campaign",
      "Content-Type",
      "Content-Transfer-Encoding",
    ]);
    const email = await parse(mime);
    expect(header(email, "x-entity-ref-id")).toBe("ref-123");
    expect(header(email, "list-unsubscribe")).toBe(
      "<mailto:unsub@acme.example>, <https://acme.example/u?t=abc&x=?y>",
    );
    expect(header(email, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(header(email, "x-campaign")).toMatch(/^=\?UTF-8\?B\?/);
  });

  it.each([
    ["a CRLF in a value", { "X-Note": "hi\r\nBcc: victim@example.com" }, /line break/],
    ["a bare LF in a value", { "X-Note": "hi\nBcc: victim@example.com" }, /line break/],
    ["a bare CR in a value", { "X-Note": "hi\rBcc: victim@example.com" }, /line break/],
    ["a colon in a name", { "X-Note: y": "z" }, /field name/],
    ["a space in a name", { "X Note": "z" }, /field name/],
    ["a newline in a name", { "X-Note\r\nBcc": "z" }, /field name/],
    ["an empty name", { "": "z" }, /field name/],
    ["a Bcc header", { Bcc: "victim@example.com" }, /not allowed/],
    ["a From override", { from: "ceo@bank.example" }, /not allowed/],
    ["a Content-Type override", { "CONTENT-TYPE": "text/plain" }, /not allowed/],
    ["a DKIM-Signature", { "DKIM-Signature": "v=1" }, /not allowed/],
    ["a Message-ID override", { "Message-Id": "<x@y>" }, /not allowed/],
    ["a duplicate name", { "X-A": "1", "x-a": "2" }, /more than once/],
  ])("refuses custom headers with %s", (_what, headers, error) => {
    expect(() => buildMime(message({ headers }))).toThrow(error);
  });

  it("refuses injection through the subject, addresses, message id and parts", () => {
    expect(() => buildMime(message({ subject: "Hi\r\nBcc: x@example.com" }))).toThrow(/line break/);
    expect(() =>
      buildMime(message({ from: { name: "A\r\nBcc: x@example.com", address: "a@acme.example" } })),
    ).toThrow(/line break/);
    expect(() => buildMime(message({ to: [{ address: "a@example.com>\r\nBcc: x@example.com" }] }))).toThrow(
      /Invalid email address/,
    );
    expect(() => buildMime(message({ messageId: "<a@b>\r\nBcc: x@example.com" }))).toThrow(/Message-ID/);
    expect(() => buildMime(message({ messageId: "no-brackets@acme.example" }))).toThrow(/Message-ID/);
    expect(() => buildMime(message({ date: new Date(Number.NaN) }))).toThrow(/date/);
    const part = { filename: "a", content: randomBytes(1) };
    expect(() =>
      buildMime(message({ attachments: [{ ...part, contentType: "text/plain\r\nBcc: x@y.co" }] })),
    ).toThrow(/content type/);
    expect(() =>
      buildMime(message({ attachments: [{ ...part, contentType: "image/png", contentId: "a>\r\nX: y" }] })),
    ).toThrow(/content id/);
  });
});

describe("buildMime bodies", () => {
  it("keeps awkward text exact through quoted-printable", async () => {
    const text = [
      "trailing spaces   ",
      "tab\tand = sign and =?UTF-8?B?x?=",
      ".a line starting with a dot",
      ".",
      "From the top",
      "x".repeat(500),
      `${"y".repeat(75)}.${"z".repeat(72)}From here`,
      "😀 naïve façade ".repeat(30),
      "",
      "end",
    ].join("\n");
    const mime = buildMime(message({ text }));
    expectWellFormed(mime);
    const email = await parse(mime);
    expect(email.text?.replace(/\r\n/g, "\n").replace(/\n$/, "")).toBe(text);
  });

  it("uses random boundaries", () => {
    const boundary = (mime: string) => /boundary="([^"]+)"/.exec(mime)?.[1];
    const a = buildMime(message({ html: "<p>a</p>" }));
    const b = buildMime(message({ html: "<p>a</p>" }));
    expect(boundary(a)).toBeDefined();
    expect(boundary(a)).not.toBe(boundary(b));
  });

  it("measures the size in bytes", () => {
    const mime = buildMime(message());
    expect(mimeSize(mime)).toBe(mime.length);
    expect(mimeSize("aé€😀")).toBe(new TextEncoder().encode("aé€😀").length);
  });
});

describe("parseAddress", () => {
  it.each([
    ["a@b.co", { address: "a@b.co" }],
    ["  a@b.co  ", { address: "a@b.co" }],
    ["Name <a@b.co>", { name: "Name", address: "a@b.co" }],
    ["Name<a@b.co>", { name: "Name", address: "a@b.co" }],
    ["<a@b.co>", { address: "a@b.co" }],
    ['"Quoted, Name" <a@b.co>', { name: "Quoted, Name", address: "a@b.co" }],
    ['"Say \\"hi\\"" <a@b.co>', { name: 'Say "hi"', address: "a@b.co" }],
    ["Zoë <zoe@Example.COM>", { name: "Zoë", address: "zoe@Example.COM" }],
    ["first.last+tag@sub.example.co.uk", { address: "first.last+tag@sub.example.co.uk" }],
  ])("accepts %s", (text, expected) => {
    expect(parseAddress(text)).toEqual(expected);
  });

  it.each([
    ["no @", "ab.co"],
    ["an empty local part", "@b.co"],
    ["a domain without a dot", "a@localhost"],
    ["a space in the address", "a b@c.co"],
    ["a space in a bracketed address", "Name <a b@c.co>"],
    ["a CRLF", "a@b.co\r\nBcc: x@y.co"],
    ["an LF in the name", "Na\nme <a@b.co>"],
    ["a control character", "a@b.co\u0000"],
    [
      "an over-long address",
      `${"a".repeat(60)}@${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(60)}.${"e".repeat(9)}.co`,
    ],
    ["an over-long local part", `${"a".repeat(65)}@b.co`],
    ["two @", "a@b@c.co"],
    ["a double dot", "a..b@c.co"],
    ["an unclosed bracket", "Name <a@b.co"],
    ["text after the bracket", "Name <a@b.co> x"],
    ["an empty string", ""],
    ["a bad domain label", "a@-b.co"],
  ])("rejects %s", (_what, text) => {
    expect(parseAddress(text)).toBeNull();
  });

  it("lowercases only in domainOf", () => {
    expect(domainOf("Ada@Example.COM")).toBe("example.com");
    expect(domainOf("nope")).toBe("");
  });
});

describe("formatAddress", () => {
  it("leaves plain names unquoted and quotes specials", () => {
    expect(formatAddress({ address: "a@b.co" })).toBe("a@b.co");
    expect(formatAddress({ name: "Ada Lovelace", address: "a@b.co" })).toBe("Ada Lovelace <a@b.co>");
    expect(formatAddress({ name: "Doe, Jane", address: "a@b.co" })).toBe('"Doe, Jane" <a@b.co>');
    expect(formatAddress({ name: "J. R. Smith", address: "a@b.co" })).toBe('"J. R. Smith" <a@b.co>');
    expect(formatAddress({ name: 'Say "hi" \\o/', address: "a@b.co" })).toBe(
      '"Say \\"hi\\" \\\\o/" <a@b.co>',
    );
    expect(formatAddress({ name: "  ", address: "a@b.co" })).toBe("a@b.co");
  });

  it("encodes non-ASCII names as UTF-8 base64 encoded-words", () => {
    expect(formatAddress({ name: "Zoë", address: "a@b.co" })).toBe(
      `=?UTF-8?B?${btoa(String.fromCharCode(...new TextEncoder().encode("Zoë")))}?= <a@b.co>`,
    );
  });

  it("round-trips every form through parseAddress", () => {
    for (const a of [
      { name: "Doe, Jane", address: "a@b.co" },
      { name: 'Say "hi"', address: "a@b.co" },
      { name: "Ada", address: "a@b.co" },
    ]) {
      expect(parseAddress(formatAddress(a))).toEqual(a);
    }
  });

  it("refuses invalid addresses and line breaks in names", () => {
    expect(() => formatAddress({ address: "not an address" })).toThrow(/Invalid email address/);
    expect(() => formatAddress({ name: "A\nB", address: "a@b.co" })).toThrow(/line break/);
  });
});
