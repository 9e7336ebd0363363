const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

function decodeEntity(entity: string, name: string): string {
  if (name.startsWith("#")) {
    const code =
      name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    // As browsers do: NUL, lone surrogates and out-of-range references (on which fromCodePoint
    // throws) become the replacement character.
    const valid = Number.isInteger(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
    return valid ? String.fromCodePoint(code) : "\uFFFD";
  }
  return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
}

/**
 * Plain text from a stored HTML body, for pages that must never render stored markup. The result
 * is still untrusted text: callers escape it like any other value. Readability is the only goal
 * here, so a regex pass is enough; safety comes from the escaping, not from this parser.
 */
export function htmlToText(source: string): string {
  return (
    source
      // Content that is never visible text.
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<(script|style|head|title|template)\b[\s\S]*?<\/\1\s*>/gi, "")
      // Source line breaks are not visible in HTML; block boundaries and <br> are.
      .replace(/\s*\n\s*/g, " ")
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(/<li\b[^>]*>/gi, "\n• ")
      .replace(/<\/(p|div|h[1-6]|blockquote|pre|tr|ul|ol|table|section|article)\s*>/gi, "\n\n")
      .replace(/<[^>]*>/g, "")
      .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, decodeEntity)
      .replace(/[ \t]*\n[ \t]*/g, "\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim()
  );
}
