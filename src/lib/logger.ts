/**
 * Structured one-line JSON logs. Callers pass identifiers and codes only: never tokens, secrets,
 * message bodies or keys (see README "Secrets").
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

/** The name and message of an unknown thrown value, for logs only (never for responses). */
export function describeError(error: unknown): { error_name: string; error_message: string } {
  if (error instanceof Error) return { error_name: error.name, error_message: error.message };
  return { error_name: "unknown", error_message: String(error) };
}
