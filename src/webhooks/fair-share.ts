import { type SQL, sql } from "drizzle-orm";

/** A sweep's table, cut into groups that must not starve each other (endpoints, workspaces). */
export interface FairSweep {
  table: string;
  /** The column naming a row's group. */
  group: string;
  /** Rows still to send: the predicate of a partial index on (group, order) of `table`. */
  open: SQL;
  /** Which open rows are due now, in terms of `order`. */
  due: SQL;
  /** The column the due rows of a group are taken in, oldest first. */
  order: string;
  /** Whether a group's rows may go at all (the workspace gate); held groups take no share. */
  mayGo: (group: SQL) => SQL;
  /** At most this many rows per run. */
  budget: number;
}

/**
 * The ids of the rows a sweep takes, shared fairly: every group with a due row that may go gets
 * an equal share of the budget (all of it when alone, at least one), its oldest due rows first,
 * so one group's backlog, however large, costs another group nothing but its share. When more
 * groups are due than the budget has rows, the groups whose oldest due rows are oldest go first.
 *
 * The groups are found by a skip scan of the partial index, one step per group with open rows,
 * never by reading their rows; each group's share is a range of the same index. So the cost is
 * the number of groups with open rows plus the budget, whatever the size of the backlogs, and a
 * held group's rows (a suspended workspace's) are never read, only its gate. The budget is cast
 * before it is divided: D1 binds a JavaScript number as a REAL, and a share such as 500 / 3 must
 * be a whole LIMIT (SQLite refuses 166.67 as one).
 */
export function fairDueRows(s: FairSweep): SQL {
  const table = sql.identifier(s.table);
  const group = sql.identifier(s.group);
  const order = sql.identifier(s.order);
  return sql`WITH RECURSIVE grp(id) AS (
      SELECT ''
      UNION ALL
      SELECT (SELECT ${group} FROM ${table} WHERE ${s.open} AND ${group} > grp.id ORDER BY ${group} LIMIT 1)
      FROM grp WHERE grp.id IS NOT NULL
    ),
    ready AS MATERIALIZED (
      SELECT grp.id FROM grp
      WHERE grp.id != ''
        AND EXISTS (SELECT 1 FROM ${table} WHERE ${group} = grp.id AND ${s.open} AND ${s.due})
        AND ${s.mayGo(sql`grp.id`)}
    ),
    share AS MATERIALIZED (SELECT max(1, CAST(${s.budget} AS INTEGER) / count(*)) AS n FROM ready)
    SELECT taken.id AS id FROM ready JOIN ${table} AS taken ON taken.id IN (
      SELECT id FROM ${table} WHERE ${group} = ready.id AND ${s.open} AND ${s.due}
      ORDER BY ${order} LIMIT (SELECT n FROM share))
    ORDER BY taken.${order} LIMIT ${s.budget}`;
}
