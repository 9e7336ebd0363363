import { createRoute, z } from "@hono/zod-openapi";
import { ErrorSchema } from "../../lib/openapi";

const errorContent = { "application/json": { schema: ErrorSchema } };

const MoveStateSchema = z
  .object({
    account_id: z.string(),
    from_shard: z.string(),
    to_shard: z.string(),
    step: z.string().openapi({
      description:
        "freezing, wiping, copying, verifying, sealing, switched, cleaning, aborting; `done` or `aborted` once over.",
    }),
    wait_ms: z.number().int().openapi({ description: "Wait this long before the next step." }),
    detail: z.string(),
  })
  .openapi("WorkspaceMove");

const params = z.object({
  account_id: z
    .string()
    .openapi({ param: { name: "account_id", in: "path" }, example: "acc_01J0000000000000000000000" }),
});

const common = {
  tags: ["Operator"],
  "x-permission": "operator",
  security: [{ opsToken: [] }],
  request: { params },
};

const answers = (what: string) => ({
  200: { description: what, content: { "application/json": { schema: MoveStateSchema } } },
  401: { description: "Missing or wrong operator token.", content: errorContent },
  404: { description: "No such workspace or move, or operator routes disabled.", content: errorContent },
});

const HOW =
  "Used by `npm run workspace:move -- <account id> <shard>`, authenticated with the deployment's `OPS_TOKEN`. A move freezes the workspace's writes (they get 503 `workspace_moving` with `Retry-After`; reads go on), waits until every isolate has seen the freeze and in-flight work has ended (30 s), copies every row in bounded steps, checks counts and a checksum of every table on both shards, switches the directory and ends the freeze, then deletes the old rows. Each step renews the freeze for 60 s: a command that stops lets it run out, and the move is then rolled back (the workspace stays whole on its shard) at its next step.";

export const beginMoveRoute = createRoute({
  ...common,
  method: "post",
  path: "/_ops/workspaces/{account_id}/move",
  summary: "Start moving a workspace to another shard (operator only)",
  description: `${HOW} Starting a move that is under way to the same shard answers it (the command resumes); to another shard is 409.`,
  request: {
    params,
    body: {
      required: true,
      content: { "application/json": { schema: z.object({ shard: z.string().min(1).max(64) }) } },
    },
  },
  responses: {
    ...answers("The move, frozen (or as it stands when resumed)."),
    400: { description: "A shard SHARDS does not name.", content: errorContent },
    409: { description: "Already on that shard, or being moved to another.", content: errorContent },
  },
});

export const stepMoveRoute = createRoute({
  ...common,
  method: "post",
  path: "/_ops/workspaces/{account_id}/move/step",
  summary: "Run one bounded step of a workspace's move (operator only)",
  description: `${HOW} One step copies, checks or deletes one page (a few hundred rows) and answers where the move stands.`,
  responses: answers("Where the move stands after the step."),
});
