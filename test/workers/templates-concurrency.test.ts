import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import {
  publishTemplate,
  type TemplateContext,
  updateTemplate,
} from "../../src/features/templates/templates.service";
import { AppError } from "../../src/lib/errors";
import { callJson, seedWorkspace, shardD1Of } from "./helpers";
import { createTemplate } from "./templates-helpers";

type Version = { id: string; status: "draft" | "published"; html: string };
type Template = {
  current_version_id: string;
  status: string;
  html: string;
  has_unpublished_versions: boolean;
};

const CHECKED = "<p>Hi {{NAME}}</p>";
// A draft may hold a variable it does not declare; publishing it is refused (422 template_invalid),
// so a published version holding it was never checked.
const UNCHECKED = "<p>Hi {{NAME}}, {{SECRET}}</p>";
const DRAFT = { name: "Welcome", subject: "Hi", html: CHECKED, variables: [{ key: "NAME", type: "string" }] };

const publish = (token: string, id: string) =>
  callJson<{ code?: string }>("POST", `/v1/templates/${id}/publish`, { token });
const edit = (token: string, id: string, html: string) =>
  callJson<{ code?: string }>("PATCH", `/v1/templates/${id}`, { token, body: { html } });

/** The template and every version of it, each with its content. */
async function state(token: string, id: string) {
  const template = (await callJson<Template>("GET", `/v1/templates/${id}`, { token })).body;
  const list = (
    await callJson<{ data: Version[]; has_more: boolean }>("GET", `/v1/templates/${id}/versions`, { token })
  ).body;
  expect(list.has_more).toBe(false);
  const versions = await Promise.all(
    list.data.map(
      async (v) => (await callJson<Version>("GET", `/v1/templates/${id}/versions/${v.id}`, { token })).body,
    ),
  );
  // Versions made in one millisecond may list in either order: drafts first, then published.
  versions.sort((a, b) => a.status.localeCompare(b.status));
  return { template, versions };
}

/** What holds whatever the interleaving: nothing unchecked published, the template's pointers coherent. */
function expectCoherent({ template, versions }: Awaited<ReturnType<typeof state>>) {
  for (const v of versions.filter((v) => v.status === "published")) expect(v.html).toBe(CHECKED);
  expect(versions.filter((v) => v.status === "draft").length).toBeLessThanOrEqual(1);
  const current = versions.find((v) => v.id === template.current_version_id);
  expect(current).toBeDefined();
  expect(template.has_unpublished_versions).toBe(current?.status === "draft");
  expect(template.status).toBe(versions.some((v) => v.status === "published") ? "published" : "draft");
}

/**
 * The service's context over the real shard, whose first batch lets `meanwhile` run to the end
 * first: another request committing between the service's read and its write, every time.
 */
function racing(accountId: string, meanwhile: () => Promise<unknown>): TemplateContext {
  const d1 = shardD1Of();
  let pending: (() => Promise<unknown>) | null = meanwhile;
  const hooked = new Proxy(d1, {
    get(target, prop) {
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const run = pending;
          pending = null;
          if (run) await run();
          return target.batch(statements);
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as D1Database;
  return { db: createDb(hooked), accountId, now: Date.now() };
}

const refusal = (run: Promise<unknown>) =>
  run.then(
    () => null,
    (error: unknown) => (error instanceof AppError ? [error.status, error.code] : error),
  );

describe("templates under concurrent publishes and edits", () => {
  it("two publishes of one draft at once publish it once, the other answering 200 or 409", async () => {
    const ws = await seedWorkspace();
    for (let round = 0; round < 3; round++) {
      const id = await createTemplate(ws.token, DRAFT);
      const answers = await Promise.all([publish(ws.token, id), publish(ws.token, id)]);
      for (const a of answers) expect([200, 409]).toContain(a.status);
      expect(answers.some((a) => a.status === 200)).toBe(true);
      for (const a of answers.filter((a) => a.status === 409)) expect(a.body.code).toBe("template_changed");
      const now = await state(ws.token, id);
      expect(now.versions.map((v) => v.status)).toEqual(["published"]);
      expect(now.template.current_version_id).toBe(now.versions[0]?.id);
      expectCoherent(now);
    }
  });

  it("a publish whose draft another publish took meanwhile is a 409, and the draft is published once", async () => {
    const ws = await seedWorkspace();
    const id = await createTemplate(ws.token, DRAFT);
    const ctx = racing(ws.accountId, async () => expect((await publish(ws.token, id)).status).toBe(200));
    expect(await refusal(publishTemplate(ctx, id))).toEqual([409, "template_changed"]);
    const now = await state(ws.token, id);
    expect(now.versions.map((v) => v.status)).toEqual(["published"]);
    expectCoherent(now);
  });

  it("a publish racing an edit never publishes content it did not check", async () => {
    const ws = await seedWorkspace();
    for (let round = 0; round < 3; round++) {
      const id = await createTemplate(ws.token, DRAFT);
      const [published, edited] = await Promise.all([publish(ws.token, id), edit(ws.token, id, UNCHECKED)]);
      expect([200, 409, 422]).toContain(published.status);
      expect([200, 409]).toContain(edited.status);
      const now = await state(ws.token, id);
      expectCoherent(now);
      // Whichever came first, the edit is kept: as the draft, or as a new draft over the published version.
      if (edited.status === 200) expect(now.template.html).toBe(UNCHECKED);
      if (published.status === 200) expect(now.versions.some((v) => v.status === "published")).toBe(true);
    }
  });

  it("a publish whose draft was edited between its check and its write is a 409: the edit stays a draft", async () => {
    const ws = await seedWorkspace();
    const id = await createTemplate(ws.token, DRAFT);
    const ctx = racing(ws.accountId, async () =>
      expect((await edit(ws.token, id, UNCHECKED)).status).toBe(200),
    );
    expect(await refusal(publishTemplate(ctx, id))).toEqual([409, "template_changed"]);
    const now = await state(ws.token, id);
    expect(now.versions.map((v) => [v.status, v.html])).toEqual([["draft", UNCHECKED]]);
    expect(now.template.status).toBe("draft");
    expectCoherent(now);
  });

  it("an edit of a draft published between its read and its write is a 409: the published version is untouched", async () => {
    const ws = await seedWorkspace();
    const id = await createTemplate(ws.token, DRAFT);
    const ctx = racing(ws.accountId, async () => expect((await publish(ws.token, id)).status).toBe(200));
    expect(await refusal(updateTemplate(ctx, id, { html: UNCHECKED }))).toEqual([409, "template_changed"]);
    const now = await state(ws.token, id);
    expect(now.versions.map((v) => [v.status, v.html])).toEqual([["published", CHECKED]]);
    expect(now.template.has_unpublished_versions).toBe(false);
    expectCoherent(now);
  });

  it("two edits of a published version at once make one new draft, never two", async () => {
    const ws = await seedWorkspace();
    const id = await createTemplate(ws.token, DRAFT, true);
    const ctx = racing(ws.accountId, async () =>
      expect((await edit(ws.token, id, "<p>Hello {{NAME}}</p>")).status).toBe(200),
    );
    expect(await refusal(updateTemplate(ctx, id, { html: UNCHECKED }))).toEqual([409, "template_changed"]);
    const now = await state(ws.token, id);
    expect(now.versions.map((v) => [v.status, v.html])).toEqual([
      ["draft", "<p>Hello {{NAME}}</p>"],
      ["published", CHECKED],
    ]);
    expectCoherent(now);
  });
});
