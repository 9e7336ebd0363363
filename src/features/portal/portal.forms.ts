import type { RequestContext } from "../../lib/request-context";
import { MAX_MESSAGE_BODY_BYTES } from "../tickets/tickets.schemas";
import type { FieldErrors } from "./contact.pages";
import type { FormValues } from "./portal.schemas";

/** What a person is told about a refused field: plain words, not the schema's. */
export const FIELD_HELP: Required<FieldErrors> = {
  name: "Enter your name: one line, at most 200 characters.",
  email: "Enter an email address such as ada@example.com.",
  subject: "Enter a subject: one line, at most 998 characters.",
  message: `Write a message of at most ${MAX_MESSAGE_BODY_BYTES / 1000} KB.`,
};

/** The refused fields of a failed validation, each with its help text. */
export function fieldErrors(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey> }>): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0]) as keyof FieldErrors;
    if (field in FIELD_HELP) errors[field] = FIELD_HELP[field];
  }
  return errors;
}

/**
 * What was posted, as @hono/zod-validator hands it to a route's hook beside a failed result
 * (its types leave it out of the failure case).
 */
export const postedData = (result: object): unknown => (result as { data?: unknown }).data;

/** The posted text fields, to show the form again as it was (anything else is dropped). */
export function formValues(data: unknown): FormValues {
  const values: FormValues = {};
  const posted = (data ?? {}) as Record<string, unknown>;
  for (const field of Object.keys(FIELD_HELP) as Array<keyof FormValues>) {
    const value = posted[field];
    if (typeof value === "string") values[field] = value;
  }
  return values;
}

/** A textarea posts CRLF line breaks; messages are stored with `\n`, as mail bodies are shown. */
export const normalizeLineBreaks = (text: string) => text.replace(/\r\n?/g, "\n");

/** The request's context acting for the workspace a public form posts into (found by its id). */
export const actingFor = (ctx: RequestContext, accountId: string): RequestContext => ({ ...ctx, accountId });
