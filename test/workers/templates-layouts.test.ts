import { describe, expect, it } from "vitest";
import {
  layoutUsersQuery,
  templateAndVersionQueries,
  templatePageQuery,
} from "../../src/features/templates/templates.repo";
import { callJson, db, errorBody, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";
import { createTemplate } from "./templates-helpers";
import { FRAME, publish } from "./templates-layouts-helpers";

type Template = Record<string, unknown> & { id: string; current_version_id: string };

describe("a layout's markup", () => {
  it("holds the content slot exactly once in html and text, written with three braces in html", async () => {
    const ws = await seedWorkspace();
    const none = await createTemplate(ws.token, {
      name: "None",
      type: "layout",
      html: "<p>\n{{{content}}}</p>",
    });
    expect((await publish(ws.token, none)).body).toMatchObject({
      code: "template_invalid",
      errors: [
        {
          field: "html",
          line: 1,
          column: 1,
          message: "a layout's html must hold the content slot {{{@content}}} once: it has none",
        },
        { field: "html", line: 2, column: 1, message: "content is used but not declared in variables" },
      ],
    });

    const twice = await createTemplate(ws.token, {
      name: "Twice",
      type: "layout",
      html: "<p>{{{@content}}}</p>\n<p>{{@content}}</p>",
      text: "no slot here",
    });
    const refused = await publish(ws.token, twice);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      ...errorBody("Template markup is invalid", "template_invalid"),
      errors: [
        {
          field: "html",
          line: 2,
          column: 4,
          message: expect.stringContaining("is written {{{@content}}} (three braces)"),
        },
        {
          field: "html",
          line: 2,
          column: 4,
          message: "the content slot {{{@content}}} must appear once: it is already at line 1, column 4",
        },
        {
          field: "text",
          line: 1,
          column: 1,
          message: expect.stringContaining("a layout's text must hold the content slot"),
        },
      ],
    });

    const template = await createTemplate(ws.token, { name: "Not a layout", html: "<p>{{{@content}}}</p>" });
    expect((await publish(ws.token, template)).body).toMatchObject({
      code: "template_invalid",
      errors: [
        {
          field: "html",
          line: 1,
          column: 4,
          message: expect.stringContaining("only a layout (type layout) holds one"),
        },
      ],
    });

    const good = await createTemplate(ws.token, FRAME);
    expect((await publish(ws.token, good)).status).toBe(200);
    const shown = await callJson<Template>("GET", "/v1/templates/frame", { token: ws.token });
    expect(shown.body).toMatchObject({ id: good, type: "layout", status: "published", subject: null });
    expect(shown.body).not.toHaveProperty("layout_id");
  });

  it("refuses a subject, from, reply_to or layout of its own (400), on create and update", async () => {
    const ws = await seedWorkspace();
    const created = await callJson("POST", "/v1/templates", {
      token: ws.token,
      body: { ...FRAME, subject: "Hi", from: "a@b.test", layout_id: "frame" },
    });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({
      code: "validation_error",
      details: [
        { path: "body.subject", message: expect.any(String) },
        { path: "body.from", message: expect.any(String) },
        { path: "body.layout_id", message: "a layout cannot use a layout" },
      ],
    });
    const id = await createTemplate(ws.token, FRAME);
    const patched = await callJson("PATCH", `/v1/templates/${id}`, {
      token: ws.token,
      body: { reply_to: "x@y.test" },
    });
    expect(patched.status).toBe(400);
    expect(patched.body).toMatchObject({ details: [{ path: "body.reply_to" }] });
    const typed = await callJson("PATCH", `/v1/templates/${id}`, {
      token: ws.token,
      body: { type: "template" },
    });
    expect(typed.status).toBe(400);
  });
});

describe("a template's layout_id", () => {
  it("names a layout of this workspace (422 otherwise), published before the template is", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const foreign = await createTemplate(other.token, { ...FRAME, alias: "theirs" }, true);
    const plain = await createTemplate(ws.token, { name: "Plain", alias: "plain", html: "<p>x</p>" });
    for (const layout_id of ["nowhere", foreign, "theirs", plain]) {
      const refused = await callJson("POST", "/v1/templates", {
        token: ws.token,
        body: { name: "T", html: "<p>x</p>", layout_id },
      });
      expect(refused.status, layout_id).toBe(422);
      expect(refused.body).toMatchObject(errorBody("Template layout is invalid", "template_layout_invalid"));
    }
    const frame = await createTemplate(ws.token, FRAME);
    const id = await createTemplate(ws.token, { name: "T", html: "<p>x</p>", layout_id: "frame" });
    expect((await callJson<Template>("GET", `/v1/templates/${id}`, { token: ws.token })).body.layout_id).toBe(
      frame,
    );

    const early = await publish(ws.token, id);
    expect(early.status).toBe(422);
    expect(early.body).toMatchObject(
      errorBody("Template layout not published", "template_layout_not_published"),
    );
    expect((await publish(ws.token, frame)).status).toBe(200);
    expect((await publish(ws.token, id)).status).toBe(200);
  });

  it("is kept in each version: listed, restored, duplicated, and cleared with null", async () => {
    const ws = await seedWorkspace();
    const frame = await createTemplate(ws.token, FRAME, true);
    const id = await createTemplate(ws.token, { name: "T", html: "<p>x</p>", layout_id: frame }, true);
    const first = (await callJson<Template>("GET", `/v1/templates/${id}`, { token: ws.token })).body;
    await callJson("PATCH", `/v1/templates/${id}`, { token: ws.token, body: { layout_id: null } });
    await publish(ws.token, id);
    const second = (await callJson<Template>("GET", `/v1/templates/${id}`, { token: ws.token })).body;
    expect(second).not.toHaveProperty("layout_id");

    const version = (versionId: string) =>
      callJson("GET", `/v1/templates/${id}/versions/${versionId}`, { token: ws.token });
    expect((await version(first.current_version_id)).body).toMatchObject({
      layout_id: frame,
      status: "published",
    });
    expect((await version(second.current_version_id)).body).toMatchObject({ layout_id: null });

    await callJson("POST", `/v1/templates/${id}/versions/${first.current_version_id}/restore`, {
      token: ws.token,
    });
    expect((await callJson<Template>("GET", `/v1/templates/${id}`, { token: ws.token })).body).toMatchObject({
      layout_id: frame,
      has_unpublished_versions: true,
    });
    const copy = await callJson<{ id: string }>("POST", `/v1/templates/${id}/duplicate`, { token: ws.token });
    expect((await callJson("GET", `/v1/templates/${copy.body.id}`, { token: ws.token })).body).toMatchObject({
      layout_id: frame,
    });
    const layoutCopy = await callJson<{ id: string }>("POST", `/v1/templates/${frame}/duplicate`, {
      token: ws.token,
    });
    expect(
      (await callJson("GET", `/v1/templates/${layoutCopy.body.id}`, { token: ws.token })).body,
    ).toMatchObject({ type: "layout" });
  });
});

describe("removing a layout", () => {
  it("is 409 while a template's published version uses it; drafts naming it then cannot be published", async () => {
    const ws = await seedWorkspace();
    const frame = await createTemplate(ws.token, FRAME, true);
    const id = await createTemplate(ws.token, { name: "Receipt", html: "<p>x</p>", layout_id: frame }, true);
    const refused = await callJson("DELETE", `/v1/templates/${frame}`, { token: ws.token });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      ...errorBody("Layout in use", "layout_in_use"),
      message: expect.stringContaining(`${id} (Receipt)`),
    });
    expect((await callJson("GET", `/v1/templates/${frame}`, { token: ws.token })).status).toBe(200);

    await callJson("PATCH", `/v1/templates/${id}`, { token: ws.token, body: { layout_id: null } });
    await publish(ws.token, id);
    const draft = await createTemplate(ws.token, { name: "Draft", html: "<p>y</p>", layout_id: frame });
    const removed = await callJson("DELETE", `/v1/templates/${frame}`, { token: ws.token });
    expect(removed.body).toEqual({ object: "template", id: frame, deleted: true });
    expect((await callJson("GET", `/v1/templates/${frame}/versions`, { token: ws.token })).status).toBe(404);
    const orphan = await publish(ws.token, draft);
    expect(orphan.status).toBe(422);
    expect(orphan.body).toMatchObject({
      code: "template_layout_invalid",
      message: expect.stringContaining("was removed"),
    });
  });
});

describe("listing and tenancy", () => {
  it("lists templates only unless ?type=layout; another workspace's layout is 404", async () => {
    const ws = await seedWorkspace();
    const frame = await createTemplate(ws.token, FRAME);
    const id = await createTemplate(ws.token, { name: "T", html: "<p>x</p>" });
    const templates = await callJson<{ data: Array<{ id: string }> }>("GET", "/v1/templates", {
      token: ws.token,
    });
    expect(templates.body.data.map((t) => t.id)).toEqual([id]);
    const layouts = await callJson<{ data: Array<{ id: string }> }>("GET", "/v1/templates?type=layout", {
      token: ws.token,
    });
    expect(layouts.body.data.map((t) => t.id)).toEqual([frame]);
    expect((await callJson("GET", "/v1/templates?type=other", { token: ws.token })).status).toBe(400);

    const other = await seedWorkspace();
    for (const [method, path] of [
      ["GET", `/v1/templates/${frame}`],
      ["GET", "/v1/templates/frame"],
      ["POST", `/v1/templates/${frame}/publish`],
      ["POST", `/v1/templates/${frame}/render`],
      ["DELETE", `/v1/templates/${frame}`],
    ] as const) {
      const answer = await callJson(method, path, {
        token: other.token,
        ...(method === "POST" && path.endsWith("render") ? { body: {} } : {}),
      });
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    const theirs = await callJson<{ data: unknown[] }>("GET", "/v1/templates?type=layout", {
      token: other.token,
    });
    expect(theirs.body.data).toEqual([]);
  });

  it("reads through indexes: the layout list, the layout's users, a send's layout read", async () => {
    expectIndexed(
      await planOf(
        templatePageQuery(db(), "acc_x", {
          type: "layout",
          limit: 20,
          after: "tpl_01JD3Z6X8Y9ABCDEFGHJKMNPQR",
        }),
      ),
      "templates",
    );
    expectIndexed(
      await planOf(
        templatePageQuery(db(), "acc_x", {
          type: "layout",
          limit: 20,
          before: "tpl_01JD3Z6X8Y9ABCDEFGHJKMNPQR",
        }),
      ),
      "templates",
    );
    const users = await planOf(layoutUsersQuery(db(), "acc_x", "tpl_01JD3Z6X8Y9ABCDEFGHJKMNPQR"));
    expectIndexed(users, "template_versions");
    expectIndexed(users, "templates");
    for (const which of ["published", { id: "tpv_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }] as const) {
      const [, , layout] = templateAndVersionQueries(db(), "acc_x", "receipt", which);
      const plan = await planOf(layout);
      expectIndexed(plan, "templates");
      expectIndexed(plan, "template_versions");
    }
  });
});
