import type { VariableValues } from "../templates/templates.schemas";
import { checkValues, type StoredVariable } from "../templates/variables";

/**
 * Where a template's variables get their values when a campaign or an automation step sends it to
 * one person. For each variable the template declares, the first of these that has a value of the
 * variable's type wins:
 * 1. the campaign's (or step's) own `template.variables`: static, the same for everyone;
 * 2. (automations) the enrolment's trigger `data`, by the same key;
 * 3. the contact's fields, by a key matched whatever its case: `email`, `name`, `first_name` (the
 *    name's first word), `group_name` (campaigns: the first of the campaign's groups the contact is
 *    in) and `unsubscribe_url` (the recipient's own link; never static);
 * 4. the contact's `metadata`, by the same key (custom fields);
 * then the variable's `fallback_value`. A variable still without a value is missing: the
 * recipient is skipped with the reason recorded, never sent a placeholder.
 */

export interface ContactFields {
  email: string;
  name: string | null;
  /** The customer's metadata as stored (a JSON object). */
  metadata: string;
  groupName?: string | null;
  unsubscribeUrl: string;
}

export const CONTACT_KEYS = ["email", "name", "first_name", "group_name", "unsubscribe_url"] as const;
const isContactKey = (key: string) => (CONTACT_KEYS as readonly string[]).includes(key.toLowerCase());

export const isUnsubscribeKey = (key: string) => key.toLowerCase() === "unsubscribe_url";

function contactValue(key: string, contact: ContactFields): string | null {
  const name = contact.name?.trim() ?? "";
  const value = {
    email: contact.email,
    name,
    first_name: name.split(/\s+/)[0] ?? "",
    group_name: contact.groupName?.trim() ?? "",
    unsubscribe_url: contact.unsubscribeUrl,
  }[key.toLowerCase()];
  return value ? value : null;
}

function objectOf(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

const ofType = (value: unknown, type: StoredVariable["type"]) =>
  (type === "string" && typeof value === "string" && value !== "") ||
  (type === "number" && typeof value === "number" && Number.isFinite(value));

/**
 * One person's values for a template's declared variables, and the keys left without a value or a
 * fallback (`missing`, empty when the email can be sent).
 */
export function personValues(
  declared: StoredVariable[],
  statics: VariableValues,
  contact: ContactFields,
  eventData: Record<string, unknown> = {},
): { given: VariableValues; missing: string[] } {
  const metadata = objectOf(contact.metadata);
  const given: VariableValues = {};
  for (const v of declared) {
    const candidates = [
      statics[v.key],
      eventData[v.key],
      isContactKey(v.key) ? contactValue(v.key, contact) : undefined,
      metadata[v.key],
    ];
    const value = candidates.find((c) => ofType(c, v.type));
    if (value !== undefined) given[v.key] = value as string | number;
  }
  return { given, missing: checkValues(declared, given).missing };
}

/**
 * The declared variables without a fallback that neither the static values nor a contact field
 * can fill: only event data or metadata could, so the caller checks those.
 */
export function needsCustomData(declared: StoredVariable[], statics: VariableValues) {
  return declared.filter(
    (v) =>
      statics[v.key] === undefined &&
      (v.fallback_value ?? null) === null &&
      !(isContactKey(v.key) && v.type === "string"),
  );
}

/** A recipient skipped for variables without a value: the reason on its recipient row or step. */
export const missingReason = (missing: string[]) => `missing_variables: ${missing.join(", ")}`;
