import { utf8Length } from "../../lib/text";
import { xmlText } from "./changelog.feed";

/**
 * The public page and feed show an entry whole only up to this many bytes of `body_html`, counted
 * as the feed escapes it (the larger of the two). With at most 20 entries each, a page or feed stays
 * under about 250 KB whatever the entries weigh; a longer entry shows its summary and a link to its
 * own page, where it is shown whole (at most 1 MB, the rendered body's cap).
 */
export const WHOLE_ENTRY_BYTES = 10_000;

/** A summary's length, in characters. */
export const SUMMARY_CHARACTERS = 300;

/** The text's opening words, whitespace collapsed, cut at a word when one is near, never inside a character. */
export function openingWords(text: string, max = SUMMARY_CHARACTERS): string {
  const flat = text
    .slice(0, max * 4)
    .replace(/\s+/g, " ")
    .trim();
  const chars = Array.from(flat);
  if (chars.length <= max && flat.length < max * 4) return flat;
  const cut = chars.slice(0, max).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The `summary_text` an entry stores: null when its HTML fits, else its opening words. */
export function summaryFor(html: string, text: string): string | null {
  return utf8Length(xmlText(html)) <= WHOLE_ENTRY_BYTES ? null : openingWords(text);
}
