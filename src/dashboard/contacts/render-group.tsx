import type { Context } from "hono";
import { hasRole } from "../../auth/roles";
import type { AppEnv } from "../../env";
import { getContactGroup } from "../../features/contact-groups/contact-groups.service";
import { listMembers } from "../../features/contact-groups/members.service";
import { renderPage, sessionOf } from "../page";
import { GroupPage, type GroupPageProps } from "./group.page";

/** The members page shown: `offset` and `limit` of the query, the first page after a form. */
export interface MemberPaging {
  limit: number;
  offset: number;
}

type Extras = Omit<GroupPageProps, "group" | "members" | "canManage" | "csrfToken">;

/** A group's page as it is now, with a confirmation or a refused form's problem and values. */
export async function renderGroup(
  c: Context<AppEnv>,
  id: string,
  extras: Extras,
  paging: MemberPaging = { limit: 20, offset: 0 },
  status: 200 | 400 | 409 = 200,
) {
  const { db, accountId } = c.var.ctx;
  const group = await getContactGroup(db, accountId, id);
  const { members, total } = await listMembers(db, accountId, id, paging.limit, paging.offset);
  return renderPage(
    c,
    { title: group.name, nav: "Contacts", status },
    <GroupPage
      group={group}
      members={{ members, total, ...paging }}
      canManage={hasRole(sessionOf(c), "admin")}
      csrfToken={c.var.csrfToken}
      {...extras}
    />,
  );
}
