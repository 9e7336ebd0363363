import { iso, isoOrNull } from "../../lib/time";
import type { KeyRow } from "./keys.repo";

export function toApiKey(row: KeyRow) {
  return {
    id: row.id,
    name: row.name,
    key_prefix: row.keyPrefix,
    permission: row.permission,
    is_active: row.isActive,
    last_used_at: isoOrNull(row.lastUsedAt),
    created_at: iso(row.createdAt),
  };
}
