import { AppError } from "../../lib/errors";
import type { Problem } from "../inboxes/form-problem";
import { templateProblem } from "../templates/template-problems";

/**
 * What a campaign form or action shows beside itself: the forms' refusals (400, 403, 409), the
 * template checks' 422 (each value named) as the page's 400, and a template or version not of this
 * workspace (the API's 404) with the form kept. Another 404 (the campaign, a group) is the 404 page.
 */
export function campaignProblem(error: unknown): { problem: Problem; status: 400 | 404 | 409 } {
  if (error instanceof AppError && error.status === 404 && /^(Template|Version) /.test(error.detail ?? "")) {
    return { problem: { message: error.detail ?? error.error, details: [] }, status: 404 };
  }
  return templateProblem(error);
}
