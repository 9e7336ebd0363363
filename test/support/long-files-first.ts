import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Test files that take minutes, most of it waiting on processes they started (the crash test sits
 * through an email lease after its last restart; the dev-commands test boots `npm start` twice).
 * Started first, they run beside the rest of their group instead of being what the run ends on.
 * Earlier in the list starts earlier.
 */
export const LONG_FILES = ["test/node/crash-recovery.test.ts", "test/node/dev-commands.test.ts"];

/**
 * The Workers files that take longest, most of it waiting (a workspace move's settling, webhook
 * retries, SMTP deferrals), longest first: 20 to 60 s each in CI. Vitest orders a fresh clone's
 * files by size, having no timings yet, and there the longest of these started last and the run
 * ended on it alone (2026-11-30: `workspace-move-crash` from 350 to 411 s). Started right after
 * `LONG_FILES`, their waits overlap the other files' work.
 */
export const WAITING_WORKERS_FILES = [
  "test/workers/workspace-move-crash.test.ts",
  "test/workers/portal-forms.test.ts",
  "test/workers/webhooks-delivery.test.ts",
  "test/workers/suspended-webhooks.test.ts",
  "test/workers/workspace-move.test.ts",
  "test/workers/send-envelopes.test.ts",
];

const FIRST = [...LONG_FILES, ...WAITING_WORKERS_FILES];

const rankOf = (spec: TestSpecification) => {
  const rank = FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
  return rank < 0 ? FIRST.length : rank;
};

/**
 * Vitest's own order (its timings of earlier runs, else file size), with `LONG_FILES` and then
 * `WAITING_WORKERS_FILES` moved to the front.
 */
export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => rankOf(a.spec) - rankOf(b.spec) || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
