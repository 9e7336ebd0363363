import { z } from "@hono/zod-openapi";
import { defineRoute, ErrorSchema, jsonBody, jsonResponse } from "../../lib/openapi";

const ByEntrySchema = z.object({
  fetch: z.number().int(),
  queue: z.number().int(),
  scheduled: z.number().int(),
  email: z.number().int(),
  workflow: z.number().int(),
  durable_object: z.number().int(),
  webhook_sender: z.number().int(),
});

const RoundTripsSchema = z
  .object({
    total: z.number().int(),
    by_entry: ByEntrySchema.openapi({ description: "The same count split by where the work came in." }),
    by_copy: z.object({ primary: ByEntrySchema, replica: ByEntrySchema }).openapi({
      description:
        "The same counts split by the copy of the database they would reach in production: a session started from a bookmark or `any` reads from a replica until its first write, everything else reaches the primary (locally there is only the one database).",
    }),
    statements: z.object({ total: z.number().int(), by_entry: ByEntrySchema }).openapi({
      description:
        "Statements those round trips carried (a batch of twelve is one round trip and twelve statements; `exec()` counts one): locally each statement's answer is turned into objects on its own, so a path's cost follows its statements too.",
    }),
  })
  .openapi("DevD1RoundTrips");

const SimulatedRttSchema = z
  .object({
    primary_ms: z.number().int().min(0).max(10_000),
    replica_ms: z.number().int().min(0).max(10_000),
  })
  .openapi("DevD1SimulatedRtt");

export const d1RoundTripsRoute = defineRoute("public", {
  method: "get",
  path: "/_dev/d1-round-trips",
  tags: ["Development"],
  summary: "D1 round trips so far (benchmarks)",
  description:
    "How many D1 round trips (a batch, an exec, or a prepared statement's run, all, first or raw) this isolate has made since it started, for the benchmarks to read before and after their work. A request with the header `X-D1-Round-Trips-Uncounted` is not counted. Only when ENVIRONMENT=development and D1_ROUND_TRIPS=count (404 otherwise). No authentication.",
  responses: {
    200: {
      description: "The counts.",
      content: { "application/json": { schema: RoundTripsSchema } },
    },
  },
});

export const simulatedRttRoute = defineRoute("public", {
  method: "put",
  path: "/_dev/d1-simulated-rtt",
  tags: ["Development"],
  summary: "Simulate the distance to D1 (benchmarks)",
  description:
    "Makes every D1 round trip of this isolate wait `primary_ms` when it would reach the primary and `replica_ms` when it would reach a replica (see `by_copy` of GET /_dev/d1-round-trips), until set again; zeros for both stop it. Same as starting with the var `D1_SIMULATED_RTT=primary:80,replica:5`. Only when ENVIRONMENT=development and D1_ROUND_TRIPS=count (404 otherwise). No authentication.",
  request: { body: jsonBody(SimulatedRttSchema) },
  responses: {
    200: jsonResponse(SimulatedRttSchema, "The round-trip times now simulated."),
    400: jsonResponse(ErrorSchema, "Not two whole numbers of milliseconds from 0 to 10000."),
  },
});
