import { directoryDb } from "../../db/directory/client";
import { createKey, listAccountKeys, revokeKey } from "../../features/keys/keys.service";
import { createRouter } from "../../lib/router";
import { renderPage } from "../page";
import { KeyCreatedPage } from "./key-created.page";
import { KeysPage } from "./keys.page";
import { createKeyPageRoute, KEYS_DONE, keysPageRoute, revokeKeyPageRoute } from "./keys.routes";

export const keysPagesRouter = createRouter()
  .openapi(keysPageRoute, async (c) => {
    const { limit, offset, done } = c.req.valid("query");
    // The service lists every key (a workspace has few); the page shows one slice of them.
    const keys = await listAccountKeys(c.var.ctx.db, c.var.ctx.accountId);
    return renderPage(
      c,
      { title: "API keys", nav: "API keys" },
      <KeysPage
        keys={keys.slice(offset, offset + limit)}
        total={keys.length}
        limit={limit}
        offset={offset}
        csrfToken={c.var.csrfToken}
        notice={done ? KEYS_DONE[done] : undefined}
      />,
    );
  })
  .openapi(createKeyPageRoute, async (c) => {
    const { name, permission } = c.req.valid("form");
    const created = await createKey(c.var.ctx.db, directoryDb(c.env), c.var.ctx.accountId, {
      name,
      permission,
    });
    return renderPage(c, { title: "Key created", nav: "API keys" }, <KeyCreatedPage created={created} />);
  })
  .openapi(revokeKeyPageRoute, async (c) => {
    const { id } = c.req.valid("param");
    await revokeKey(c.var.ctx.db, c.env.KEY_GUARD, id, { accountId: c.var.ctx.accountId });
    return c.redirect("/dashboard/keys?done=revoked", 303);
  });
