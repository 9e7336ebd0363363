/** What one recipient's variables are filled with. */
export interface RecipientValues {
  email: string;
  name: string | null;
  unsubscribeUrl: string;
}

const VARIABLE = /\{\{\s*(first_name|name|email|unsubscribe_url)\s*(?:\|([^}]*))?\}\}/g;
const UNSUBSCRIBE_VARIABLE = /\{\{\s*unsubscribe_url\s*(?:\|[^}]*)?\}\}/;

export const hasUnsubscribeVariable = (text: string | null) => UNSUBSCRIBE_VARIABLE.test(text ?? "");

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function variableValue(variable: string, values: RecipientValues): string {
  const name = values.name?.trim() ?? "";
  if (variable === "first_name") return name.split(/\s+/)[0] ?? "";
  if (variable === "name") return name;
  if (variable === "email") return values.email;
  return values.unsubscribeUrl;
}

/** Fills the variables; `html` escapes each value (an unknown `{{...}}` is left as written). */
export function fill(template: string, values: RecipientValues, html = false): string {
  return template.replace(VARIABLE, (_, variable: string, fallback: string | undefined) => {
    const value = variableValue(variable, values) || (fallback ?? "").trim();
    return html ? escapeHtml(value) : value;
  });
}

/** The text part always carries the link: appended when the campaign's text has no variable for it. */
export function textWithUnsubscribe(text: string): string {
  return hasUnsubscribeVariable(text) ? text : `${text}\n\nUnsubscribe: {{unsubscribe_url}}\n`;
}

/** A subject holds one line: a value with a line break (a customer's name) is flattened. */
export const oneLine = (text: string) => text.replace(/[\r\n]+/g, " ");
