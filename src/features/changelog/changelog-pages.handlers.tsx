import type { Context } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { Db } from "../../db/client";
import type { AppEnv } from "../../env";
import { enterWorkspace } from "../../lib/request-context-middleware";
import { createRouter } from "../../lib/router";
import { PublicMessagePage } from "../../ui/message-page";
import { changelogFeedXml, changelogPageUrl } from "./changelog.feed";
import { ChangelogEntryPage, ChangelogPage } from "./changelog.page";
import {
  changelogEtag,
  isAccountId,
  isNotModified,
  loadPublicChangelog,
  loadPublicEntry,
} from "./changelog.public";
import { changelogEntryPageRoute, changelogFeedRoute, changelogPageRoute } from "./changelog-pages.routes";

/**
 * Public pages: no script at all, this origin's stylesheet, images from here or any https address
 * (entries show screenshots), no form, no framing.
 */
const headers = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", "https:"],
    formAction: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
  },
  xFrameOptions: "DENY",
});

const NotFoundPage = () => (
  <PublicMessagePage title="Changelog not found" text="This address does not lead to a changelog." />
);

const feedUrlOf = (baseUrl: string, accountId: string) => `${changelogPageUrl(baseUrl, accountId)}/feed.xml`;

/**
 * The workspace's shard, found through the directory, for a well-formed account id; null for a
 * malformed or unknown one (a malformed id costs no round trip).
 */
async function changelogDb(c: Context<AppEnv>, accountId: string): Promise<Db | null> {
  if (!isAccountId(accountId)) return null;
  return (await enterWorkspace(c, accountId))?.db ?? null;
}

export const changelogPagesRouter = createRouter();
changelogPagesRouter.use("/changelog/*", headers);

changelogPagesRouter
  .openapi(changelogPageRoute, async (c) => {
    const { account_id: accountId } = c.req.valid("param");
    const db = await changelogDb(c, accountId);
    const changelog = db && (await loadPublicChangelog(db, accountId, c.req.valid("query").page));
    if (!changelog) return c.html(<NotFoundPage />, 404);
    return c.html(
      <ChangelogPage
        name={changelog.account.name}
        feedUrl={feedUrlOf(c.env.PUBLIC_BASE_URL, accountId)}
        accountId={accountId}
        entries={changelog.entries}
        page={changelog.page}
        hasOlder={changelog.hasOlder}
      />,
      200,
    );
  })
  .openapi(changelogEntryPageRoute, async (c) => {
    const { account_id: accountId, entry_id: entryId } = c.req.valid("param");
    const db = await changelogDb(c, accountId);
    const found = db && (await loadPublicEntry(db, accountId, entryId));
    if (!found) return c.html(<NotFoundPage />, 404);
    return c.html(
      <ChangelogEntryPage
        name={found.account.name}
        feedUrl={feedUrlOf(c.env.PUBLIC_BASE_URL, accountId)}
        accountId={accountId}
        entry={found.entry}
      />,
      200,
    );
  })
  .openapi(changelogFeedRoute, async (c) => {
    const { account_id: accountId } = c.req.valid("param");
    const db = await changelogDb(c, accountId);
    const changelog = db && (await loadPublicChangelog(db, accountId));
    if (!changelog) return c.html(<NotFoundPage />, 404);
    const baseUrl = c.env.PUBLIC_BASE_URL;
    const etag = await changelogEtag(changelog, baseUrl);
    c.header("ETag", etag);
    c.header("Last-Modified", new Date(changelog.updatedAt).toUTCString());
    // Readers may keep a copy but must ask again each time; the validators make that cheap.
    c.header("Cache-Control", "public, no-cache");
    const conditional = c.req.valid("header");
    const asked = {
      ifNoneMatch: conditional["if-none-match"],
      ifModifiedSince: conditional["if-modified-since"],
    };
    if (isNotModified(asked, etag, changelog.updatedAt)) return c.body(null, 304);
    const xml = changelogFeedXml({ ...changelog, baseUrl });
    return c.body(xml, 200, { "Content-Type": "application/atom+xml; charset=utf-8" });
  });
