import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";

/**
 * Markdown (CommonMark and GitHub's extensions) to HTML that is safe to show on a public page:
 * remark parses, remark-rehype turns it into HTML nodes and drops raw HTML written in the Markdown,
 * and rehype-sanitize keeps only GitHub's allow-list of elements, attributes and URL protocols
 * (no script, no event attribute, no `javascript:` link). Frozen once: the pipeline is reused.
 *
 * Ids: remark-rehype already prefixes the only ids it makes (footnotes) with `user-content-`, the
 * sanitizer's defence against clobbering the page's own ids, and raw HTML (which could bring
 * others) is dropped; the sanitizer adding its prefix again would break the footnote links.
 */
const pipeline = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(rehypeSanitize, { ...defaultSchema, clobberPrefix: "" })
  .use(rehypeStringify)
  .freeze();

/** A hast node, as far as its text is concerned. */
type HastNode = { type: string; tagName?: string; value?: string; children?: HastNode[] };

/** Elements after which words do not run on: a summary reads "Title Text", not "TitleText". */
const BREAKS = new Set([
  "p",
  "li",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "br",
  "td",
  "th",
  "pre",
  "blockquote",
]);

/** The words a reader sees (link texts, not addresses), from the sanitized tree. */
function textOf(node: HastNode): string {
  if (node.type === "text") return node.value ?? "";
  const inner = (node.children ?? []).map(textOf).join("");
  return node.tagName && BREAKS.has(node.tagName) ? `${inner} ` : inner;
}

/** The sanitized HTML and its plain text (for a summary), from one parse. */
export async function renderMarkdownWithText(markdown: string) {
  const tree = await pipeline.run(pipeline.parse(markdown));
  return { html: pipeline.stringify(tree), text: textOf(tree as HastNode) };
}

export async function renderMarkdown(markdown: string): Promise<string> {
  return (await renderMarkdownWithText(markdown)).html;
}
