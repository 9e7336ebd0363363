export const PERMISSIONS = ["read", "write", "admin"] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** What an operation needs: a key level, or nothing at all for the few public routes. */
export type Requirement = Permission | "public";

const RANK: Record<Permission, number> = { read: 1, write: 2, admin: 3 };

export function permits(held: Permission, needed: Permission): boolean {
  return RANK[held] >= RANK[needed];
}
