import { validationError } from "../../lib/router";

/**
 * A search as the user typed it, parsed into FTS5 strings. Every term is quoted (`"..."`, inner
 * quotes doubled), so nothing the user types is FTS5 syntax: `NEAR`, `OR`, `*`, `^`, `column:` and
 * parentheses are text to find. The index is of 3-character sequences (trigram), so a term
 * matches anywhere in a word: `refun` and `refun*` both find "refunded".
 */
export interface SearchQuery {
  /** Terms or phrases every result contains. */
  include: string[];
  /** Terms or phrases no result contains. */
  exclude: string[];
}

/** Shorter terms cannot be looked up in a trigram index; they are left out of the search. */
export const MIN_TERM_CHARS = 3;
/** Each term is one lookup in the index: a bound on the work one search can ask for. */
export const MAX_TERMS = 12;

const quote = (term: string) => `"${term.replaceAll('"', '""')}"`;

/** Splits the input into terms and "quoted phrases"; an unclosed quote runs to the end. */
function tokens(input: string): Array<{ text: string; negated: boolean }> {
  const found: Array<{ text: string; negated: boolean }> = [];
  // Control characters (NUL included) are never part of a term.
  const text = input.replace(/\p{Cc}/gu, " ");
  const pattern = /(-?)"([^"]*)"?|(\S+)/gu;
  for (const match of text.matchAll(pattern)) {
    if (match[2] !== undefined) found.push({ text: match[2].trim(), negated: match[1] === "-" });
    else if (match[3] !== undefined) {
      const word = match[3];
      const negated = word.startsWith("-") && word.length > 1;
      // `refun*` is a prefix; with substring matching the star adds nothing.
      found.push({ text: (negated ? word.slice(1) : word).replace(/^\*+|\*+$/g, ""), negated });
    }
  }
  return found;
}

const longEnough = (term: string) => [...term].length >= MIN_TERM_CHARS;

/** Parses `q`, or answers 400 when it has nothing that can be searched for. */
export function parseSearch(input: string): SearchQuery {
  const all = tokens(input).filter((t) => longEnough(t.text));
  const include = [...new Set(all.filter((t) => !t.negated).map((t) => t.text))];
  const exclude = [...new Set(all.filter((t) => t.negated).map((t) => t.text))];
  if (include.length === 0)
    throw validationError(
      [{ path: ["q"], message: `name a word or "phrase" of at least ${MIN_TERM_CHARS} characters to find` }],
      "query",
    );
  if (include.length + exclude.length > MAX_TERMS)
    throw validationError([{ path: ["q"], message: `at most ${MAX_TERMS} words or phrases` }], "query");
  return { include, exclude };
}

/** The FTS5 query of one term or phrase. */
export const ftsTerm = quote;

/** The FTS5 query matching a row with any of the wanted terms (ranks and highlights them all). */
export const ftsAnyOf = (query: SearchQuery) => query.include.map(quote).join(" OR ");
