import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/**
 * An email's tags as the API shows them, a JSON array of { name, value } in the caller's order,
 * read from its `email_tags` rows (issue 29: the email's row no longer keeps a JSON copy). A
 * correlated subquery, so the query that reads the email reads its tags: no extra round trip.
 */
export const tagsJsonOf = (emailSeq: SQL | SQLiteColumn): SQL<string> =>
  sql<string>`(SELECT json_group_array(json_object('name', ordered.name, 'value', ordered.value)) FROM (
    SELECT name, value FROM email_tags WHERE email_tags.email_seq = ${emailSeq} ORDER BY position) AS ordered)`;
