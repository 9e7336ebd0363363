/**
 * The new part of a reply: the text above the quoted history mail clients append. Heuristics for
 * the shapes Gmail, Apple Mail and Outlook write (and a few translations of "wrote:"); anything
 * not recognised is kept, since showing too much is better than hiding what the customer wrote.
 */

/**
 * "On Thu, 12 Nov 2026 at 10:00, Support <support@acme.test> wrote:" and its translations. Each
 * is linear in the line: after the one unbounded run, a fixed word ends the line (the German
 * line's closing colon is checked apart, since `schrieb\s.*:$` retried the rest of a line once per
 * "schrieb" in it: seconds for a 160 KB line).
 */
const ATTRIBUTION = [/^On\s.+\swrote:$/i, /^Le\s.+\sa écrit\s?:$/i, /^El\s.+\sescribió:$/i];
const GERMAN_ATTRIBUTION = /^Am\s.+\sschrieb\s/i;
/** Outlook's "-----Original Message-----" and the rule it draws above a quoted header block. */
const SEPARATOR = /^(-{2,}\s*Original Message\s*-{2,}|_{20,})$/i;
const HEADER_FROM = /^\*?From:\*?\s/i;
const HEADER_SENT = /^\*?(Sent|Date):\*?\s/i;
/** How far below "From:" Outlook's "Sent:" may come (a wrapped name or address takes lines). */
const HEADER_REACH = 4;

/** An attribution names when: a line without a digit ("On reflection, he wrote:") is prose. */
const isAttribution = (line: string) =>
  /\d/.test(line) &&
  (ATTRIBUTION.some((pattern) => pattern.test(line)) ||
    (line.endsWith(":") && GERMAN_ATTRIBUTION.test(line)));

/** Where the quoted history starts: an attribution (Gmail wraps long ones onto a second line) or Outlook's header block. */
function historyStart(lines: string[]): number {
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim();
    const next = (lines[i + 1] ?? "").trim();
    if (isAttribution(line) || (/^\S/.test(next) && isAttribution(`${line} ${next}`))) return i;
    if (SEPARATOR.test(line)) return i;
    if (
      HEADER_FROM.test(line) &&
      lines.slice(i + 1, i + 1 + HEADER_REACH).some((l) => HEADER_SENT.test(l.trim()))
    )
      return i;
  }
  return lines.length;
}

/** Without the quoted history: cut at its start, then any `>` lines and blank lines left at the end. */
export function stripQuoted(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let end = historyStart(lines);
  while (end > 0 && /^\s*(>.*)?$/.test(lines[end - 1] ?? "")) end--;
  const kept = lines.slice(0, end).join("\n").trim();
  // A reply written below the quote, or a bare forward: nothing recognisable above it, keep all.
  return kept || text.trim();
}
