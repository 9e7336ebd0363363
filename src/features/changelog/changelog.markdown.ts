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

export async function renderMarkdown(markdown: string): Promise<string> {
  return String(await pipeline.process(markdown));
}
