import { createRouter } from "../../lib/router";

export const inboxesRouter = createRouter();
