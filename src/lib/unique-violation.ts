/**
 * Whether a failed write broke a UNIQUE index. A check before an update leaves a window in which
 * another request can take the same key; the index then refuses the write and this lets the caller
 * answer 409 instead of 500. drizzle wraps D1's error, so the whole `cause` chain is searched.
 * `index` narrows it to one constraint, as SQLite names it (`table.column`).
 */
export function isUniqueViolation(error: unknown, index = ""): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current.message.includes(`UNIQUE constraint failed${index ? `: ${index}` : ""}`)) return true;
  }
  return false;
}
