import rehypeSanitize from "rehype-sanitize";
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
 */
const pipeline = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(rehypeSanitize)
  .use(rehypeStringify)
  .freeze();

export async function renderMarkdown(markdown: string): Promise<string> {
  return String(await pipeline.process(markdown));
}
