import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Test files that take minutes, most of it waiting on processes they started (the crash test sits
 * through an email lease after its last restart; the dev-commands test boots `npm start` twice).
 * Started first, they run beside the rest of their group instead of being what the run ends on.
 * Earlier in the list starts earlier.
 */
export const LONG_FILES = ["test/node/crash-recovery.test.ts", "test/node/dev-commands.test.ts"];

const rankOf = (spec: TestSpecification) => {
  const rank = LONG_FILES.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
  return rank < 0 ? LONG_FILES.length : rank;
};

/** Vitest's own order (its timings of earlier runs, else file size), with `LONG_FILES` moved to the front. */
export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => rankOf(a.spec) - rankOf(b.spec) || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
