import { iso } from "../../lib/time";
import type { TagRow } from "./tags.repo";

export function toTag(row: TagRow) {
  return {
    id: row.id,
    inbox_id: row.inboxId,
    name: row.name,
    color: row.color,
    created_at: iso(row.createdAt),
  };
}
