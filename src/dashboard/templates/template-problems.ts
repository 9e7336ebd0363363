import { AppError } from "../../lib/errors";
import { formProblem, type Problem } from "../inboxes/form-problem";

/**
 * The template editor's Content-Security-Policy: the dashboard's, with inline styles and https
 * images allowed. The preview's `srcdoc` document inherits its page's policy, and an email is
 * mostly inline styles; no style or image is ever written into the page itself (Hono escapes the
 * email into the attribute). Scripts stay this origin's only, and the sandboxed frame runs none.
 */
export const EDITOR_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src https: data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

interface MarkupError {
  field: string;
  line: number;
  column: number;
  message: string;
}

/**
 * What a template form shows beside itself: the form refusals every page shows (400, 403, 409),
 * and the template checks' 422 (markup with line and column; variables without a value, undeclared
 * or of the wrong type; a layout that cannot frame), shown as the page's 400. Anything else goes to the error page.
 */
export function templateProblem(error: unknown): { problem: Problem; status: 400 | 409 } {
  if (!(error instanceof AppError) || error.status !== 422) return formProblem(error);
  const markup = (error.extras.errors ?? []) as MarkupError[];
  const details = [
    ...markup.map((e) => ({ path: `${e.field} line ${e.line}, column ${e.column}`, message: e.message })),
    ...((error.extras.details ?? []) as Problem["details"]),
  ];
  // A 422 without a list (a layout not published, not a layout of this workspace) says why in its detail.
  const message = details.length === 0 && error.detail ? `${error.error}: ${error.detail}` : error.error;
  return { problem: { message, details }, status: 400 };
}
