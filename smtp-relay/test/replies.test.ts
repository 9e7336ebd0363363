import { describe, expect, it } from "vitest";
import type { ApiAnswer } from "../src/api-client";
import { replyForSend, verdictForAuth } from "../src/replies";

const http = (
  status: number,
  body: Record<string, unknown> = {},
  retryAfter: string | null = null,
): ApiAnswer => ({
  kind: "http",
  status,
  body,
  retryAfter,
});

const codeOf = (answer: ApiAnswer) => {
  const reply = replyForSend(answer);
  return `${reply.code} ${reply.message.split(" ")[0]} ${reply.outcome}`;
};

describe("SMTP replies from API answers", () => {
  it("keeps every distinction the API makes", () => {
    expect(codeOf(http(200, { id: "eml_1" }))).toBe("250 2.0.0 accepted");
    expect(replyForSend(http(200, { id: "eml_1" })).message).toBe("2.0.0 Ok: queued as eml_1");
    expect(codeOf(http(400, { message: "no From" }))).toBe("550 5.6.0 rejected");
    expect(codeOf(http(401))).toBe("535 5.7.8 auth_failed");
    expect(codeOf(http(403, { code: "domain_not_verified", domain: "x.test" }))).toBe("550 5.7.1 rejected");
    expect(codeOf(http(413))).toBe("552 5.3.4 rejected");
    expect(codeOf(http(422, { suppressed: ["a@b.co"] }))).toBe("550 5.1.1 rejected");
    expect(codeOf(http(429, { code: "rate_limit_exceeded" }, "12"))).toBe("451 4.7.0 deferred");
    expect(codeOf(http(429, { code: "limit_exceeded", quota: "emails_per_hour" }))).toBe(
      "452 4.3.1 deferred",
    );
    expect(codeOf(http(429, { code: "limit_exceeded", quota: "emails_per_day" }))).toBe("452 4.3.1 deferred");
    expect(codeOf(http(429, { code: "limit_exceeded", quota: "emails_per_month" }))).toBe(
      "554 5.7.0 rejected",
    );
    expect(codeOf(http(429, { code: "limit_exceeded", quota: "recipients_per_email" }))).toBe(
      "554 5.5.3 rejected",
    );
    expect(codeOf(http(500))).toBe("451 4.3.0 deferred");
    expect(codeOf(http(503))).toBe("451 4.3.0 deferred");
    expect(codeOf({ kind: "unreachable", reason: "ECONNREFUSED" })).toBe("451 4.3.0 deferred");
  });

  it("names the retry time of a rate limit and the suppressed addresses", () => {
    expect(replyForSend(http(429, { code: "rate_limit_exceeded" }, "12")).message).toContain("12 seconds");
    expect(replyForSend(http(422, { suppressed: ["a@b.co", "c@d.co"] })).message).toContain("a@b.co, c@d.co");
  });

  it("turns AUTH answers into accept, 535, or the temporary 454", () => {
    expect(verdictForAuth(http(200, { account_id: "acc_1", key_prefix: "sk_abc" })).kind).toBe("accepted");
    expect(verdictForAuth(http(401)).kind).toBe("refused");
    expect(verdictForAuth(http(403)).kind).toBe("refused");
    const limited = verdictForAuth(http(429));
    expect(limited.kind === "unavailable" && limited.reply.code).toBe(454);
    const down = verdictForAuth({ kind: "unreachable", reason: "ECONNREFUSED" });
    expect(down.kind === "unavailable" && down.reply.code).toBe(454);
  });
});
