import { iso, isoOrNull } from "../../lib/time";
import type { UserRow } from "./users.repo";

export function toUser(row: UserRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    status: row.status,
    available: row.available,
    capacity: row.capacity,
    last_login_at: isoOrNull(row.lastLoginAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
