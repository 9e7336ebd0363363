import { iso } from "../../lib/time";
import { toCustomer } from "../customers/customers.service";
import type { ContactGroupRow } from "./contact-groups.repo";
import type { MemberRow } from "./members.repo";

export function toContactGroup(row: ContactGroupRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    member_count: row.memberCount,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function toMember({ addedAt, ...customer }: MemberRow) {
  return { ...toCustomer(customer), added_at: iso(addedAt) };
}
