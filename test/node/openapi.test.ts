import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { OPERATION_IDS, operationKey } from "../../src/openapi/operation-ids";

// The app builds in Node too (no Workers-only module is loaded until a request needs a binding),
// which lets a real OpenAPI validator (Ajv-based, so not runnable inside workerd) check the document.
const app = createApp();

type Document = { paths: Record<string, Record<string, { operationId?: string }>> };

async function fetchDocument(path = "/v1/openapi.json") {
  const res = await app.request(`http://localhost${path}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Document;
}

const operationsOf = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );

/** Served, and answering exactly as their documented path does; see the suppression routes. */
const UNDOCUMENTED_ALIASES = [
  "get /v1/emails/suppressions",
  "post /v1/emails/suppressions",
  "delete /v1/emails/suppressions/{email}",
];

describe("the OpenAPI document", () => {
  it.each(["/v1/openapi.json", "/_ops/openapi.json"])(
    "%s is valid OpenAPI 3.1 according to the official JSON schema",
    async (path) => {
      const validator = new Validator();
      const result = await validator.validate(await fetchDocument(path));
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe("3.1");
    },
  );

  it("describes every route the app serves: /v1 in the API's document, the rest in the other", async () => {
    const api = await fetchDocument();
    const site = await fetchDocument("/_ops/openapi.json");
    // Hono's `:id{cmp_...}` (a parameter with a pattern) is documented as `{id}`.
    const served = app.routes
      .filter((route) => route.method !== "ALL")
      .map(
        (route) =>
          `${route.method.toLowerCase()} ${route.path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}")}`,
      );
    const described = (doc: Document) => operationsOf(doc).map(({ path, method }) => `${method} ${path}`);
    expect(Object.keys(api.paths).filter((path) => !path.startsWith("/v1/"))).toEqual([]);
    expect(Object.keys(site.paths).filter((path) => path.startsWith("/v1/"))).toEqual([]);
    expect(served.length).toBeGreaterThan(5);
    expect(described(api).length).toBeGreaterThan(100);
    expect(described(site).length).toBeGreaterThan(50);
    expect(new Set([...described(api), ...described(site), ...UNDOCUMENTED_ALIASES])).toEqual(
      new Set(served),
    );
    expect(served).toEqual(expect.arrayContaining(UNDOCUMENTED_ALIASES));
  });

  it("names every /v1 operation once, from the table, which has no entry without a route", async () => {
    const operations = operationsOf(await fetchDocument());
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(operations.filter(({ operation }) => !operation.operationId)).toEqual([]);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]+$/);
    expect(new Set(ids).size).toBe(ids.length);
    const documented = new Set(operations.map(({ path, method }) => operationKey(method, path)));
    expect(Object.keys(OPERATION_IDS).filter((key) => !documented.has(key))).toEqual([]);
    expect(operationIdOf(operations, "get", "/v1/tickets")).toBe("listTickets");
    expect(operationIdOf(operations, "delete", "/v1/suppressions/{email}")).toBe("deleteSuppression");
  });

  it("names the licence, and tags each operation with a described tag", async () => {
    const doc = (await fetchDocument()) as Document & {
      info: { license?: { name: string } };
      tags: Array<{ name: string; description: string }>;
    };
    expect(doc.info.license?.name).toMatch(/Proprietary/);
    const described = new Set(doc.tags.filter((tag) => tag.description).map((tag) => tag.name));
    for (const { path, operation } of operationsOf(doc)) {
      const tags = (operation as { tags?: string[] }).tags ?? [];
      expect(tags.length, path).toBeGreaterThan(0);
      for (const tag of tags) expect(described, `${path} ${tag}`).toContain(tag);
    }
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

function operationIdOf(operations: ReturnType<typeof operationsOf>, method: string, path: string) {
  return operations.find((op) => op.method === method && op.path === path)?.operation.operationId;
}
