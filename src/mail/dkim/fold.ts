/** Folds a header field into lines of at most 78 characters (RFC 5322 §2.1.1). */

export const MAX_LINE_LENGTH = 78;

/**
 * A piece of a header value that may start a continuation line. `glue` is what joins it to the
 * previous piece when both fit on one line: a space between DKIM tags, nothing inside an `h=` list
 * or a base64 value, where folding whitespace is allowed but no other whitespace is wanted.
 */
export interface FoldPiece {
  text: string;
  glue: "" | " ";
}

/**
 * Greedy left-to-right packing, so folding a prefix of `pieces` yields a prefix of the full result:
 * the signer relies on that to sign the field before its `b=` value exists. A single piece longer
 * than a line (a very long domain name) is left whole, since it may not be broken.
 */
export function foldHeader(name: string, pieces: FoldPiece[]): string {
  const lines: string[] = [];
  const fieldStart = `${name}:`;
  let line = fieldStart;
  for (const piece of pieces) {
    const joined = line + piece.glue + piece.text;
    if (joined.length <= MAX_LINE_LENGTH || line === fieldStart) {
      line = joined;
    } else {
      lines.push(line);
      line = ` ${piece.text}`;
    }
  }
  lines.push(line);
  return lines.join("\r\n");
}
