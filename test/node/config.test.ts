import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { QUEUE } from "../../src/jobs/queues";
import { CRONS } from "../../src/jobs/schedules";

const wrangler = parse(readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8")) as {
  minify?: boolean;
  upload_source_maps?: boolean;
  triggers: { crons: string[] };
  queues: {
    producers: Array<{ queue: string }>;
    consumers: Array<{ queue: string; dead_letter_queue?: string }>;
  };
  durable_objects: { bindings: Array<{ name: string; class_name: string }> };
  migrations: Array<{ new_sqlite_classes?: string[] }>;
};

describe("wrangler.toml", () => {
  it("triggers exactly the cron expressions the Worker handles", () => {
    expect([...wrangler.triggers.crons].sort()).toEqual([...CRONS].sort());
  });

  it("declares a consumer for every queue the code names, each work queue with the dead-letter queue", () => {
    const consumed = wrangler.queues.consumers.map((c) => c.queue).sort();
    expect(consumed).toEqual(Object.values(QUEUE).sort());
    for (const consumer of wrangler.queues.consumers) {
      if (consumer.queue !== QUEUE.deadLetters) expect(consumer.dead_letter_queue).toBe(QUEUE.deadLetters);
    }
    const produced = wrangler.queues.producers.map((p) => p.queue);
    for (const queue of [QUEUE.requestLogs, QUEUE.emailSend, QUEUE.webhookDispatch])
      expect(produced).toContain(queue);
  });

  it("declares the key guard as a SQLite-backed Durable Object", () => {
    expect(wrangler.durable_objects.bindings).toContainEqual({ name: "KEY_GUARD", class_name: "KeyGuard" });
    expect(wrangler.migrations.flatMap((m) => m.new_sqlite_classes ?? [])).toContain("KeyGuard");
  });

  it("ships the Worker minified, with its source map so stack traces still name the sources", () => {
    expect(wrangler.minify).toBe(true);
    expect(wrangler.upload_source_maps).toBe(true);
  });

  it("lists every secret in .dev.vars.example", () => {
    const example = readFileSync(new URL("../../.dev.vars.example", import.meta.url), "utf8");
    for (const name of ["ENCRYPTION_KEY", "OPS_TOKEN", "RELAY_TOKEN"])
      expect(example).toMatch(new RegExp(`^${name}=`, "m"));
  });
});
