import { iso } from "../../lib/time";
import type { InvitationRow } from "./invitations.repo";

/** A pending invitation past its expiry is `expired`, whether or not a write has stored it so. */
export const invitationStatus = (row: InvitationRow, now: number) =>
  row.status === "pending" && row.expiresAt <= now ? "expired" : row.status;

export function toInvitation(row: InvitationRow, now: number) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: invitationStatus(row, now),
    expires_at: iso(row.expiresAt),
    invited_by: row.invitedBy,
    created_at: iso(row.createdAt),
  };
}
