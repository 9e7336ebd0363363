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

/**
 * A layout's content slot, written `{{{@content}}}`: where a template's rendered html (or text)
 * goes, as it is. Postmark's name; the `@` keeps it apart from every variable key.
 */
export const CONTENT_SLOT = "@content";

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

/** Where a field holds the content slot; `escaped` when written `{{@content}}`. */
export interface SlotUse {
  field: string;
  line: number;
  column: number;
  escaped: boolean;
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
 * Parses one field: the variables and content slots it uses, or what is wrong with it (with line
 * and column). A parse failure is reported alone: Mustache stops at the first.
 */
export function parseField(
  field: string,
  source: string,
): { parsed: boolean; uses: VariableUse[]; slots: SlotUse[]; problems: MarkupProblem[] } {
  let tokens: Mustache.TemplateSpans;
  try {
    tokens = Mustache.parse(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    let at = Number(/ at (\d+)$/.exec(message)?.[1] ?? 0);
    // Mustache reports an unclosed tag where it stopped looking (the end): point at its opening.
    if (message.startsWith("Unclosed tag")) at = Math.max(0, source.lastIndexOf("{{", at));
    return {
      parsed: false,
      uses: [],
      slots: [],
      problems: [{ field, ...lineAndColumn(source, at), message: message.replace(/ at \d+$/, "") }],
    };
  }
  const uses: VariableUse[] = [];
  const slots: SlotUse[] = [];
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
    } else if (value === CONTENT_SLOT) {
      slots.push({ ...where, escaped: type === "name" });
    } else if (!VARIABLE_KEY.test(value)) {
      problems.push({
        ...where,
        message: `${JSON.stringify(value)} is not a variable key (letters, digits and _)`,
      });
    } else {
      uses.push({ key: value, ...where });
    }
  }
  return { parsed: true, uses, slots, problems };
}

const SLOT = `{{{${CONTENT_SLOT}}}}`;

/**
 * What is wrong with the content slots of one field that parsed: a template has none; a layout's
 * html (and text, when it has one) holds exactly one, written with three braces in html (the
 * template's html goes in as it is). None points at the field's start, a repeat at itself.
 */
export function slotProblems(field: string, slots: SlotUse[], isLayout: boolean): MarkupProblem[] {
  if (!isLayout || field === "subject") {
    return slots.map(({ escaped: _e, ...where }) => ({
      ...where,
      message: `${SLOT} is a layout's content slot: only a layout (type layout) holds one, in html and text`,
    }));
  }
  if (slots.length === 0) {
    return [
      {
        field,
        line: 1,
        column: 1,
        message: `a layout's ${field} must hold the content slot ${SLOT} once: it has none`,
      },
    ];
  }
  const [first, ...repeats] = slots as [SlotUse, ...SlotUse[]];
  return [
    ...slots
      .filter((slot) => field === "html" && slot.escaped)
      .map(({ escaped: _e, ...where }) => ({
        ...where,
        message: `the content slot is written ${SLOT} (three braces): the template's html goes in as it is`,
      })),
    ...repeats.map(({ escaped: _e, ...where }) => ({
      ...where,
      message: `the content slot ${SLOT} must appear once: it is already at line ${first.line}, column ${first.column}`,
    })),
  ];
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
