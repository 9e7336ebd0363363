import type { ViewFilters } from "./views.schemas";

export interface BuiltinView {
  id: string;
  name: string;
  filters: ViewFilters;
}

/**
 * The views every workspace has, first in every list. They are constants, not rows: a workspace
 * made by any path (signup, scripts, a move, a test's seed) has them without a write or a
 * backfill, and they cannot be changed or deleted. Their ids never collide with a row's
 * (`vw_` + a 26-character ULID).
 */
export const BUILTIN_VIEWS: readonly BuiltinView[] = [
  { id: "vw_unassigned", name: "Unassigned", filters: { status: "open", assignee_id: "none" } },
  { id: "vw_mine", name: "Mine", filters: { status: "open", assignee_id: "me" } },
  { id: "vw_all_open", name: "All open", filters: { status: "open" } },
];

export const builtinView = (id: string) => BUILTIN_VIEWS.find((view) => view.id === id);
