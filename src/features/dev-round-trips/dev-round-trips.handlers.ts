import { createMiddleware } from "hono/factory";
import { d1CountingEnabled, d1RoundTrips } from "../../db/counting-d1";
import { setSimulatedRtt } from "../../db/simulated-rtt";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { createRouter } from "../../lib/router";
import { developmentOnly } from "../dev-mailbox/dev-mailbox.handlers";
import { d1RoundTripsRoute, simulatedRttRoute } from "./dev-round-trips.routes";

/** Without D1_ROUND_TRIPS=count nothing is counted: the same 404 as any unknown path, not zeros. */
const countingOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (!d1CountingEnabled(c.env)) {
    throw new AppError(
      404,
      "route_not_found",
      "Not found",
      `No route matches ${c.req.method} ${c.req.path}.`,
    );
  }
  await next();
});

export const devRoundTripsRouter = createRouter();
devRoundTripsRouter.use("/_dev/d1-round-trips", developmentOnly, countingOnly);
devRoundTripsRouter.use("/_dev/d1-simulated-rtt", developmentOnly, countingOnly);
devRoundTripsRouter.openapi(d1RoundTripsRoute, (c) => c.json(d1RoundTrips(), 200));
devRoundTripsRouter.openapi(simulatedRttRoute, (c) => {
  const rtt = c.req.valid("json");
  setSimulatedRtt(rtt);
  return c.json(rtt, 200);
});
