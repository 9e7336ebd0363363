import { createRouter } from "../../lib/router";

export const customersRouter = createRouter();
