import { describe, expect, it } from "vitest";
import { draftOf, readDraft, stepField } from "../../src/dashboard/automations/editor-draft";
import { automationInput } from "../../src/dashboard/automations/editor-input";
import { applyOp, readOp } from "../../src/dashboard/automations/editor-ops";
import { AppError } from "../../src/lib/errors";

/** The editor's form as a browser posts it: the name, the trigger and each step's fields by index. */
function form(steps: Array<Record<string, string>>, extra: Record<string, string> = {}) {
  const fields: Record<string, string> = { _csrf: "x", name: "Onboarding", trigger_type: "api", ...extra };
  steps.forEach((step, index) => {
    for (const [name, value] of Object.entries(step)) fields[`steps.${index}.${name}`] = value;
  });
  return fields;
}

const webhook = {
  id: "stp_hook",
  type: "webhook",
  url: " https://example.com/hook ",
  method: "PUT",
  headers: "X-Team: growth\r\n\r\nAuthorization: Bearer a:b",
  payload: '{"hello": "world"}',
  // Another type's field left in the form (the browser posts every field): ignored.
  duration: "3d",
};

describe("dashboard automations: the editor's form", () => {
  it("reads every step type into the API's body, keeping the ids given", () => {
    const draft = readDraft(
      form(
        [
          {
            id: "stp_mail",
            type: "send_email",
            from: "Acme <a@acme.test>",
            subject: "Hi",
            html: "<p>Hi</p>",
            text: "",
          },
          { id: "", type: "wait", duration: " 3d " },
          webhook,
          { id: "stp_add", type: "add_to_group", contact_group_id: "grp_1" },
          { id: "stp_rm", type: "remove_from_group", contact_group_id: "grp_2" },
          { id: "stp_meta", type: "update_customer", metadata: '{"plan": "pro", "old": null}' },
        ],
        {
          trigger_type: "group_joined",
          trigger_group_id: "grp_1",
          trigger_inbox_id: "inb_x",
          allow_reentry: "on",
        },
      ),
    );
    expect(automationInput(draft)).toEqual({
      name: "Onboarding",
      trigger: { type: "group_joined", contact_group_id: "grp_1" },
      allow_reentry: true,
      steps: [
        { id: "stp_mail", type: "send_email", from: "Acme <a@acme.test>", subject: "Hi", html: "<p>Hi</p>" },
        { type: "wait", duration: "3d" },
        {
          id: "stp_hook",
          type: "webhook",
          url: "https://example.com/hook",
          method: "PUT",
          headers: { "X-Team": "growth", Authorization: "Bearer a:b" },
          payload: { hello: "world" },
        },
        { id: "stp_add", type: "add_to_group", contact_group_id: "grp_1" },
        { id: "stp_rm", type: "remove_from_group", contact_group_id: "grp_2" },
        { id: "stp_meta", type: "update_customer", metadata: { plan: "pro", old: null } },
      ],
    });
  });

  it("orders steps by their index, drops unknown types, and reads the ticket trigger", () => {
    const fields = form([], { trigger_type: "ticket_resolved", trigger_inbox_id: "inb_1" });
    fields[stepField(10, "type")] = "wait";
    fields[stepField(10, "duration")] = "2h";
    fields[stepField(2, "type")] = "wait";
    fields[stepField(2, "duration")] = "1m";
    fields[stepField(5, "type")] = "launch_rocket";
    const input = automationInput(readDraft(fields));
    expect(input.trigger).toEqual({ type: "ticket_resolved", inbox_id: "inb_1" });
    expect(input.allow_reentry).toBe(false);
    expect(input.steps).toEqual([
      { type: "wait", duration: "1m" },
      { type: "wait", duration: "2h" },
    ]);
  });

  it("refuses unreadable headers and JSON with the API's 400 and details paths", () => {
    const draft = readDraft(
      form([
        { ...webhook, headers: "no colon here", payload: "[1, 2]" },
        { type: "update_customer", metadata: "{not json" },
      ]),
    );
    let error: unknown;
    try {
      automationInput(draft);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).extras.details).toEqual([
      { path: "body.steps.0.payload", message: "must be a JSON object" },
      { path: "body.steps.0.headers", message: "each line must be `Name: value`" },
      { path: "body.steps.1.metadata", message: "must be a JSON object" },
    ]);
  });

  it("adds, removes and moves steps, keeping each step's id with it", () => {
    const draft = readDraft(
      form([
        { id: "stp_a", type: "wait", duration: "1m" },
        { id: "stp_b", type: "wait", duration: "2m" },
        { id: "stp_c", type: "wait", duration: "3m" },
      ]),
    );
    const ids = (d: typeof draft) => d.steps.map((s) => s.id || s.type);
    const add = readOp("add:webhook");
    expect(add).toEqual({ kind: "add", type: "webhook" });
    const added = applyOp(draft, add as Exclude<typeof add, { kind: "save" }>);
    expect(ids(added)).toEqual(["stp_a", "stp_b", "stp_c", "webhook"]);
    expect(added.steps[3]).toMatchObject({ id: "", method: "POST", url: "" });

    const step = (value: string) =>
      applyOp(draft, readOp(value) as Exclude<ReturnType<typeof readOp>, { kind: "save" }>);
    expect(ids(step("up:1"))).toEqual(["stp_b", "stp_a", "stp_c"]);
    expect(ids(step("down:1"))).toEqual(["stp_a", "stp_c", "stp_b"]);
    expect(ids(step("remove:0"))).toEqual(["stp_b", "stp_c"]);
    expect(step("remove:1").steps.map((s) => s.duration)).toEqual(["1m", "3m"]);
    // Out of range: nothing moves.
    expect(ids(step("up:0"))).toEqual(["stp_a", "stp_b", "stp_c"]);
    expect(ids(step("down:2"))).toEqual(["stp_a", "stp_b", "stp_c"]);
    expect(ids(step("remove:7"))).toEqual(["stp_a", "stp_b", "stp_c"]);
  });

  it("treats any other button value as Save", () => {
    for (const value of ["save", undefined, "add:launch", "up:x", "remove:", "delete:1"]) {
      expect(readOp(value)).toEqual({ kind: "save" });
    }
  });

  it("fills the editor from a stored automation, so saving it unchanged gives the same steps", () => {
    const stored = {
      name: "Stored",
      trigger: { type: "ticket_resolved" as const, inbox_id: "inb_1" },
      allow_reentry: false,
      steps: [
        { id: "stp_1", type: "send_email" as const, from: "a@acme.test", subject: "S", text: "T" },
        {
          id: "stp_2",
          type: "webhook" as const,
          url: "https://example.com/h",
          method: "POST" as const,
          headers: { "X-A": "1" },
          payload: { n: 1, nested: { ok: true } },
        },
        { id: "stp_3", type: "update_customer" as const, metadata: { vip: true } },
      ],
    };
    const draft = draftOf(stored);
    expect(draft.steps[1]?.headers).toBe("X-A: 1");
    expect(automationInput(draft)).toEqual(stored);
  });
});
