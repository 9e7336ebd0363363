import { type After, type PageRead, pageOf, pageRead, type Row } from "./pages";
import { checkedPasses, columnsOf, type MovedTable } from "./tables";

/** A table's rows of one workspace on one side: how many, and the sum of their hashes. */
export interface Tally {
  count: number;
  /** Sum of the rows' 48-bit hashes, modulo 2^48: the same rows in any order give the same sum. */
  sum: number;
}

/** Where the check stands: the table, each side's walk over it, each side's tally so far. */
export interface CheckCursor {
  table: number;
  source: { after: After; done: boolean; tally: Tally };
  target: { after: After; done: boolean; tally: Tally };
}

export const firstCheck = (table = 0): CheckCursor => ({
  table,
  source: { after: null, done: false, tally: { count: 0, sum: 0 } },
  target: { after: null, done: false, tally: { count: 0, sum: 0 } },
});

const MODULUS = 2 ** 48;

/**
 * What a row must be the same in on both sides: every column but the numbers the target gives
 * anew and the columns it fills from its own rows, plus what stands for them (a parent's text key).
 */
function canonical(pass: MovedTable, row: Row): string {
  const skipped = new Set([pass.renumbered, ...Object.keys(pass.computed ?? {}), ...(pass.unchecked ?? [])]);
  const columns = columnsOf(pass.table).filter((c) => !skipped.has(c));
  const extras = (pass.extras ?? []).map((_, i) => row[`__x${i}`] ?? null);
  return JSON.stringify([...columns.map((c) => row[c] ?? null), ...extras]);
}

async function tallied(pass: MovedTable, rows: Row[], tally: Tally): Promise<Tally> {
  let { count, sum } = tally;
  for (const row of rows) {
    const digest = new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical(pass, row))),
    );
    let hash = 0;
    for (let i = 0; i < 6; i++) hash = hash * 256 + (digest[i] as number);
    sum = (sum + hash) % MODULUS;
    count++;
  }
  return { count, sum };
}

export type CheckOutcome =
  | { kind: "checking"; cursor: CheckCursor }
  | { kind: "differ"; table: string; source: Tally; target: Tally }
  | { kind: "same" };

/**
 * Reads the next page of the current table on each side not done with it; once both are done,
 * compares counts and sums, and goes on to the next table or says which table differs.
 */
export async function checkPage(
  source: D1Database,
  target: D1Database,
  accountId: string,
  cursor: CheckCursor,
): Promise<CheckOutcome> {
  const passes = checkedPasses();
  const pass = passes[cursor.table];
  if (!pass) return { kind: "same" };
  const sides = await Promise.all(
    (
      [
        [source, cursor.source],
        [target, cursor.target],
      ] as const
    ).map(async ([d1, side]) => {
      if (side.done) return side;
      const { rows, next } = await pageOf(d1, pass, accountId, side.after);
      return { after: next, done: next === null, tally: await tallied(pass, rows, side.tally) };
    }),
  );
  const [from, to] = sides as [CheckCursor["source"], CheckCursor["target"]];
  if (!from.done || !to.done)
    return { kind: "checking", cursor: { table: cursor.table, source: from, target: to } };
  if (from.tally.count !== to.tally.count || from.tally.sum !== to.tally.sum)
    return { kind: "differ", table: pass.table, source: from.tally, target: to.tally };
  return cursor.table + 1 >= passes.length
    ? { kind: "same" }
    : { kind: "checking", cursor: firstCheck(cursor.table + 1) };
}

/**
 * Every table's tally on one side (tests, and the operator's record of a move): the first page of
 * every table in one batch, then the further pages of the tables that have more.
 */
export async function tallyAll(d1: D1Database, accountId: string): Promise<Record<string, Tally>> {
  const passes = checkedPasses();
  const firstPages = passes.map((pass) => pageRead(d1, pass, accountId, null));
  const answers = await d1.batch<Row>(firstPages.flatMap((page) => page.statements));
  const tallies: Record<string, Tally> = {};
  let at = 0;
  for (const [i, pass] of passes.entries()) {
    const first = firstPages[i] as PageRead;
    let page = first.read(answers.slice(at, at + first.statements.length));
    at += first.statements.length;
    let tally = await tallied(pass, page.rows, { count: 0, sum: 0 });
    while (page.next !== null) {
      page = await pageOf(d1, pass, accountId, page.next);
      tally = await tallied(pass, page.rows, tally);
    }
    tallies[pass.table] = tally;
  }
  return tallies;
}
