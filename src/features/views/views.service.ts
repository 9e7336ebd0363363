import { AppError, badRequest, conflict, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import type { OffsetParams } from "../../lib/pagination";
import type { RequestContext } from "../../lib/request-context";
import { isoOrNull } from "../../lib/time";
import { listTickets } from "../tickets/tickets.service";
import { assertAssignable } from "../users/users.service";
import { BUILTIN_VIEWS, type BuiltinView, builtinView } from "./builtin-views";
import { checkViewSearch, countTickets, ticketFilterOf } from "./view-counts";
import {
  deleteView,
  findView,
  insertViewBelow,
  updateView,
  type ViewRow,
  visibleViewsQuery,
} from "./views.repo";
import {
  type CreateViewBodySchema,
  MAX_VIEWS,
  type UpdateViewBodySchema,
  type ViewFilters,
} from "./views.schemas";

type ViewsContext = Pick<RequestContext, "db" | "env" | "accountId" | "now">;

/** Who reads the views: an API key (every view by id) or a dashboard user (shared ones and theirs). */
export interface Viewer {
  /** Whose personal views are listed and who `me` is; null for an API call without `user_id`. */
  userId: string | null;
  seesEveryView: boolean;
}

type AnyView = BuiltinView | ViewRow;
const isRow = (view: AnyView): view is ViewRow => "accountId" in view;
const filtersOf = (view: AnyView): ViewFilters => (isRow(view) ? JSON.parse(view.filters) : view.filters);
/** A personal view's `me` is its owner; a shared view's is whoever reads it. */
const meOf = (view: AnyView, viewer: Viewer) =>
  isRow(view) ? (view.ownerUserId ?? viewer.userId) : viewer.userId;

function toView(view: AnyView, count: number | null) {
  const row = isRow(view) ? view : null;
  return {
    id: view.id,
    name: view.name,
    filters: filtersOf(view),
    shared: row?.ownerUserId == null,
    owner_user_id: row?.ownerUserId ?? null,
    builtin: row === null,
    count,
    created_at: isoOrNull(row?.createdAt ?? null),
    updated_at: isoOrNull(row?.updatedAt ?? null),
  };
}

/** The viewer of an API call: `user_id`, when given, must be an active user of the workspace. */
export async function apiViewer(ctx: ViewsContext, userId: string | undefined): Promise<Viewer> {
  await assertAssignable(ctx, userId, "query.user_id");
  return { userId: userId ?? null, seesEveryView: true };
}

async function withCounts(ctx: ViewsContext, views: AnyView[], viewer: Viewer) {
  const filters = views.map((view) => ticketFilterOf(filtersOf(view), meOf(view, viewer)));
  const counts = await countTickets(ctx.db, ctx.accountId, filters);
  return views.map((view, i) => toView(view, counts[i] ?? null));
}

/** The built-in views, then the workspace's shared views and the viewer's own, each with its count. */
export async function listViews(ctx: ViewsContext, viewer: Viewer) {
  const rows = await visibleViewsQuery(ctx.db, ctx.accountId, viewer.userId);
  const data = await withCounts(ctx, [...BUILTIN_VIEWS, ...rows], viewer);
  return { data, count: data.length };
}

async function viewOf(ctx: ViewsContext, id: string, viewer: Viewer): Promise<AnyView> {
  const builtin = builtinView(id);
  if (builtin) return builtin;
  const row = await findView(ctx.db, ctx.accountId, id);
  const visible =
    row && (viewer.seesEveryView || row.ownerUserId === null || row.ownerUserId === viewer.userId);
  if (!visible) throw notFound(`View ${id}`);
  return row;
}

export async function customViewOf(ctx: ViewsContext, id: string, viewer: Viewer): Promise<ViewRow> {
  const view = await viewOf(ctx, id, viewer);
  if (!isRow(view))
    throw conflict(
      "builtin_view",
      "Built-in view",
      `${view.name} is built in: it cannot be changed or deleted.`,
    );
  return view;
}

export async function showView(ctx: ViewsContext, id: string, viewer: Viewer) {
  const [view] = await withCounts(ctx, [await viewOf(ctx, id, viewer)], viewer);
  return view;
}

type CreateInput = (typeof CreateViewBodySchema)["_output"];
type UpdateInput = (typeof UpdateViewBodySchema)["_output"];

export async function createView(ctx: ViewsContext, input: CreateInput, viewer: Viewer) {
  const owner = input.owner_user_id ?? null;
  checkViewSearch(input.filters);
  await assertAssignable(ctx, owner, "body.owner_user_id");
  const row: ViewRow = {
    id: newId("vw"),
    accountId: ctx.accountId,
    ownerUserId: owner,
    name: input.name,
    filters: JSON.stringify(input.filters),
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  if (!(await insertViewBelow(ctx.db, row, MAX_VIEWS)))
    throw new AppError(
      409,
      "view_limit_reached",
      "View limit reached",
      `A workspace holds at most ${MAX_VIEWS} views besides the built-in ones.`,
      { limit: MAX_VIEWS },
    );
  return showView(ctx, row.id, viewer);
}

export async function changeView(ctx: ViewsContext, id: string, input: UpdateInput, viewer: Viewer) {
  await customViewOf(ctx, id, viewer);
  checkViewSearch(input.filters);
  await assertAssignable(ctx, input.owner_user_id, "body.owner_user_id");
  const updated = await updateView(ctx.db, ctx.accountId, id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.filters !== undefined ? { filters: JSON.stringify(input.filters) } : {}),
    ...(input.owner_user_id !== undefined ? { ownerUserId: input.owner_user_id } : {}),
    updatedAt: ctx.now,
  });
  if (!updated) throw notFound(`View ${id}`);
  // The caller could change it, so it may read it back whoever owns it now.
  return showView(ctx, id, { ...viewer, seesEveryView: true });
}

export async function removeView(ctx: ViewsContext, id: string, viewer: Viewer) {
  await customViewOf(ctx, id, viewer);
  if (!(await deleteView(ctx.db, ctx.accountId, id))) throw notFound(`View ${id}`);
}

/** A page of the tickets the view's filters match now, as GET /v1/tickets would list them. */
export async function viewTickets(ctx: ViewsContext, id: string, viewer: Viewer, page: OffsetParams) {
  const view = await viewOf(ctx, id, viewer);
  const filter = ticketFilterOf(filtersOf(view), meOf(view, viewer));
  if (!filter)
    throw badRequest(
      "user_required",
      "User required",
      "The view's filters name `me`: give `user_id`, the user to read it for.",
    );
  return listTickets(ctx, filter, page);
}
