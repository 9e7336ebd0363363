import { Tokenizer } from "htmlparser2";

/** Never visible text. script, style and title content is raw text to the tokenizer already. */
const HIDDEN = new Set(["script", "style", "title", "template", "noscript", "iframe", "object"]);
/** Elements that start and end a paragraph of text. */
const BLOCKS = new Set(
  "p div h1 h2 h3 h4 h5 h6 blockquote pre tr ul ol table section article header footer form hr dl dd dt address".split(
    " ",
  ),
);
const WHITESPACE = /[\s\u00a0]+/g;

/**
 * Text out of HTML, one pass over htmlparser2's tokenizer (the lexer of a spec-following parser)
 * and no tree: time and memory grow with the input's length whatever its nesting, where a tree or
 * a back-referenced regex took seconds for a hostile 400 KB body. What it keeps is counters.
 */
class TextWriter {
  private readonly out: string[] = [];
  private hidden = 0;
  private pre = 0;
  private inHead = false;
  private breaks = 0;
  private space = false;
  private tag = "";

  constructor(private readonly source: string) {}

  text(value: string) {
    if (this.hidden > 0 || this.inHead || value === "") return;
    if (this.pre > 0) return this.write(value.replace(/\r\n?/g, "\n"));
    const collapsed = value.replace(WHITESPACE, " ");
    if (collapsed === " ") {
      this.space = true;
      return;
    }
    if (collapsed.startsWith(" ")) this.space = true;
    this.write(collapsed.trim());
    this.space = collapsed.endsWith(" ");
  }

  private write(value: string) {
    if (this.out.length > 0) {
      if (this.breaks > 0) this.out.push("\n".repeat(this.breaks));
      else if (this.space) this.out.push(" ");
    }
    this.out.push(value);
    this.breaks = 0;
    this.space = false;
  }

  private lineBreak(count: number) {
    this.breaks = Math.max(this.breaks, count);
  }

  open(name: string) {
    if (HIDDEN.has(name)) this.hidden++;
    else if (name === "head") this.inHead = true;
    else if (name === "body") this.inHead = false;
    else if (name === "br") this.breaks = Math.min(2, this.breaks + 1);
    else if (name === "li") {
      this.lineBreak(1);
      if (this.hidden === 0 && !this.inHead) this.write("•");
      this.space = true;
    } else if (name === "td" || name === "th") this.space = true;
    else if (BLOCKS.has(name)) {
      this.lineBreak(2);
      if (name === "pre") this.pre++;
    }
  }

  close(name: string) {
    if (HIDDEN.has(name)) this.hidden = Math.max(0, this.hidden - 1);
    else if (name === "head") this.inHead = false;
    else if (name === "br") this.breaks = Math.min(2, this.breaks + 1);
    else if (BLOCKS.has(name)) {
      this.lineBreak(2);
      if (name === "pre") this.pre = Math.max(0, this.pre - 1);
    }
  }

  /** The tokenizer's callbacks: positions into `source`, entities already decoded. */
  callbacks() {
    const slice = (start: number, end: number) => this.source.slice(start, end);
    const ignore = () => {};
    return {
      ontext: (start: number, end: number) => this.text(slice(start, end)),
      ontextentity: (codepoint: number) => this.text(String.fromCodePoint(codepoint)),
      onopentagname: (start: number, end: number) => {
        this.tag = slice(start, end).toLowerCase();
      },
      onopentagend: () => this.open(this.tag),
      onselfclosingtag: () => this.open(this.tag),
      onclosetag: (start: number, end: number) => this.close(slice(start, end).toLowerCase()),
      onattribdata: ignore,
      onattribentity: ignore,
      onattribend: ignore,
      onattribname: ignore,
      oncdata: ignore,
      oncomment: ignore,
      ondeclaration: ignore,
      onprocessinginstruction: ignore,
      onend: ignore,
    };
  }

  result() {
    return this.out.join("").trim();
  }
}

/**
 * Plain text from a stored HTML body, for pages that must never render stored markup. The result
 * is still untrusted text: callers escape it like any other value. Readability is the only goal;
 * safety comes from the escaping. Done once when a message is written (`html_text`), not per view.
 */
export function htmlToText(source: string): string {
  const writer = new TextWriter(source);
  const tokenizer = new Tokenizer({ decodeEntities: true }, writer.callbacks());
  tokenizer.write(source);
  tokenizer.end();
  return writer.result();
}

/** What a message stores as `html_text`: its HTML as text, when it has no text body to show instead. */
export const htmlTextOf = (bodyText: string | null | undefined, bodyHtml: string | null | undefined) =>
  bodyHtml && !bodyText ? htmlToText(bodyHtml) : null;

/**
 * The words a page shows for a message. Rows written before `html_text` existed have none: their
 * HTML is converted here, once per view, which is linear and cheap now.
 */
export const shownText = (m: { bodyText: string | null; bodyHtml: string | null; htmlText: string | null }) =>
  m.bodyText || (m.htmlText ?? (m.bodyHtml ? htmlToText(m.bodyHtml) : ""));
