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
