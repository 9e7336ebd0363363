import { iso, isoOrNull } from "../../lib/time";
import type { CustomerRow } from "./customers.repo";

export function toCustomer(row: CustomerRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    phone: row.phone,
    blocked: row.blocked,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    unsubscribed: row.unsubscribed,
    unsubscribed_at: isoOrNull(row.unsubscribedAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
