import type { Db } from "../../db/client";
import { conflict, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isUniqueViolation } from "../../lib/unique-violation";
import { toTag } from "./tags.dto";
import {
  deleteTag,
  findTag,
  inboxBelongsTo,
  insertTag,
  nameTakenByOther,
  type TagRow,
  tagQuery,
  updateTag,
} from "./tags.repo";
import type { CreateTagInput, UpdateTagInput } from "./tags.schemas";

export { toTag };

/**
 * The stored `name_key`: names are unique per inbox whatever their case. Everything that looks
 * tags up by name (ticket tagging included) must fold names with this one function.
 */
export const tagNameKey = (name: string) => name.trim().toLowerCase();

const tagExists = (name: string) =>
  conflict("tag_exists", "Tag already exists", `The inbox already has a tag named ${JSON.stringify(name)}.`);

export async function listTags(db: Db, accountId: string, inboxId?: string) {
  return (await tagQuery(db, accountId, inboxId)).map(toTag);
}

export async function createTag(db: Db, accountId: string, input: CreateTagInput, now = Date.now()) {
  if (!(await inboxBelongsTo(db, accountId, input.inbox_id))) throw notFound(`Inbox ${input.inbox_id}`);
  const row = await insertTag(db, {
    id: newId("tag"),
    accountId,
    inboxId: input.inbox_id,
    name: input.name,
    nameKey: tagNameKey(input.name),
    color: input.color ?? null,
    createdAt: now,
  });
  // The unique (inbox_id, name_key) index decides, so two racing creations cannot both succeed.
  if (!row) throw tagExists(input.name);
  return toTag(row);
}

export async function getTag(db: Db, accountId: string, id: string) {
  const row = await findTag(db, accountId, id);
  if (!row) throw notFound(`Tag ${id}`);
  return toTag(row);
}

export async function patchTag(db: Db, accountId: string, id: string, input: UpdateTagInput) {
  const current = await findTag(db, accountId, id);
  if (!current) throw notFound(`Tag ${id}`);
  if (input.name !== undefined && (await nameTakenByOther(db, current.inboxId, tagNameKey(input.name), id))) {
    throw tagExists(input.name);
  }
  let updated: TagRow | null;
  try {
    updated = await updateTag(db, accountId, id, {
      name: input.name,
      nameKey: input.name === undefined ? undefined : tagNameKey(input.name),
      color: input.color,
    });
  } catch (error) {
    if (input.name !== undefined && isUniqueViolation(error)) throw tagExists(input.name);
    throw error;
  }
  if (!updated) throw notFound(`Tag ${id}`);
  return toTag(updated);
}

export async function removeTag(db: Db, accountId: string, id: string) {
  if (!(await deleteTag(db, accountId, id))) throw notFound(`Tag ${id}`);
}
