import { z } from "@hono/zod-openapi";
import { htmlPage, page } from "../sessions/login.routes";
import { PUBLIC_ENTRIES } from "./changelog.repo";
import { AccountParamsSchema } from "./changelog.schemas";
import { SUMMARY_CHARACTERS, WHOLE_ENTRY_BYTES } from "./changelog.summary";

const tags = ["Changelog"];

const NOT_FOUND = "No such workspace (an unknown, malformed or suspended account id).";

const BOUNDS = `An entry whose \`body_html\` is over ${WHOLE_ENTRY_BYTES} bytes (counted as the feed escapes it) shows instead its first ${SUMMARY_CHARACTERS} characters of text and a link to its own page, where it is whole; so a page or the feed stays under about 250 KB.`;

/** At most 10,000 pages back: 200,000 entries. */
const PageQuery = z.object({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(1)
    .openapi({
      description: `Which page of ${PUBLIC_ENTRIES} entries: 1 (the default) is the newest.`,
      example: 1,
    }),
});

export const changelogPageRoute = page({
  method: "get",
  path: "/changelog/{account_id}",
  tags,
  summary: "Public changelog page",
  description: `A workspace's changelog as an HTML page, for anyone: its published entries, newest published first, ${PUBLIC_ENTRIES} a page (\`page\`, with links to the newer and older pages), each with its title (as text, linking to the entry's own page), category, date and sanitized \`body_html\`. ${BOUNDS} Drafts and scheduled entries never show. The page runs no script; its content security policy allows this origin's stylesheet and images from this origin or any https address. It links the Atom feed.`,
  request: { params: AccountParamsSchema, query: PageQuery },
  responses: { 200: htmlPage("The changelog."), 404: htmlPage(NOT_FOUND), 500: htmlPage("An error.") },
});

const atom = (description: string) => ({
  description,
  content: { "application/atom+xml": { schema: z.string() } },
});

export const changelogFeedRoute = page({
  method: "get",
  path: "/changelog/{account_id}/feed.xml",
  tags,
  summary: "Changelog Atom feed",
  description: `The same entries as an Atom 1.0 feed (\`application/atom+xml\`): the latest ${PUBLIC_ENTRIES} published entries, newest published first, each with a stable \`tag:\` id, title, \`updated\`, \`published\`, a link to the entry's own page, its category as \`term\` and \`body_html\` as \`content type="html"\`. ${BOUNDS} \`ETag\` (a hash of the entries shown and the workspace) and \`Last-Modified\` (the newest \`updated_at\`) come with it; \`If-None-Match\`, or when absent \`If-Modified-Since\`, answers 304 with no body when the client's copy is current.`,
  request: {
    params: AccountParamsSchema,
    headers: z.object({
      "if-none-match": z.string().optional().openapi({ description: "ETags of copies the client has." }),
      "if-modified-since": z
        .string()
        .optional()
        .openapi({ description: "The `Last-Modified` of the client's copy." }),
    }),
  },
  responses: {
    200: atom("The feed."),
    304: { description: "The client's copy is current." },
    404: htmlPage(NOT_FOUND),
    500: htmlPage("An error."),
  },
});

export const changelogEntryPageRoute = page({
  method: "get",
  path: "/changelog/{account_id}/entries/{entry_id}",
  tags,
  summary: "Public changelog entry",
  description:
    "One published entry as an HTML page, for anyone, shown whole (its `body_html`, at most 1 MB): where the changelog page and the feed link each entry, and the only place a long one is whole. Same policy as the changelog page: no script.",
  request: {
    params: AccountParamsSchema.extend({
      entry_id: z
        .string()
        .openapi({ param: { name: "entry_id", in: "path" }, example: "chg_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    }),
  },
  responses: {
    200: htmlPage("The entry."),
    404: htmlPage("No such published entry of an active workspace."),
    500: htmlPage("An error."),
  },
});
