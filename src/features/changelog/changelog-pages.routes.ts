import { z } from "@hono/zod-openapi";
import { htmlPage, page } from "../../sessions/login.routes";
import { PUBLIC_ENTRIES } from "./changelog.repo";
import { AccountParamsSchema } from "./changelog.schemas";

const tags = ["Changelog"];

const NOT_FOUND = "No such workspace (an unknown, malformed or suspended account id).";

export const changelogPageRoute = page({
  method: "get",
  path: "/changelog/{account_id}",
  tags,
  summary: "Public changelog page",
  description: `A workspace's changelog as an HTML page, for anyone: its latest ${PUBLIC_ENTRIES} published entries, newest published first, each with its title (as text), category, date and sanitized \`body_html\`. Drafts and scheduled entries never show. The page runs no script; its content security policy allows this origin's stylesheet and images from this origin or any https address. It links the Atom feed.`,
  request: { params: AccountParamsSchema },
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
  description: `The same entries as an Atom 1.0 feed (\`application/atom+xml\`): the latest ${PUBLIC_ENTRIES} published entries, newest published first, each with a stable \`tag:\` id, title, \`updated\`, \`published\`, a link to the entry on the page, its category as \`term\` and \`body_html\` as \`content type="html"\`. \`ETag\` (a hash of the entries shown and the workspace) and \`Last-Modified\` (the newest \`updated_at\`) come with it; \`If-None-Match\`, or when absent \`If-Modified-Since\`, answers 304 with no body when the client's copy is current.`,
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
