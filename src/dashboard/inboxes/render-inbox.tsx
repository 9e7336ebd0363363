import type { Context } from "hono";
import { hasRole } from "../../auth/roles";
import type { AppEnv } from "../../env";
import { getInbox } from "../../features/inboxes/inboxes.service";
import { renderPage, sessionOf } from "../page";
import { InboxPage, type InboxPageProps } from "./inbox.page";

/** An inbox's page as it is now, with a confirmation or a refused form's problem and values. */
export async function renderInbox(
  c: Context<AppEnv>,
  id: string,
  extras: Pick<InboxPageProps, "done" | "problem" | "settingsDraft" | "webhookDraft">,
  status: 200 | 400 | 409 = 200,
) {
  const inbox = await getInbox(c.var.ctx, id);
  return renderPage(
    c,
    { title: inbox.name, nav: "Inboxes", status },
    <InboxPage
      inbox={inbox}
      canManage={hasRole(sessionOf(c), "admin")}
      csrfToken={c.var.csrfToken}
      {...extras}
    />,
  );
}
