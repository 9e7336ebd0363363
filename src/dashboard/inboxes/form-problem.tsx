import type { z } from "@hono/zod-openapi";
import { AppError } from "../../lib/errors";
import { validationError } from "../../lib/router";

/** What the API refused in a form, shown above it. */
export interface Problem {
  message: string;
  details: Array<{ path: string; message: string }>;
}

/**
 * A form's values read as the API reads its JSON body: through the API's own schema, whose
 * failure is the API's 400 (same paths, same messages).
 */
export function asApiBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw validationError(result.error.issues, "json");
  return result.data;
}

/**
 * The refusals a form shows beside itself, the values kept: invalid input (400), a domain the
 * workspace has not verified (the API's 403, a problem with the value typed) and conflicts (409).
 * Anything else (404, 429, 500) is rethrown to the error page.
 */
export function formProblem(
  error: unknown,
  /** More statuses that name a value the form chose (a template 404, values it refuses 422): shown as a 400. */
  alsoShown: number[] = [],
): { problem: Problem; status: 400 | 409 } {
  if (!(error instanceof AppError) || ![400, 403, 409, ...alsoShown].includes(error.status)) throw error;
  const details = (error.extras.details ?? []) as Problem["details"];
  // A validation error's detail only repeats its details in one line.
  const message = details.length > 0 ? error.error : (error.detail ?? error.error);
  return {
    problem: { message, details },
    status: error.status === 409 ? 409 : 400,
  };
}

export function ProblemNotice(props: { problem: Problem | undefined }) {
  const { problem } = props;
  if (!problem) return null;
  return (
    <div class="notice error" role="alert">
      <p>{problem.message}</p>
      {problem.details.length > 0 ? (
        <ul>
          {problem.details.map((d) => (
            <li>
              {d.path ? <code>{d.path}</code> : null} {d.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
