/**
 * The cost of authentication: the same server answering the unauthenticated health check and the
 * cheapest authenticated read. Each authenticated request passes the key's rate limit (a lease of
 * its budget in the isolate, or the key-guard Durable Object) and a D1 read, so the ratio shows what
 * that path costs per request.
 */
import { interleaved, warmUp } from "../lib/measure";
import type { BenchContext, Measurement, Scenario, ScenarioResult } from "../lib/types";

/** Issue 17: an authenticated read within 0.7 of the runtime's floor. */
const GOAL_RATIO = 0.7;

export const apiBaseline: Scenario = {
  name: "api-baseline",
  description: "GET /health vs authenticated GET /v1/accounts",
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const health = { url: `${ctx.baseUrl}/health` };
    const accounts = { url: `${ctx.baseUrl}/v1/accounts`, headers: { Authorization: `Bearer ${ctx.token}` } };

    await warmUp(health);
    await warmUp(accounts);
    const [healthFigures, accountsFigures] = (await interleaved([
      { ...health, label: "GET /health", seconds: ctx.seconds },
      { ...accounts, label: "GET /v1/accounts", seconds: ctx.seconds },
    ])) as [Measurement, Measurement];
    const ratio = healthFigures.rps > 0 ? accountsFigures.rps / healthFigures.rps : 0;
    return {
      name: apiBaseline.name,
      measurements: [healthFigures, accountsFigures],
      goals: [
        {
          label: "ratio accounts/health req/s",
          value: ratio,
          target: `>= ${GOAL_RATIO}`,
          ratio: true,
          met: ratio >= GOAL_RATIO,
        },
      ],
    };
  },
};
