import Mustache from "mustache";

/**
 * The template syntax: Mustache reduced to plain variables. `{{KEY}}` inserts the value
 * HTML-escaped, `{{{KEY}}}` (or `{{& KEY}}`) as it is; in the subject and the text part both insert
 * the value as it is (escaping is for HTML). Sections, inverted sections, partials, comments and
 * delimiter changes are refused: a value is always a string or a number, so there is nothing to
 * loop over or test, and one small syntax is one a designer can check by eye.
 */

// Mustache keeps every template it parsed in a module-wide cache: in a Worker isolate that serves
// many workspaces, each with templates up to a megabyte, that is memory nobody gives back.
Mustache.templateCache = undefined;

/** Letters, digits and underscores, not starting with a digit: no dots (Mustache's lookups). */
export const VARIABLE_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,49}$/;

export interface MarkupProblem {
  field: string;
  line: number;
  column: number;
  message: string;
}

export interface VariableUse {
  key: string;
  field: string;
  line: number;
  column: number;
}

/** 1-based line and column of a character index. */
export function lineAndColumn(source: string, index: number) {
  const before = source.slice(0, index);
  const line = before.split("\n").length;
  return { line, column: index - before.lastIndexOf("\n") };
}

const TAG_NAMES: Record<string, string> = {
  "#": "a section",
  "^": "an inverted section",
  "/": "a section end",
  ">": "a partial",
  "!": "a comment",
  "=": "a delimiter change",
};

/**
 * Parses one field: the variables it uses, or what is wrong with it (with line and column). A
 * parse failure is reported alone: Mustache stops at the first.
 */
export function parseField(
  field: string,
  source: string,
): { uses: VariableUse[]; problems: MarkupProblem[] } {
  let tokens: Mustache.TemplateSpans;
  try {
    tokens = Mustache.parse(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    let at = Number(/ at (\d+)$/.exec(message)?.[1] ?? 0);
    // Mustache reports an unclosed tag where it stopped looking (the end): point at its opening.
    if (message.startsWith("Unclosed tag")) at = Math.max(0, source.lastIndexOf("{{", at));
    return {
      uses: [],
      problems: [{ field, ...lineAndColumn(source, at), message: message.replace(/ at \d+$/, "") }],
    };
  }
  const uses: VariableUse[] = [];
  const problems: MarkupProblem[] = [];
  for (const token of tokens) {
    const [type, value, start] = token as unknown as [string, string, number];
    if (type === "text") continue;
    const where = { field, ...lineAndColumn(source, start) };
    if (type !== "name" && type !== "&") {
      problems.push({
        ...where,
        message: `${TAG_NAMES[type] ?? "this tag"} is not allowed: only {{KEY}} and {{{KEY}}}`,
      });
    } else if (!VARIABLE_KEY.test(value)) {
      problems.push({
        ...where,
        message: `${JSON.stringify(value)} is not a variable key (letters, digits and _)`,
      });
    } else {
      uses.push({ key: value, ...where });
    }
  }
  return { uses, problems };
}

const asIs = (value: unknown) => String(value);

/**
 * A renderer for one request: its own Writer keeps what it parsed until the request is done, so a
 * batch of emails from one template parses it once (the module-wide cache is off, above).
 */
export const newRenderer = () => new Mustache.Writer();
export type Renderer = ReturnType<typeof newRenderer>;

/** Fills a field that `parseField` accepted: `html` escapes `{{KEY}}` values, the others do not. */
export function renderField(
  renderer: Renderer,
  source: string,
  values: Record<string, string | number>,
  html: boolean,
): string {
  return renderer.render(source, values, undefined, html ? undefined : { escape: asIs });
}
