import { validationError } from "../../lib/router";
import type { EditorDraft, StepDraft, TriggerShape } from "./editor-draft";

/**
 * The editor's draft as the API's JSON body (POST and PATCH /v1/automations): what the form holds
 * as text (headers one per line, JSON objects) is turned into the API's values here; everything
 * else (lengths, durations, URLs, groups of this workspace) is left to the API's schema and service,
 * so the rules and messages are the API's. Text that cannot be read is a 400 with the API's
 * `details` paths (`body.steps.1.payload`).
 */

type Issue = { path: Array<string | number>; message: string };

const present = (value: string) => (value.trim() === "" ? undefined : value);

function jsonObject(text: string, path: Issue["path"], issues: Issue[]): Record<string, unknown> | undefined {
  if (text.trim() === "") return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // Reported below, as a value that is not an object.
  }
  issues.push({ path, message: "must be a JSON object" });
  return undefined;
}

/** `Name: value` lines (blank lines ignored) as a headers object. */
function headerLines(text: string, path: Issue["path"], issues: Issue[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0) {
      issues.push({ path, message: "each line must be `Name: value`" });
      continue;
    }
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * A send_email step: its own HTML, or a template chosen in the select (its static values a JSON
 * object). A template leaves the subject optional (empty: the template's); both a template and
 * HTML posted go to the API, whose 400 says to choose one.
 */
function sendEmailInput(step: StepDraft, path: (field: string) => Issue["path"], issues: Issue[]) {
  const templateId = present(step.template_id);
  const variables = templateId
    ? jsonObject(step.template_variables, path("template_variables"), issues)
    : undefined;
  return {
    from: step.from,
    ...(present(step.reply_to) ? { reply_to: step.reply_to.trim() } : {}),
    ...(templateId && !present(step.subject) ? {} : { subject: step.subject }),
    ...(present(step.html) ? { html: step.html } : {}),
    ...(present(step.text) ? { text: step.text } : {}),
    ...(templateId
      ? {
          template: {
            id: templateId,
            ...(present(step.template_version_id) ? { version_id: step.template_version_id.trim() } : {}),
            ...(variables ? { variables } : {}),
          },
        }
      : {}),
  };
}

function stepInput(step: StepDraft, index: number, issues: Issue[]) {
  const path = (field: string) => ["steps", index, field];
  const base = { ...(present(step.id) ? { id: step.id } : {}), type: step.type };
  switch (step.type) {
    case "send_email":
      return { ...base, ...sendEmailInput(step, path, issues) };
    case "wait":
      return { ...base, duration: step.duration.trim() };
    case "webhook": {
      const payload = jsonObject(step.payload, path("payload"), issues);
      return {
        ...base,
        url: step.url.trim(),
        method: step.method,
        headers: headerLines(step.headers, path("headers"), issues),
        ...(payload ? { payload } : {}),
      };
    }
    case "add_to_group":
    case "remove_from_group":
      return { ...base, contact_group_id: step.contact_group_id };
    case "update_customer":
      return { ...base, metadata: jsonObject(step.metadata, path("metadata"), issues) ?? {} };
  }
}

export function triggerInput(draft: EditorDraft): TriggerShape {
  switch (draft.trigger_type) {
    case "group_joined":
      return { type: "group_joined", contact_group_id: draft.trigger_group_id };
    case "ticket_resolved":
      return { type: "ticket_resolved", inbox_id: draft.trigger_inbox_id };
    case "api":
      return { type: "api" };
  }
}

/** The API body of a draft; throws the API's 400 (validation_error) for unreadable text. */
export function automationInput(draft: EditorDraft) {
  const issues: Issue[] = [];
  const steps = draft.steps.map((step, index) => stepInput(step, index, issues));
  if (issues.length > 0) throw validationError(issues, "json");
  return {
    name: draft.name,
    trigger: triggerInput(draft),
    allow_reentry: draft.allow_reentry,
    steps,
  };
}
