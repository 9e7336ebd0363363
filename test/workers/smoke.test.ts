import { exports } from "cloudflare:workers";
import { expect, it } from "vitest";

it("answers /health", async () => {
  const res = await exports.default.fetch("http://localhost/health");
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: "ok" });
});
