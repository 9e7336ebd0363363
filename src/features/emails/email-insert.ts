import { getTableColumns, is, SQL, sql } from "drizzle-orm";
import type { Db, Statement } from "../../db/client";
import { emails } from "../../db/schema";
import { accountSeqOf } from "./email-keys";
import type { NewEmailRow } from "./emails.repo";

/** Columns whose value a conditional insert reads as it runs (the sender connection's id). */
export type DerivedColumns = Partial<Record<keyof NewEmailRow, SQL>>;

/**
 * The statements that create one email with its recipients and tags (for runBatch). Its
 * acceptance is its own `created_at`: no event row repeats it.
 * With `onlyIf`, every one of them writes only when that condition holds as the batch runs: an
 * email that belongs to a conditional write (an invitation that needs a free seat) commits with it
 * in one batch, or not at all. `derived` columns take their value from SQL evaluated as the
 * conditional insert runs instead of from `row` (only with `onlyIf`).
 */
export function insertEmailStatements(
  db: Db,
  row: NewEmailRow,
  recipients: string[],
  tags: Array<{ name: string; value: string }>,
  onlyIf?: SQL,
  derived: DerivedColumns = {},
): Statement[] {
  return [insertEmailRow(db, row, onlyIf, derived), ...insertEmailChildren([{ row, recipients, tags }])];
}

/** One email's row (see `insertEmailStatements`), before its children. */
export function insertEmailRow(
  db: Db,
  row: NewEmailRow,
  onlyIf?: SQL,
  derived: DerivedColumns = {},
): Statement {
  const numbered = { ...row, accountSeq: accountSeqOf(row.accountId) };
  return onlyIf ? insertRowIf(numbered, onlyIf, derived) : db.insert(emails).values(numbered);
}

/** An email's children to insert after its row. */
export interface EmailChildren {
  row: Pick<NewEmailRow, "id" | "createdAt">;
  recipients: string[];
  tags: Array<{ name: string; value: string }>;
}

/**
 * The recipients and tags of these emails, one statement each for all of them, after the emails'
 * rows. They take each email's numbers from its row, so an email whose row was not written (its
 * condition did not hold) gets none.
 */
export function insertEmailChildren(children: EmailChildren[]): Statement[] {
  const json = JSON.stringify(
    children.map(({ row, recipients, tags }) => ({ id: row.id, at: row.createdAt, recipients, tags })),
  );
  const written = sql`json_each(${json}) AS j JOIN emails e ON e.id = j.value ->> '$.id'`;
  return [
    sql`
      INSERT OR IGNORE INTO email_recipients (email_seq, account_seq, address, created_at)
      SELECT e.seq, e.account_seq, r.value, j.value ->> '$.at'
      FROM ${written}, json_each(j.value, '$.recipients') AS r`,
    sql`
      INSERT INTO email_tags (email_seq, account_seq, name, value, position, created_at)
      SELECT e.seq, e.account_seq, t.value ->> 'name', t.value ->> 'value', t.key, j.value ->> '$.at'
      FROM ${written}, json_each(j.value, '$.tags') AS t`,
  ];
}

/**
 * A condition on each email of a group, for `insertEmailRowsIf`: SQL true as the batch runs when
 * that email may be written (a campaign recipient's claim), from the email's id and `keyOf` (what
 * else the condition reads of it, such as the recipient's customer id), both given as SQL.
 */
export interface EachOnlyIf {
  keyOf?: (row: NewEmailRow, index: number) => string;
  holds: (email: { id: SQL; key: SQL }) => SQL;
}

/**
 * A group's JSON stays under this many characters: at most three bytes each, well within the 2 MB
 * D1 allows a value. An email whose row alone is longer is inserted by itself, as before.
 */
const GROUP_CHARACTERS = 600_000;

/**
 * The rows of these emails, each written only when its own condition holds (`onlyIf`), in one
 * `INSERT ... SELECT ... FROM json_each(?)` for as many rows as GROUP_CHARACTERS allows rather
 * than one statement an email: locally each statement costs its own answer, and a campaign batch
 * writes a hundred emails. Each row travels as a JSON array of its columns' driver values (one
 * bound parameter, never D1's 100), read back as `j.value ->> '$[n]'`, in order, so the emails
 * take their `seq` in the order given. Rows are grouped by the columns they set, so that a
 * column a row leaves out still takes its default.
 */
export function insertEmailRowsIf(rows: NewEmailRow[], onlyIf: EachOnlyIf): Statement[] {
  const columns = getTableColumns(emails);
  const statements: Statement[] = [];
  const closed = (done: RowGroup) => {
    statements.push(groupInsert(done.fields, done.json, onlyIf));
    return null;
  };
  let group: RowGroup | null = null;
  for (const [i, row] of rows.entries()) {
    const key = onlyIf.keyOf?.(row, i) ?? "";
    const fields = (Object.keys(row) as Array<keyof NewEmailRow>).filter((field) => row[field] !== undefined);
    const values = fields.map((field) => columns[field].mapToDriverValue(row[field]));
    const json = JSON.stringify([...values, key]);
    if (json.length > GROUP_CHARACTERS) {
      if (group) group = closed(group);
      const condition = onlyIf.holds({ id: sql`${row.id}`, key: sql`${key}` });
      statements.push(insertRowIf({ ...row, accountSeq: accountSeqOf(row.accountId) }, condition, {}));
      continue;
    }
    const signature = fields.join(",");
    if (group && (group.signature !== signature || group.size + json.length > GROUP_CHARACTERS))
      group = closed(group);
    group ??= { fields, signature, json: [], size: 0 };
    group.json.push(json);
    group.size += json.length + 1;
  }
  if (group) closed(group);
  return statements;
}

/** Rows of `insertEmailRowsIf` that set the same columns, gathered for one statement. */
interface RowGroup {
  fields: Array<keyof NewEmailRow>;
  signature: string;
  json: string[];
  size: number;
}

/** One group of `insertEmailRowsIf`: every row's columns from its JSON array, its key last. */
function groupInsert(fields: Array<keyof NewEmailRow>, json: string[], onlyIf: EachOnlyIf): SQL {
  const columns = getTableColumns(emails);
  const at = (index: number) => sql.raw(`j.value ->> '$[${index}]'`);
  const id = at(fields.indexOf("id"));
  const names = sql.join(
    [...fields.map((field) => sql.identifier(columns[field].name)), sql.identifier(columns.accountSeq.name)],
    sql`, `,
  );
  const values = sql.join(
    [...fields.map((_, index) => at(index)), accountSeqOf(at(fields.indexOf("accountId")))],
    sql`, `,
  );
  return sql`INSERT INTO emails (${names})
    SELECT ${values} FROM json_each(${`[${json.join(",")}]`}) AS j
    WHERE ${onlyIf.holds({ id, key: at(fields.length) })}
    ORDER BY j.key`;
}

type NumberedEmailRow = NewEmailRow & { accountSeq: SQL };

/** `INSERT INTO emails (...) SELECT ... WHERE condition`, from the row's own fields. */
function insertRowIf(row: NumberedEmailRow, condition: SQL, derived: DerivedColumns): SQL {
  const columns = getTableColumns(emails);
  const fields = (Object.keys(row) as Array<keyof NumberedEmailRow>).filter((key) => row[key] !== undefined);
  const names = sql.join(
    fields.map((key) => sql.identifier(columns[key].name)),
    sql`, `,
  );
  const values = sql.join(
    fields.map((key) => {
      const value = row[key];
      return (
        (key in derived ? derived[key as keyof DerivedColumns] : undefined) ??
        (is(value, SQL) ? value : sql`${columns[key].mapToDriverValue(value)}`)
      );
    }),
    sql`, `,
  );
  return sql`INSERT INTO emails (${names}) SELECT ${values} WHERE ${condition}`;
}
