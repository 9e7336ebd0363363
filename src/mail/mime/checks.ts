/**
 * What buildMime refuses, as input checks. Each runs the builder's own code on the caller's text,
 * so the API refuses at accept time exactly what could never be built: the two cannot disagree.
 */
import { customHeaderLines } from "./custom-headers";
import { subjectLine } from "./fold";
import { checkMediaType } from "./params";
import { contentIdHeader } from "./parts";

/** The message `check` throws, or null when it passes. */
function problemOf(check: () => unknown): string | null {
  try {
    check();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export const subjectProblem = (subject: string) => problemOf(() => subjectLine(subject));

export const headersProblem = (headers: Record<string, string>) =>
  problemOf(() => customHeaderLines(headers));

export const mediaTypeProblem = (contentType: string) => problemOf(() => checkMediaType(contentType));

export const contentIdProblem = (contentId: string) => problemOf(() => contentIdHeader(contentId));
