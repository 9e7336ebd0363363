import { Liquid, LiquidError, Output, TokenKind, UndefinedVariableError } from "liquidjs";
import { AppError } from "../../lib/errors";

/** The variables a saved reply may name: nothing else reaches the template. */
export const VARIABLES = [
  "customer.first_name",
  "customer.name",
  "customer.email",
  "ticket.client_id",
  "ticket.subject",
  "user.name",
  "inbox.name",
] as const;
export type VariableName = (typeof VARIABLES)[number];

/** The filters a saved reply may use: a fallback and changes of case, none that reads or builds anything. */
export const FILTERS = ["default", "capitalize", "downcase", "upcase"] as const;

/** The longest body, in characters: far above a reply, and a bound on Liquid's parse and render work. */
export const MAX_BODY_CHARS = 20_000;

/**
 * A value goes into Markdown, so every ASCII punctuation character is escaped with a backslash
 * (CommonMark makes any escaped punctuation literal text): a name cannot open emphasis, a link,
 * HTML, an autolink or a list. The HTML made from it escapes `<`, `>`, `&` and quotes. Line breaks
 * become spaces so a value cannot start a block of its own.
 */
export const escapeMarkdown = (value: unknown) =>
  String(value)
    .replace(/\s*[\r\n]+\s*/g, " ")
    .replace(/[!-/:-@[-`{-~]/g, (ch) => `\\${ch}`);

/** Plain text needs no escaping; only the line breaks go, as in the Markdown. */
const plainText = (value: unknown) => String(value).replace(/\s*[\r\n]+\s*/g, " ");

const engine = (outputEscape?: (value: unknown) => string) =>
  new Liquid({
    strictVariables: true,
    strictFilters: true,
    // `default` then receives a missing value instead of the render failing on it.
    lenientIf: true,
    ...(outputEscape ? { outputEscape } : {}),
    parseLimit: MAX_BODY_CHARS,
    renderLimit: 1000,
    memoryLimit: 1_000_000,
  });

const markdownEngine = engine(escapeMarkdown);
const textEngine = engine(plainText);
/** Without an escape, so that a parsed output's filters are only the ones written. */
const checkEngine = engine();

const invalid = (code: string, error: string, detail: string) =>
  new AppError(422, code, error, detail, { details: [{ path: "body", message: detail }] });

const segmentsName = (segments: unknown[]) =>
  segments.map((s) => (typeof s === "string" || typeof s === "number" ? String(s) : "[…]")).join(".");

/**
 * Checks a body at save time (and again at use): only `{{ }}` outputs, only the known variables
 * and filters. 422 naming what is refused: `template_tag_not_allowed`, `unknown_variable`,
 * `unknown_filter`, `invalid_template` (Liquid cannot parse it).
 */
export function checkTemplate(body: string) {
  let parsed: ReturnType<Liquid["parse"]>;
  try {
    parsed = checkEngine.parse(body);
  } catch (error) {
    if (!(error instanceof LiquidError)) throw error;
    const filter = /undefined filter: ([^,\s]+)/.exec(error.message)?.[1];
    if (filter) throw unknownFilter(filter);
    throw invalid("invalid_template", "Invalid template", error.message);
  }
  for (const part of parsed) {
    if (part.token.kind === TokenKind.HTML) continue;
    if (!(part instanceof Output)) {
      throw invalid(
        "template_tag_not_allowed",
        "Template tag not allowed",
        `${JSON.stringify(part.token.getText())}: only {{ variable }} outputs are allowed, no {% %} tags.`,
      );
    }
    for (const filter of part.value.filters) {
      if (!(FILTERS as readonly string[]).includes(filter.name)) throw unknownFilter(filter.name);
    }
  }
  for (const segments of checkEngine.globalVariableSegmentsSync(body)) {
    const name = segmentsName(segments);
    if (!(VARIABLES as readonly string[]).includes(name)) {
      throw invalid(
        "unknown_variable",
        "Unknown variable",
        `{{ ${name} }} is not a variable; use one of ${VARIABLES.join(", ")}.`,
      );
    }
  }
}

const unknownFilter = (name: string) =>
  invalid("unknown_filter", "Unknown filter", `| ${name} is not allowed; use one of ${FILTERS.join(", ")}.`);

/** The values of one use: a missing or empty one is absent, so Liquid's strict mode names it. */
export type TemplateValues = Partial<Record<VariableName, string | null | undefined>>;

function scopeOf(values: TemplateValues) {
  // Every object is there, so that a missing field is named whole (`user.name`, not `user`).
  const scope: Record<string, Record<string, string>> = Object.fromEntries(
    VARIABLES.map((name) => [name.split(".")[0], {}]),
  );
  for (const [name, value] of Object.entries(values)) {
    const text = value?.trim();
    if (!text) continue;
    const [object, field] = name.split(".") as [string, string];
    scope[object] = { ...scope[object], [field]: text };
  }
  return scope;
}

/**
 * The body with its variables filled in, twice: as Markdown (values escaped, for the HTML) and
 * as plain text (values as they are, for the text part). A variable without a value and without
 * a `default` is a 422 `missing_variable` naming it: nothing is sent with a hole in it.
 */
export function renderTemplate(body: string, values: TemplateValues) {
  checkTemplate(body);
  const scope = scopeOf(values);
  try {
    return {
      markdown: markdownEngine.parseAndRenderSync(body, scope) as string,
      text: textEngine.parseAndRenderSync(body, scope) as string,
    };
  } catch (error) {
    const missing = error instanceof UndefinedVariableError || /undefined variable/.test(String(error));
    const name = /undefined variable: ([^,\s]+)/.exec(String(error))?.[1];
    if (missing && name) {
      throw invalid(
        "missing_variable",
        "Missing variable",
        `{{ ${name} }} has no value for this ticket; give it a default, as {{ ${name} | default: "…" }}.`,
      );
    }
    if (error instanceof LiquidError) throw invalid("invalid_template", "Invalid template", error.message);
    throw error;
  }
}
