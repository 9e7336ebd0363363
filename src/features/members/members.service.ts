import { countedList } from "../../lib/pagination";
import { toInvitation } from "../invitations/invitations.dto";
import { pendingInvitations } from "../invitations/invitations.repo";
import { toUser } from "../users/users.dto";
import { listUsers } from "../users/users.repo";
import type { PeopleContext } from "../users/users.service";

/** GET /v1/members: users, then pending invitations, read in one round trip. */
export async function listMembers(ctx: PeopleContext) {
  const [users, invitations] = await ctx.db.batch([
    listUsers(ctx.db, ctx.accountId),
    pendingInvitations(ctx.db, ctx.accountId, ctx.now),
  ]);
  return countedList([
    ...users.map((row) => ({ type: "user" as const, ...toUser(row) })),
    ...invitations.map((row) => ({ type: "invitation" as const, ...toInvitation(row, ctx.now) })),
  ]);
}
