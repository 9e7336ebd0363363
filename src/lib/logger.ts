/**
 * Structured one-line JSON logs. Callers pass identifiers and codes only: never tokens, secrets,
 * message bodies, addresses or keys (see README "Secrets").
 */
type Fields = Record<string, string | number | boolean | null | undefined>;

function write(level: "info" | "warn" | "error", event: string, fields: Fields): void {
  const line = JSON.stringify({ level, event, time: new Date().toISOString(), ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

export const log = {
  info: (event: string, fields: Fields = {}) => write("info", event, fields),
  warn: (event: string, fields: Fields = {}) => write("warn", event, fields),
  error: (event: string, fields: Fields = {}) => write("error", event, fields),
};

const MAX_MESSAGE_LENGTH = 300;
const MAX_QUERY_LENGTH = 500;

/** An error and its causes, outermost first (drizzle wraps D1's error, which may wrap another). */
function chainOf(error: Error): Error[] {
  const chain: Error[] = [];
  for (let current: unknown = error; current instanceof Error && chain.length < 5; current = current.cause) {
    chain.push(current);
  }
  return chain;
}

/** drizzle's DrizzleQueryError leaves `name` as "Error"; its class says more. */
const nameOf = (error: Error) => (error.name === "Error" ? error.constructor.name || "Error" : error.name);

/** drizzle's DrizzleQueryError carries the SQL, with `?` placeholders, apart from its `params`. */
const queryOf = (error: Error): string | undefined => {
  const { query } = error as { query?: unknown };
  return typeof query === "string" ? query : undefined;
};

/** SQLite's result code (SQLITE_CONSTRAINT_TRIGGER...) or D1's (D1_TYPE_ERROR...) from a message. */
const codeIn = (message: string): string | undefined =>
  /\bSQLITE_[A-Z_]+/.exec(message)?.[0] ?? /^D1_[A-Z_]+/.exec(message)?.[0];

const clip = (text: string, length: number) => (text.length > length ? `${text.slice(0, length)}…` : text);

/** What might name a person or unlock something, taken out of a message that is not ours. */
const redact = (message: string) =>
  message
    .replace(/[^\s<>()[\]"',;:@]+@[^\s<>()[\]"',;:@]+/g, "<address>")
    .replace(/\b(sk|whsec|rly|ops)_[0-9A-Za-z_-]+/g, "$1_<redacted>");

/**
 * What a log may say about an unknown thrown value (never a response). A database error (drizzle's
 * or D1's, anywhere in the cause chain) gives its code and the query's SQL only: its message holds
 * every bound value, customer data included. Any other error gives its message with addresses
 * and tokens taken out.
 */
export function describeError(error: unknown): Fields {
  if (!(error instanceof Error)) {
    return { error_name: typeof error, error_message: clip(redact(String(error)), MAX_MESSAGE_LENGTH) };
  }
  const chain = chainOf(error);
  const query = chain.map(queryOf).find((q) => q !== undefined);
  // Not from drizzle's own message: its `params:` part is customer text.
  const code = chain
    .filter((e) => queryOf(e) === undefined)
    .map((e) => codeIn(e.message))
    .find((c) => c !== undefined);
  if (query !== undefined || code !== undefined) {
    return {
      error_name: nameOf(error),
      error_code: code ?? "unknown",
      ...(query !== undefined ? { error_query: clip(query.replace(/\s+/g, " "), MAX_QUERY_LENGTH) } : {}),
    };
  }
  return { error_name: nameOf(error), error_message: clip(redact(error.message), MAX_MESSAGE_LENGTH) };
}
