/**
 * npm run directory:backfill [-- --remote]
 * Names in the directory the workspaces of `DB`, their API keys and inbox addresses, that it does
 * not name yet (those made before the directory existed). Idempotent. `npm start` runs it locally at every
 * start; `npm run deploy` runs it before and after deploying the Worker.
 */
import { parseArgs } from "node:util";
import { backfillDirectory } from "./lib/directory-backfill";

const { values } = parseArgs({ options: { remote: { type: "boolean", default: false } }, strict: true });
const counted = backfillDirectory(values.remote ? "remote" : "local");
console.log(
  `Directory: ${counted.workspaces} workspaces, ${counted.keys} API keys and ${counted.inboxes} inbox addresses of DB named (new ones added).`,
);
