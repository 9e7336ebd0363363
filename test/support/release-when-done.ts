/// <reference types="vitest/config" />
import type { Reporter, TestModule, TestProject, TestSpecification, Vite } from "vitest/node";

/**
 * Vitest runs every project's global setup before the first file of the run and tears them all
 * down after the last (`Vitest.close`), so the servers the browser and relay setups start (a
 * `wrangler dev` each, and a Chromium) sat idle for minutes of `npm test`: from their own group's
 * end to the end of the run, while the Workers files kept both cores busy. Idle, a `wrangler dev`
 * still costs about 40 ms of CPU a second (wrangler's file watching and esbuild's polling).
 *
 * `releaseWhenDone(project, release)` in a global setup, with `releaseWhenDonePlugin()` in that
 * project's plugins, calls `release` as soon as the last of the project's files in this run has
 * ended; the setup's teardown calls the same function, which runs once. In watch mode nothing is
 * released early: a rerun needs the servers again.
 */
const RELEASE = Symbol.for("support-mail.release-when-done");

type Releasable = TestProject & { [RELEASE]?: () => Promise<void> };

/**
 * Wraps `release` so that it runs once (a failed release may be tried again, as the teardown
 * does), and hands it to the plugin's reporter through the project.
 */
export function releaseWhenDone(project: TestProject, release: () => Promise<void>): () => Promise<void> {
  let released: Promise<void> | undefined;
  const once = () => {
    released ??= release().catch((error: unknown) => {
      released = undefined;
      throw error;
    });
    return released;
  };
  // A symbol on the project object: the config and a global setup load this file as two separate
  // module instances (the config is bundled, the setup runs in Vitest's module runner), yet both
  // are handed the same TestProject.
  (project as Releasable)[RELEASE] = once;
  return once;
}

/** Counts the project's files in the run and releases its servers after the last one ends. */
class ReleaseReporter implements Reporter {
  private pending = 0;

  constructor(
    private readonly project: TestProject,
    private readonly watching: boolean,
  ) {}

  private owns(project: TestProject) {
    return project.name === this.project.name;
  }

  onTestRunStart(specifications: readonly TestSpecification[]) {
    this.pending = specifications.filter((spec) => this.owns(spec.project)).length;
  }

  async onTestModuleEnd(module: TestModule) {
    if (this.watching || !this.owns(module.project)) return;
    this.pending -= 1;
    if (this.pending > 0) return;
    await (this.project as Releasable)[RELEASE]?.().catch((error: unknown) => {
      // The teardown at the end of the run tries again and reports what still fails.
      console.warn(`${this.project.name}: releasing the global setup's servers failed:`, error);
    });
  }
}

export function releaseWhenDonePlugin(): Vite.Plugin {
  return {
    name: "support-mail:release-when-done",
    configureVitest({ vitest, project }) {
      // configureVitest runs before Vitest creates its reporters, after the command line's
      // `--reporter` flags were merged in, so this reporter is added to whichever were chosen.
      vitest.config.reporters.push(new ReleaseReporter(project, vitest.config.watch));
    },
  };
}
