import type { TestProject } from "vitest/node";
import { startDohServer } from "./doh-server";
import "./provided-context";

/** Starts the loopback DNS-over-HTTPS resolver; vitest.config.ts binds it as DOH_RESOLVER_URL. */
export default async function setup(project: TestProject) {
  const doh = await startDohServer();
  project.provide("dohUrl", doh.url);
  return () => doh.close();
}
