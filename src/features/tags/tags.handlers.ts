import { createRouter } from "../../lib/router";

export const tagsRouter = createRouter();
