import { ne } from "drizzle-orm";
import { users } from "../../db/schema";
import { forbidden } from "../../lib/errors";

/**
 * Who acts on the team: a signed-in person's role. An API key acts as an admin, never as an
 * owner: any admin can create an admin key, so a key must not hold more than an admin's power.
 */
export type TeamActor = "owner" | "admin" | "agent";
export const API_KEY_ACTOR: TeamActor = "admin";

export const ownerRequired = () =>
  forbidden(
    "owner_required",
    "Only an owner can grant or remove the owner role, or disable, enable or remove an owner.",
  );

/** Granting the owner role (a role change, a new member, an invitation) is an owner's act. */
export function assertMayGrant(actor: TeamActor, role: string | undefined) {
  if (role === "owner" && actor !== "owner") throw ownerRequired();
}

/**
 * The condition a non-owner's change of someone's role or status, or removal, carries: the target
 * is no owner at the moment of the write, so a promotion racing the change cannot slip through.
 */
export const notAnOwnerUnlessOwner = (actor: TeamActor) =>
  actor === "owner" ? undefined : ne(users.role, "owner");
