/**
 * npm run inbound -- --to <address> [--from <address>] [--url <base URL>] [file.eml]
 * Delivers a message (the file, or stdin) to the locally running service's email() handler, as
 * Cloudflare Email Routing would in production, and prints what became of it. --from defaults to
 * the message's From address; --url to http://127.0.0.1:$PORT (8787).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { deliverInbound, fromHeaderAddress } from "./lib/inbound";

const { values, positionals } = parseArgs({
  options: { to: { type: "string" }, from: { type: "string" }, url: { type: "string" } },
  allowPositionals: true,
});
const file = positionals[0];
const raw = readFileSync(file ?? 0, "utf8");
const from = values.from ?? fromHeaderAddress(raw);
if (!values.to || !from) {
  console.error("usage: npm run inbound -- --to <address> [--from <address>] [--url <base URL>] [file.eml]");
  console.error(values.to ? "The message has no From address: give --from." : "--to is required.");
  process.exit(2);
}

const baseUrl = values.url ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`;
try {
  const result = await deliverInbound({ baseUrl, from, to: values.to, raw });
  console.log(result.reason ? `${result.outcome}: ${result.reason}` : result.outcome);
  process.exit(result.outcome === "accepted" ? 0 : 1);
} catch (error) {
  console.error(`Could not reach ${baseUrl} (is \`npm start\` running?): ${String(error)}`);
  process.exit(1);
}
