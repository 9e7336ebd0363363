import { type Db, runBatch } from "../../db/client";
import { conflict, notFound } from "../../lib/errors";
import { idempotentCreate } from "../../lib/idempotent-create";
import { newId } from "../../lib/ids";
import { isUniqueViolation } from "../../lib/unique-violation";
import { toContactGroup } from "./contact-groups.dto";
import {
  type ContactGroupRow,
  contactGroupQueries,
  deleteContactGroup,
  findContactGroup,
  groupsNamedLike,
  groupsWithIds,
  insertContactGroupStatement,
  nameTakenByOther,
  updateContactGroup,
} from "./contact-groups.repo";
import type { CreateContactGroupInput, UpdateContactGroupInput } from "./contact-groups.schemas";

/** The stored `name_key`: group names are unique per workspace whatever their case. */
const groupNameKey = (name: string) => name.trim().toLowerCase();

const GROUP_NAME_INDEX = "contact_groups.account_id, contact_groups.name_key";

const groupExists = (name: string) =>
  conflict(
    "contact_group_exists",
    "Contact group already exists",
    `The workspace already has a contact group named ${JSON.stringify(name)}.`,
  );

export const groupNotFound = (id: string) => notFound(`Contact group ${id}`);

/** A page, newest first, and the workspace's total, in one round trip. */
export async function listContactGroups(db: Db, accountId: string, limit: number, offset: number) {
  const { page, total } = contactGroupQueries(db, accountId, limit, offset);
  const [rows, totals] = await db.batch([page, total]);
  return { groups: rows.map(toContactGroup), total: totals[0]?.total ?? 0 };
}

/**
 * What a group picker offers: the `chosen` groups of the workspace (whatever their age), then up
 * to `limit` others, newest first, those whose name contains `search` when one is given.
 */
export async function groupChoices(
  db: Db,
  accountId: string,
  chosen: string[],
  search: string | undefined,
  limit: number,
) {
  const others = search?.trim()
    ? groupsNamedLike(db, accountId, search, limit + chosen.length)
    : contactGroupQueries(db, accountId, limit + chosen.length, 0).page;
  const [picked, found] = await db.batch([groupsWithIds(db, accountId, chosen), others]);
  const pickedIds = new Set(picked.map((row) => row.id));
  return {
    chosen: picked.map(toContactGroup),
    others: found
      .filter((row) => !pickedIds.has(row.id))
      .slice(0, limit)
      .map(toContactGroup),
  };
}

/**
 * POST /v1/contact-groups. The unique (account_id, name_key) index decides, so two racing creations
 * cannot both succeed; the row and the idempotent answer commit in one batch.
 */
export async function createContactGroup(
  db: Db,
  accountId: string,
  input: CreateContactGroupInput,
  now = Date.now(),
  idempotencyKey?: string,
) {
  const request = { key: idempotencyKey, scope: "contact_groups", body: input };
  const created = await idempotentCreate({ db, accountId, now }, request, async (store) => {
    const row: ContactGroupRow = {
      id: newId("grp"),
      accountId,
      name: input.name,
      nameKey: groupNameKey(input.name),
      description: input.description || null,
      memberCount: 0,
      createdAt: now,
      updatedAt: now,
    };
    const answer = toContactGroup(row);
    try {
      await runBatch(db, [insertContactGroupStatement(db, row), ...store.answer(201, answer)]);
    } catch (error) {
      if (isUniqueViolation(error, GROUP_NAME_INDEX)) throw groupExists(input.name);
      throw error;
    }
    return { status: 201 as const, body: answer };
  });
  return created.body;
}

export async function getContactGroup(db: Db, accountId: string, id: string) {
  const row = await findContactGroup(db, accountId, id);
  if (!row) throw groupNotFound(id);
  return toContactGroup(row);
}

export async function patchContactGroup(
  db: Db,
  accountId: string,
  id: string,
  input: UpdateContactGroupInput,
  now = Date.now(),
) {
  if (!(await findContactGroup(db, accountId, id))) throw groupNotFound(id);
  const nameKey = input.name === undefined ? undefined : groupNameKey(input.name);
  if (input.name !== undefined && nameKey && (await nameTakenByOther(db, accountId, nameKey, id))) {
    throw groupExists(input.name);
  }
  let updated: ContactGroupRow | null;
  try {
    updated = await updateContactGroup(db, accountId, id, {
      name: input.name,
      nameKey,
      description: input.description === undefined ? undefined : input.description || null,
      updatedAt: now,
    });
  } catch (error) {
    if (input.name !== undefined && isUniqueViolation(error)) throw groupExists(input.name);
    throw error;
  }
  if (!updated) throw groupNotFound(id);
  return toContactGroup(updated);
}

/** Removes the group and its memberships; the customers stay. */
export async function removeContactGroup(db: Db, accountId: string, id: string) {
  if (!(await deleteContactGroup(db, accountId, id))) throw groupNotFound(id);
}
