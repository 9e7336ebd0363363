import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/**
 * `column` contains `text`, ignoring ASCII case (SQLite's LIKE). The caller's `%`, `_` and `\` are
 * escaped so that they match themselves, and the ESCAPE clause tells SQLite which character
 * escapes: without it a backslash is an ordinary character and `order_123` would find nothing.
 */
export function containsText(column: SQLWrapper, text: string): SQL {
  const pattern = `%${text.replace(/[\\%_]/g, "\\$&")}%`;
  return sql`${column} LIKE ${pattern} ESCAPE '\\'`;
}
