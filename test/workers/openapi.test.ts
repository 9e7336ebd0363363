import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "./helpers";

type Operation = {
  security?: Array<Record<string, string[]>>;
  responses: Record<string, unknown>;
  "x-permission"?: string;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
};

async function document(): Promise<Document> {
  const res = await call("GET", "/v1/openapi.json");
  expect(res.status).toBe(200);
  return res.json();
}

describe("GET /v1/openapi.json", () => {
  it("serves OpenAPI 3.1 without authentication, with the bearer scheme", async () => {
    const doc = await document();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("names each operation's permission and lists its auth errors", async () => {
    const doc = await document();
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );
    expect(operations.length).toBeGreaterThan(5);
    for (const { path, op } of operations) {
      expect(["public", "read", "write", "admin", "operator", "relay"], path).toContain(op["x-permission"]);
      if (path.startsWith("/v1/") && op["x-permission"] !== "public") {
        expect(op.security, path).toEqual([{ bearerAuth: [] }]);
        expect(Object.keys(op.responses), path).toEqual(expect.arrayContaining(["401", "403", "429", "500"]));
      }
    }
    expect(doc.paths["/v1/keys"]?.get?.["x-permission"]).toBe("admin");
    expect(doc.paths["/v1/keys"]?.post?.["x-permission"]).toBe("admin");
    expect(doc.paths["/v1/accounts/{id}"]?.patch?.["x-permission"]).toBe("admin");
    expect(doc.paths["/v1/accounts"]?.get?.["x-permission"]).toBe("read");
  });
});

describe("/docs", () => {
  it("serves Swagger UI from this deployment's own assets", async () => {
    const page = await call("GET", "/docs");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("/docs-assets/swagger-ui-bundle.js");
    expect(html).not.toMatch(/https?:\/\/(?!localhost)/);
    // Static assets are answered before the Worker runs; the test pool calls the Worker directly,
    // so ask the assets binding that holds them.
    const script = await env.ASSETS.fetch("http://localhost/docs-assets/swagger-ui-bundle.js");
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });
});
