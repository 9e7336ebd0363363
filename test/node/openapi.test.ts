import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";

// The app builds in Node too (no Workers-only module is loaded until a request needs a binding),
// which lets a real OpenAPI validator (Ajv-based, so not runnable inside workerd) check the document.
const app = createApp();

async function fetchDocument() {
  const res = await app.request("http://localhost/v1/openapi.json");
  expect(res.status).toBe(200);
  return (await res.json()) as { paths: Record<string, Record<string, unknown>> };
}

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 according to the official JSON schema", async () => {
    const validator = new Validator();
    const result = await validator.validate(await fetchDocument());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("describes every route the app serves", async () => {
    const doc = await fetchDocument();
    // Hono's `:id{cmp_...}` (a parameter with a pattern) is documented as `{id}`.
    const served = app.routes
      .filter((route) => route.method !== "ALL")
      .map(
        (route) =>
          `${route.method.toLowerCase()} ${route.path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}")}`,
      );
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method} ${path}`),
    );
    expect(served.length).toBeGreaterThan(5);
    expect(new Set(documented)).toEqual(new Set(served));
  });

  it("keeps a route's own error answers beside the shared ones", async () => {
    const doc = (await fetchDocument()) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    const sendEmail = doc.paths["/v1/emails"]?.post?.responses ?? {};
    expect(sendEmail["403"]?.description).toMatch(/permission/);
    expect(sendEmail["403"]?.description).toMatch(/[Ss]ender domain/);
  });
});
