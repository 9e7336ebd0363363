import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

/** The webhook tests run examples/verify-webhook.mjs; this keeps docs/webhooks.md showing that same code. */
describe("the webhooks guide's verification example", () => {
  it("is the function the tests verify real deliveries with", () => {
    const guide = read("docs/webhooks.md");
    const at = guide.indexOf("## Verifying a webhook");
    expect(at).toBeGreaterThan(-1);
    const block = /```js\n([\s\S]*?)```/.exec(guide.slice(at))?.[1] ?? "";
    const fn = (text: string) => /export function verifyWebhook[\s\S]*?\n}\n/.exec(text)?.[0];
    expect(fn(block)).toBeDefined();
    expect(fn(block)).toBe(fn(read("examples/verify-webhook.mjs")));
  });
});
