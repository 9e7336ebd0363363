import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { templates } from "../db/schema";

/** How many templates a select offers besides those already chosen (a workspace rarely has more). */
const TEMPLATE_CHOICES = 100;
/** Chosen ids looked up at most (an automation has at most 50 steps); D1 binds 100 parameters. */
const CHOSEN_MAX = 50;

export interface TemplateChoice {
  id: string;
  name: string;
  alias: string | null;
  /** False: nothing to send yet (a step or campaign naming it is refused until it is published). */
  published: boolean;
}

const choiceColumns = {
  id: templates.id,
  name: templates.name,
  alias: templates.alias,
  publishedVersionId: templates.publishedVersionId,
};

const toChoice = (row: {
  id: string;
  name: string;
  alias: string | null;
  publishedVersionId: string | null;
}) => ({
  id: row.id,
  name: row.name,
  alias: row.alias,
  published: row.publishedVersionId !== null,
});

/** The two indexed queries of `templateChoices`: the chosen ids, and the newest hundred. */
export function templateChoiceQueries(db: Db, accountId: string, chosenIds: string[]) {
  const ofAccount = and(eq(templates.accountId, accountId), eq(templates.type, "template"));
  const chosen = [...new Set(chosenIds.filter(Boolean))].slice(0, CHOSEN_MAX);
  return [
    db
      .select(choiceColumns)
      .from(templates)
      .where(and(ofAccount, inArray(templates.id, chosen.length > 0 ? chosen : [""]))),
    db
      .select(choiceColumns)
      .from(templates)
      .where(ofAccount)
      .orderBy(desc(templates.id))
      .limit(TEMPLATE_CHOICES),
  ] as const;
}

/**
 * The workspace's templates (not layouts) for a select: those already chosen, whatever their age,
 * then the newest hundred others. A select that did not list an older chosen template would show
 * "no template" and drop it on the next save. Two indexed queries in one batch.
 */
export async function templateChoices(
  db: Db,
  accountId: string,
  chosenIds: string[],
): Promise<TemplateChoice[]> {
  const [named, newest] = await db.batch(templateChoiceQueries(db, accountId, chosenIds));
  const seen = new Set(named.map((row) => row.id));
  return [...named, ...newest.filter((row) => !seen.has(row.id))].map(toChoice);
}
