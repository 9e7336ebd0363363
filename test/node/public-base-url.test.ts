import { describe, expect, it } from "vitest";
import { publicBaseUrlArgs } from "../../scripts/lib/dev-vars";

/** What `npm start` and the bench tell `wrangler dev` the origin is (the full run is in dev-commands). */
describe("PUBLIC_BASE_URL of a local server", () => {
  it("follows the port it serves on", () => {
    expect(publicBaseUrlArgs(9123, {}, undefined)).toEqual([
      "--var",
      "PUBLIC_BASE_URL:http://127.0.0.1:9123",
    ]);
  });

  it("keeps the user's own: from the environment first, else from .dev.vars (which wrangler reads itself)", () => {
    const env = { PUBLIC_BASE_URL: "https://support.example.com" };
    expect(publicBaseUrlArgs(9123, env, "http://tunnel.test")).toEqual([
      "--var",
      "PUBLIC_BASE_URL:https://support.example.com",
    ]);
    expect(publicBaseUrlArgs(9123, {}, "http://tunnel.test")).toEqual([]);
  });
});
