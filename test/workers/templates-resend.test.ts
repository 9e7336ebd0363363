import { Resend } from "resend";
import { describe, expect, it } from "vitest";
import { callJson, seedWorkspace, sendingWorkspace } from "./helpers";
import { RESEND_BASE_URL, routeFetchToWorker } from "./templates-helpers";

routeFetchToWorker();

const resendFor = (token: string) => new Resend(token, { baseUrl: RESEND_BASE_URL } as never);

describe("Resend's SDK, every templates method, against the Worker", () => {
  it("creates and publishes, gets by id and alias, lists, updates, duplicates, publishes and removes", async () => {
    const ws = await seedWorkspace();
    const resend = resendFor(ws.token);

    const created = await resend.templates
      .create({
        name: "Order receipt",
        alias: "order-receipt",
        subject: "Order {{ORDER_ID}}",
        html: "<p>Hi {{NAME}}, order {{ORDER_ID}} costs {{{PRICE}}}.</p>",
        text: "Hi {{NAME}}",
        from: "Acme <orders@acme.test>",
        replyTo: ["help@acme.test"],
        variables: [
          { key: "NAME", type: "string", fallbackValue: "there" },
          { key: "ORDER_ID", type: "number" },
          { key: "PRICE", type: "string", fallbackValue: null },
        ],
      })
      .publish();
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ object: "template", id: expect.stringMatching(/^tpl_/) });
    const id = created.data?.id as string;

    const got = await resend.templates.get(id);
    expect(got.error).toBeNull();
    expect(got.data).toEqual({
      object: "template",
      id,
      current_version_id: expect.stringMatching(/^tpv_/),
      alias: "order-receipt",
      name: "Order receipt",
      created_at: expect.any(String),
      updated_at: expect.any(String),
      status: "published",
      published_at: expect.any(String),
      from: "Acme <orders@acme.test>",
      subject: "Order {{ORDER_ID}}",
      reply_to: ["help@acme.test"],
      html: "<p>Hi {{NAME}}, order {{ORDER_ID}} costs {{{PRICE}}}.</p>",
      text: "Hi {{NAME}}",
      variables: [
        {
          key: "NAME",
          type: "string",
          fallback_value: "there",
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
        {
          key: "ORDER_ID",
          type: "number",
          fallback_value: null,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
        {
          key: "PRICE",
          type: "string",
          fallback_value: null,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      ],
      has_unpublished_versions: false,
    });
    const byAlias = await resend.templates.get("order-receipt");
    expect(byAlias.data).toEqual(got.data);
    const published = got.data?.current_version_id;

    const updated = await resend.templates.update(id, { subject: "Your order {{ORDER_ID}}" });
    expect(updated).toMatchObject({ data: { object: "template", id }, error: null });
    const draft = await resend.templates.get(id);
    expect(draft.data).toMatchObject({
      status: "published",
      subject: "Your order {{ORDER_ID}}",
      has_unpublished_versions: true,
      html: got.data?.html,
    });
    expect(draft.data?.current_version_id).not.toBe(published);

    const copy = await resend.templates.duplicate(id);
    expect(copy.data).toEqual({ object: "template", id: expect.stringMatching(/^tpl_/) });
    const copied = await resend.templates.get(copy.data?.id as string);
    expect(copied.data).toMatchObject({
      name: "Order receipt (copy)",
      alias: null,
      status: "draft",
      subject: "Your order {{ORDER_ID}}",
      has_unpublished_versions: true,
    });
    const publishedCopy = await resend.templates.duplicate(id).publish();
    expect(publishedCopy.data).toEqual({ object: "template", id: expect.stringMatching(/^tpl_/) });

    const republished = await resend.templates.publish(id);
    expect(republished).toMatchObject({ data: { object: "template", id }, error: null });
    expect((await resend.templates.get(id)).data).toMatchObject({ has_unpublished_versions: false });

    const firstPage = await resend.templates.list({ limit: 2 });
    expect(firstPage.error).toBeNull();
    expect(firstPage.data).toEqual({
      object: "list",
      has_more: true,
      data: [
        expect.objectContaining({ id: publishedCopy.data?.id, status: "published" }),
        expect.objectContaining({ id: copy.data?.id, status: "draft", alias: null }),
      ],
    });
    const rest = await resend.templates.list({ limit: 2, after: copy.data?.id as string });
    expect(rest.data).toEqual({
      object: "list",
      has_more: false,
      data: [
        {
          id,
          name: "Order receipt",
          status: "published",
          alias: "order-receipt",
          published_at: expect.any(String),
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      ],
    });
    const back = await resend.templates.list({ limit: 1, before: id });
    expect(back.data?.data.map((t) => t.id)).toEqual([copy.data?.id]);

    const removed = await resend.templates.remove("order-receipt");
    expect(removed).toMatchObject({ data: { object: "template", id, deleted: true }, error: null });
    const gone = await resend.templates.get(id);
    expect(gone.data).toBeNull();
    expect(gone.error).toMatchObject({ code: "not_found" });
  });

  it("sends with `template: { id, variables }` through emails.send and batch.send", async () => {
    const ws = await sendingWorkspace("tpl-resend.test");
    const resend = resendFor(ws.token);
    const created = await resend.templates
      .create({
        name: "Welcome",
        alias: "welcome",
        from: "Acme <hi@tpl-resend.test>",
        subject: "Welcome, {{NAME}}",
        html: "<p>Welcome, {{NAME}}</p>",
        variables: [{ key: "NAME", type: "string", fallbackValue: "friend" }],
      })
      .publish();
    expect(created.error).toBeNull();

    const one = await resend.emails.send({
      to: "ada@example.com",
      template: { id: "welcome", variables: { NAME: "Ada" } },
    });
    expect(one.error).toBeNull();
    const email = await callJson<Record<string, unknown>>("GET", `/v1/emails/${one.data?.id}`, {
      token: ws.token,
    });
    expect(email.body).toMatchObject({
      subject: "Welcome, Ada",
      html: "<p>Welcome, Ada</p>",
      template: { id: created.data?.id },
    });

    const many = await resend.batch.send([
      { to: "bob@example.com", template: { id: "welcome" } },
      { to: "cy@example.com", template: { id: created.data?.id as string, variables: { NAME: "Cy" } } },
    ]);
    expect(many.error).toBeNull();
    expect(many.data?.data).toHaveLength(2);

    const refused = await resend.emails.send({
      to: "ada@example.com",
      template: { id: "welcome", variables: { AGE: 3 } },
    });
    expect(refused.error).toMatchObject({ code: "template_variables_invalid" });
  });

  it("answers Resend's SDK its errors: a taken alias, another workspace's template", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const resend = resendFor(ws.token);
    const first = await resend.templates.create({ name: "A", alias: "welcome", html: "<p>A</p>" });
    expect(first.error).toBeNull();
    const again = await resend.templates.create({ name: "B", alias: "welcome", html: "<p>B</p>" });
    expect(again.error).toMatchObject({ code: "alias_taken" });
    const theirs = await resendFor(other.token).templates.get(first.data?.id as string);
    expect(theirs.error).toMatchObject({ code: "not_found" });
    const theirAlias = await resendFor(other.token).templates.create({
      name: "C",
      alias: "welcome",
      html: "<p>C</p>",
    });
    expect(theirAlias.error).toBeNull();
  });
});
