import { parseArgs } from "node:util";
import { readDevVar } from "./dev-vars";

/**
 * The arguments of a command that drives the running Worker's operator routes (`/_ops/...`): its
 * positionals (`usage` is printed and the command exits 2 unless there are `count`), the server
 * (the local one on $PORT, or `--remote --url`) and the OPS_TOKEN (the environment's, else the
 * local .dev.vars').
 */
export function opsCommand(usage: string, count: number) {
  const { values, positionals } = parseArgs({
    options: { remote: { type: "boolean", default: false }, url: { type: "string" } },
    allowPositionals: true,
  });
  if (positionals.length < count) {
    console.error(`usage: ${usage} [--remote --url <deployed base URL>]`);
    process.exit(2);
  }
  const baseUrl = values.url ?? (values.remote ? undefined : `http://127.0.0.1:${process.env.PORT ?? 8787}`);
  const opsToken = process.env.OPS_TOKEN ?? (values.remote ? undefined : readDevVar("OPS_TOKEN"));
  if (!baseUrl || !opsToken) {
    console.error("--remote needs --url and the OPS_TOKEN environment variable.");
    process.exit(2);
  }
  return { positionals, remote: values.remote, baseUrl, opsToken };
}
