import { z } from "@hono/zod-openapi";
import { defineRoute } from "../../lib/openapi";

const RoundTripsSchema = z
  .object({
    total: z.number().int(),
    by_entry: z
      .object({
        fetch: z.number().int(),
        queue: z.number().int(),
        scheduled: z.number().int(),
        email: z.number().int(),
        workflow: z.number().int(),
        durable_object: z.number().int(),
        webhook_sender: z.number().int(),
      })
      .openapi({ description: "The same count split by where the work came in." }),
  })
  .openapi("DevD1RoundTrips");

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
