import { createRouter } from "../../lib/router";

export const portalRouter = createRouter();
