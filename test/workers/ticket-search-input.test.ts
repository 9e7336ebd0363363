import { describe, expect, it } from "vitest";
import { callJson, errorBody } from "./helpers";
import { searchDesk } from "./ticket-search-helpers";

/** Whatever is typed into the box is text to find: results or a 400, never FTS5 syntax. */
describe("GET /v1/tickets?q= with hostile input", () => {
  it("answers 200 or 400 validation_error for anything, never a 500", async () => {
    const { ws, create, message } = await searchDesk();
    const t = await create('Quotes "inside" and NEAR(x y) OR stars*');
    await message(t.id, "subject:refund column filter text ^caret {braces} (parens) AND NOT");
    const inputs = [
      '"unbalanced',
      'unbalanced"',
      '"""',
      '""',
      "NEAR",
      "NEAR(refund parcel)",
      "NEAR/2",
      "*",
      "***",
      "refun**",
      "*fund",
      "subject:refund",
      "text:refund",
      "ticket_id:x",
      "{text}: refund",
      "^refund",
      "refund AND NOT parcel",
      "OR OR OR",
      "-",
      "--refund",
      "-refund",
      "- - -",
      "(((",
      ")",
      "'; DROP TABLE tickets; --",
      "\\\\\\",
      "\u0000nul\u0000",
      "emoji 😀😀😀 text",
      "x".repeat(499),
      Array.from({ length: 40 }, (_, i) => `w${i}xx`).join(" "),
      "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
      "ab",
      "a b c",
      "%_%",
    ];
    for (const q of inputs) {
      const res = await callJson<{ code?: string; data?: unknown[] }>(
        "GET",
        `/v1/tickets?q=${encodeURIComponent(q)}`,
        { token: ws.token },
      );
      expect([200, 400], `${JSON.stringify(q)}: ${JSON.stringify(res.body)}`).toContain(res.status);
      if (res.status === 400) expect(res.body.code, q).toBe("validation_error");
      else expect(Array.isArray(res.body.data), q).toBe(true);
    }
  });

  it("finds FTS5 operators and column filters as the text they are", async () => {
    const { ws, create, message, ids } = await searchDesk();
    const t = await create('Quotes "inside" and NEAR(x y) OR stars*');
    await message(t.id, "subject:refund column filter text ^caret");
    expect(await ids("NEAR(x")).toEqual([t.id]);
    expect(await ids("subject:refund")).toEqual([t.id]);
    expect(await ids('"inside"')).toEqual([t.id]);
    expect(await ids('quotes "inside" and')).toEqual([t.id]);
    expect(await ids("^caret")).toEqual([t.id]);
    void ws;
  });

  it("refuses a q with nothing to look for, or too long, with a 400 naming q", async () => {
    const { ws } = await searchDesk();
    for (const q of ["*", "ab", '""', "-refund", "- -", "x".repeat(10 * 1024)]) {
      const res = await callJson("GET", `/v1/tickets?q=${encodeURIComponent(q)}`, { token: ws.token });
      expect(res.status, q).toBe(400);
      expect(res.body, q).toMatchObject(errorBody("Invalid request", "validation_error"));
      expect(JSON.stringify(res.body), q).toContain("query.q");
    }
  });
});
