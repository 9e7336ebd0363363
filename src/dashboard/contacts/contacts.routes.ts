import { dashboardRoute, formBody } from "../routes";
import {
  GroupForm,
  GroupListQuery,
  GroupPageQuery,
  GroupPath,
  ImportForm,
  MemberForm,
  MemberPath,
} from "./contact-forms";

const FORM_PROBLEMS =
  "A value the API refuses shows the form again with the API's reason and the values sent: 400 (invalid input) or 409 (another group of the workspace has this name, in any case).";

export const groupListRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/contacts",
  summary: "Contact groups",
  description:
    "The workspace's contact groups, newest first (GET /v1/contact-groups): name, member count, created. Paginated by `offset` and `limit` (default 20). Everyone signed in sees it; the New group link is shown to admins and owners.",
  request: { query: GroupListQuery },
});

export const newGroupRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/contacts/new",
  summary: "New contact group form",
  description: "Name and description.",
  role: "admin",
});

export const createGroupRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/contacts",
  summary: "Create a contact group",
  description: `The form goes through POST /v1/contact-groups' schema and \`createContactGroup\`. Redirects (303) to the new group. ${FORM_PROBLEMS}`,
  request: { body: formBody(GroupForm) },
  role: "admin",
  success: 303,
});

export const groupRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/contacts/{id}",
  summary: "Contact group",
  description:
    "A contact group and its members, newest first (GET /v1/contact-groups/{id}/members; `offset`, `limit` default 20): email, name, unsubscribed, added. Agents see it read-only; admins and owners also get the forms to add a member, import a CSV, remove a member, rename and delete.",
  request: { params: GroupPath, query: GroupPageQuery },
});

export const saveGroupRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/contacts/{id}",
  summary: "Rename a contact group",
  description: `Name and description as PATCH /v1/contact-groups/{id} takes them (an empty description clears it). Redirects (303) to the group. ${FORM_PROBLEMS}`,
  request: { params: GroupPath, body: formBody(GroupForm) },
  role: "admin",
  success: 303,
});

export const deleteGroupRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/contacts/{id}/delete",
  summary: "Delete a contact group",
  description:
    "After the page's confirmation: `removeContactGroup`, as DELETE /v1/contact-groups/{id} (the memberships go, the customers stay). Redirects (303) to the list.",
  request: { params: GroupPath },
  role: "admin",
  success: 303,
});

export const addMemberRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/contacts/{id}/members",
  summary: "Add a member",
  description:
    "One `{ email, name }` through POST /v1/contact-groups/{id}/members' `addMembers`: the customer is created when new (with the name), an existing customer keeps its name, an existing member is skipped. Redirects (303) to the group, saying which. An invalid address shows the page again (400).",
  request: { params: GroupPath, body: formBody(MemberForm) },
  role: "admin",
  success: 303,
});

export const importMembersRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/contacts/{id}/import",
  summary: "Import members from a CSV",
  description:
    "Pasted lines of `email,name` (the name optional, quotes as in CSV; a first line `email,name` is a header; blank lines are skipped), at most 1,000 rows, added in one call of `addMembers`, exactly as one POST /v1/contact-groups/{id}/members. Redirects (303) to the group with how many were added and skipped. A bad row shows the page again (400) with every bad line's number and reason and the text kept; then nothing is added.",
  request: { params: GroupPath, body: formBody(ImportForm) },
  role: "admin",
  success: 303,
});

export const removeMemberRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/contacts/{id}/members/{customer_id}/remove",
  summary: "Remove a member",
  description:
    "After the page's confirmation: `removeMember`, as DELETE /v1/contact-groups/{id}/members/{customer_id} (the customer stays). Redirects (303) to the group.",
  request: { params: MemberPath },
  role: "admin",
  success: 303,
});
