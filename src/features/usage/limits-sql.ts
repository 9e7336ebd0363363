import { type SQL, sql } from "drizzle-orm";
import { PLAN_NAMES, PLANS, type QuotaName } from "../../lib/plans";

/**
 * SQL: the limit of `quota` in force for the accounts row aliased `account`, as the batch runs;
 * null is unlimited. The same answer as `limitsFor(plan, parseQuotaOverrides(quota_overrides))`,
 * for a write that checks its quota in the statement that makes it (no read of the plan first):
 * an override that is a number ≥ 0, or null, replaces the plan's limit; anything else in the
 * overrides (a string, a negative, malformed JSON) is ignored, as parseQuotaOverrides ignores it.
 * It binds no parameter (plan limits and quota names are constants written into the text): D1
 * allows 100 per statement, and the statements this goes into carry a whole email row.
 */
export function limitSql(quota: QuotaName, account: string): SQL {
  const table = sql.identifier(account);
  // json_type would raise on malformed JSON (failing the whole batch): such overrides count as none.
  const overrides = sql`(CASE WHEN json_valid(${table}.quota_overrides) THEN ${table}.quota_overrides ELSE '{}' END)`;
  const path = sql.raw(`'$.${quota}'`);
  const override = sql`json_extract(${overrides}, ${path})`;
  const planLimits = PLAN_NAMES.map((plan) => sql.raw(`WHEN '${plan}' THEN ${PLANS[plan][quota] ?? "NULL"}`));
  return sql`(CASE
    WHEN json_type(${overrides}, ${path}) = 'null' THEN NULL
    WHEN json_type(${overrides}, ${path}) IN ('integer', 'real') AND ${override} >= 0 THEN ${override}
    ELSE (CASE ${table}.plan ${sql.join(planLimits, sql` `)} ELSE NULL END) END)`;
}
