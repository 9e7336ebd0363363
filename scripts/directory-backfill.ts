/**
 * npm run directory:backfill [-- --remote]
 * Names in the directory what `DB` holds that it does not name yet (made before the directory
 * existed, or before the directory named it): workspaces, API keys, unexpired sessions and sign-in
 * links, pending invitations' links, users' emails and inbox addresses. Idempotent. `npm start` runs it locally at
 * every start; `npm run deploy` runs it before and after deploying the Worker.
 */
import { parseArgs } from "node:util";
import { backfillDirectory } from "./lib/directory-backfill";

const { values } = parseArgs({ options: { remote: { type: "boolean", default: false } }, strict: true });
const counted = await backfillDirectory(values.remote ? "remote" : "local");
console.log(
  `Directory: of DB, ${counted.workspaces} workspaces, ${counted.keys} API keys, ${counted.sessions} sessions, ${counted.signInLinks} sign-in links, ${counted.invitations} pending invitations ${counted.memberEmails} users' emails and ${counted.inboxes} inbox addresses named (new ones added).`,
);
