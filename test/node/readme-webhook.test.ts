import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

/** The webhook tests run examples/verify-webhook.mjs; this keeps the README showing that same code. */
describe("README webhook verification example", () => {
  it("is the function the tests verify real deliveries with", () => {
    const readme = read("README.md");
    const section = readme.slice(readme.indexOf("### Verifying a webhook"));
    const block = /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    const fn = (text: string) => /export function verifyWebhook[\s\S]*?\n}\n/.exec(text)?.[0];
    expect(fn(block)).toBeDefined();
    expect(fn(block)).toBe(fn(read("examples/verify-webhook.mjs")));
  });
});
