import { describe, expect, it } from "vitest";
import {
  templateAndVersionQueries,
  templatePageQuery,
  templateWithVersion,
  versionPageQuery,
} from "../../src/features/templates/templates.repo";
import { callJson, db, errorBody, seedWorkspace, shardD1Of } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";
import { createTemplate } from "./templates-helpers";

type Template = Record<string, unknown> & { id: string; current_version_id: string };

describe("publishing a template", () => {
  it("refuses markup that does not parse, tags other than variables and undeclared variables, with line and column", async () => {
    const ws = await seedWorkspace();
    const id = await createTemplate(ws.token, {
      name: "Broken",
      subject: "Hi {{NAME}",
      html: "<p>\n  {{#ITEMS}}x{{/ITEMS}} {{> footer}}\n  {{UNKNOWN}}</p>",
      variables: [{ key: "NAME", type: "string" }],
    });
    const { status, body } = await callJson("POST", `/v1/templates/${id}/publish`, { token: ws.token });
    expect(status).toBe(422);
    expect(body).toMatchObject({
      ...errorBody("Template markup is invalid", "template_invalid"),
      errors: [
        { field: "subject", line: 1, column: 4, message: "Unclosed tag" },
        { field: "html", line: 2, column: 3, message: expect.stringContaining("a section is not allowed") },
        { field: "html", line: 2, column: 25, message: expect.stringContaining("a partial is not allowed") },
        { field: "html", line: 3, column: 3, message: "UNKNOWN is used but not declared in variables" },
      ],
    });
    const still = await callJson<Template>("GET", `/v1/templates/${id}`, { token: ws.token });
    expect(still.body).toMatchObject({ status: "draft", published_at: null, has_unpublished_versions: true });
  });

  it("keeps every published version, lists them, and restores one as the draft", async () => {
    const ws = await seedWorkspace();
    const id = await createTemplate(ws.token, { name: "Welcome", subject: "One", html: "<p>1</p>" }, true);
    const first = (await callJson<Template>("GET", `/v1/templates/${id}`, { token: ws.token })).body;
    await callJson("PATCH", `/v1/templates/${id}`, {
      token: ws.token,
      body: { subject: "Two", html: "<p>2</p>" },
    });
    await callJson("POST", `/v1/templates/${id}/publish`, { token: ws.token });
    const second = (await callJson<Template>("GET", `/v1/templates/${id}`, { token: ws.token })).body;
    expect(second.current_version_id).not.toBe(first.current_version_id);

    const versions = await callJson<{ data: Array<Record<string, unknown>>; has_more: boolean }>(
      "GET",
      `/v1/templates/${id}/versions`,
      { token: ws.token },
    );
    expect(versions.body).toEqual({
      object: "list",
      has_more: false,
      data: [
        expect.objectContaining({ id: second.current_version_id, status: "published", subject: "Two" }),
        expect.objectContaining({ id: first.current_version_id, status: "published", subject: "One" }),
      ],
    });
    const old = await callJson("GET", `/v1/templates/${id}/versions/${first.current_version_id}`, {
      token: ws.token,
    });
    expect(old.body).toMatchObject({ object: "template_version", html: "<p>1</p>", template_id: id });

    const restored = await callJson(
      "POST",
      `/v1/templates/${id}/versions/${first.current_version_id}/restore`,
      {
        token: ws.token,
      },
    );
    expect(restored).toMatchObject({ status: 200, body: { object: "template", id } });
    const draft = (await callJson<Template>("GET", `/v1/templates/${id}`, { token: ws.token })).body;
    expect(draft).toMatchObject({ subject: "One", html: "<p>1</p>", has_unpublished_versions: true });
    expect([first.current_version_id, second.current_version_id]).not.toContain(draft.current_version_id);
    // The published versions are untouched: the restored content is a new draft.
    const again = await callJson("GET", `/v1/templates/${id}/versions/${second.current_version_id}`, {
      token: ws.token,
    });
    expect(again.body).toMatchObject({ subject: "Two", status: "published" });
  });

  it("makes no draft of a published template for a PATCH that changes nothing", async () => {
    const ws = await seedWorkspace();
    const id = await createTemplate(ws.token, { name: "Same", html: "<p>x</p>" }, true);
    const before = (await callJson<Template>("GET", `/v1/templates/${id}`, { token: ws.token })).body;
    const patched = await callJson("PATCH", `/v1/templates/${id}`, { token: ws.token, body: {} });
    expect(patched).toMatchObject({ status: 200, body: { object: "template", id } });
    const after = (await callJson<Template>("GET", `/v1/templates/${id}`, { token: ws.token })).body;
    expect(after).toMatchObject({
      current_version_id: before.current_version_id,
      has_unpublished_versions: false,
    });
  });

  it("answers 404 for another workspace's template and its versions", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const id = await createTemplate(ws.token, { name: "Mine", html: "<p>x</p>" }, true);
    const version = (await callJson<Template>("GET", `/v1/templates/${id}`, { token: ws.token })).body
      .current_version_id;
    for (const [method, path] of [
      ["GET", `/v1/templates/${id}`],
      ["PATCH", `/v1/templates/${id}`],
      ["POST", `/v1/templates/${id}/publish`],
      ["DELETE", `/v1/templates/${id}`],
      ["GET", `/v1/templates/${id}/versions/${version}`],
      ["POST", `/v1/templates/${id}/render`],
    ] as const) {
      const body = method === "PATCH" || path.endsWith("render") ? { name: "x" } : undefined;
      const res = await callJson(method, path, {
        token: other.token,
        body: path.endsWith("render") ? {} : body,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    // A version of one template named under another of the same workspace is not found either.
    const second = await createTemplate(ws.token, { name: "Second", html: "<p>y</p>" });
    const crossed = await callJson("GET", `/v1/templates/${second}/versions/${version}`, { token: ws.token });
    expect(crossed.status).toBe(404);
  });

  it("refuses bad input with a 400: a fallback of the wrong type, a repeated key, an alias like an id", async () => {
    const ws = await seedWorkspace();
    for (const body of [
      { name: "x", html: "<p/>", variables: [{ key: "N", type: "number", fallback_value: "one" }] },
      {
        name: "x",
        html: "<p/>",
        variables: [
          { key: "N", type: "string" },
          { key: "N", type: "string" },
        ],
      },
      { name: "x", html: "<p/>", variables: [{ key: "a.b", type: "string" }] },
      { name: "x", html: "<p/>", alias: "tpl_01JD3Z6X8Y9ABCDEFGHJKMNPQR" },
      { name: "x", html: "x".repeat(1_000_001) },
      { name: "x", html: "" },
    ]) {
      const res = await callJson("POST", "/v1/templates", { token: ws.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(400);
    }
  });
});

describe("a template's size", () => {
  it("stores the largest version it accepts in under 2 MB, D1's row", async () => {
    const ws = await seedWorkspace();
    const variables = Array.from({ length: 50 }, (_, i) => ({
      key: `K${i}`,
      type: "string",
      fallback_value: "é".repeat(2_000),
    }));
    // As JSON each is the limit less its two quotes: 999,998 and 499,998 bytes of content.
    const body = { name: "Big", html: "h".repeat(999_998), text: "t".repeat(499_998), variables };
    const id = await createTemplate(ws.token, body, true);
    const row = await shardD1Of()
      .prepare(
        `SELECT sum(length(CAST(html AS BLOB)) + length(CAST(text AS BLOB)) + length(CAST(variables AS BLOB))
           + length(CAST(name AS BLOB)) + 200) AS bytes FROM template_versions WHERE template_id = ?`,
      )
      .bind(id)
      .first<{ bytes: number }>();
    expect(row?.bytes).toBeLessThan(2_000_000);
    const over = await callJson("PATCH", `/v1/templates/${id}`, {
      token: ws.token,
      body: { text: "t".repeat(499_999) },
    });
    expect(over.status).toBe(400);
  });
});

describe("rendering a template", () => {
  it("fills in any version with values and fallbacks, lists missing and unused keys", async () => {
    const ws = await seedWorkspace();
    const id = await createTemplate(
      ws.token,
      {
        name: "Receipt",
        subject: "Order {{ORDER}} for {{NAME}}",
        html: "<p>{{NAME}} & {{{NOTE}}} {{ORDER}}</p>",
        text: "{{NAME}}: {{NOTE}}",
        variables: [
          { key: "NAME", type: "string", fallback_value: "friend" },
          { key: "ORDER", type: "number" },
          { key: "NOTE", type: "string" },
        ],
      },
      true,
    );
    const published = (await callJson<Template>("GET", `/v1/templates/${id}`, { token: ws.token })).body;
    const rendered = await callJson("POST", `/v1/templates/${id}/render`, {
      token: ws.token,
      body: { variables: { NOTE: "<b>hi</b>", EXTRA: "x" } },
    });
    expect(rendered.body).toEqual({
      object: "rendered_template",
      template_id: id,
      version_id: published.current_version_id,
      layout: null,
      subject: "Order {{ORDER}} for friend",
      html: "<p>friend & <b>hi</b> {{ORDER}}</p>",
      text: "friend: <b>hi</b>",
      missing: ["ORDER"],
      unused: ["EXTRA"],
    });

    await callJson("PATCH", `/v1/templates/${id}`, {
      token: ws.token,
      body: { html: "<p>{{NAME}} {{LATER}}</p>" },
    });
    const draft = await callJson("POST", `/v1/templates/${id}/render`, {
      token: ws.token,
      body: { variables: { NAME: "<Ada>", ORDER: 7, NOTE: "n" } },
    });
    expect(draft.body).toMatchObject({
      html: "<p>&lt;Ada&gt; {{LATER}}</p>",
      missing: ["LATER"],
      unused: [],
    });
    const old = await callJson("POST", `/v1/templates/${id}/render`, {
      token: ws.token,
      body: { version_id: published.current_version_id, variables: { ORDER: 7, NOTE: "n" } },
    });
    expect(old.body).toMatchObject({
      html: "<p>friend & n 7</p>",
      subject: "Order 7 for friend",
      missing: [],
    });

    const mistyped = await callJson("POST", `/v1/templates/${id}/render`, {
      token: ws.token,
      body: { variables: { ORDER: "seven", NAME: 3 } },
    });
    expect(mistyped.status).toBe(422);
    expect(mistyped.body).toMatchObject({
      code: "template_variables_invalid",
      details: [
        { path: "body.variables.NAME", message: "must be a string" },
        { path: "body.variables.ORDER", message: "must be a number" },
      ],
    });
  });
});

describe("template queries", () => {
  it("reads lists and lookups through indexes", async () => {
    const page = { limit: 20, after: "tpl_01JD3Z6X8Y9ABCDEFGHJKMNPQR" };
    expectIndexed(await planOf(templatePageQuery(db(), "acc_x", page)), "templates");
    expectIndexed(
      await planOf(templatePageQuery(db(), "acc_x", { limit: 20, before: page.after })),
      "templates",
    );
    expectIndexed(await planOf(versionPageQuery(db(), "acc_x", "tpl_x", { limit: 20 })), "template_versions");
    for (const ref of ["tpl_01JD3Z6X8Y9ABCDEFGHJKMNPQR", "welcome"]) {
      const plan = await planOf(templateWithVersion(db(), "acc_x", ref, "published"));
      expectIndexed(plan, "templates");
      expectIndexed(plan, "template_versions");
      for (const which of ["published", { id: "tpv_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }] as const) {
        const [template, version] = templateAndVersionQueries(db(), "acc_x", ref, which);
        expectIndexed(await planOf(template), "templates");
        const versionPlan = await planOf(version);
        expectIndexed(versionPlan, "templates");
        expectIndexed(versionPlan, "template_versions");
      }
    }
  });
});
