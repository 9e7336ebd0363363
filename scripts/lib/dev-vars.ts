import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./wrangler";

export const DEV_VARS = join(ROOT, ".dev.vars");

/** Writes .dev.vars with fresh secrets when it is missing; answers whether it did. */
export function ensureDevVars(): boolean {
  if (existsSync(DEV_VARS)) return false;
  const lines = [
    "# Written by `npm start` with fresh random secrets. Never commit this file.",
    `ENCRYPTION_KEY=${randomBytes(32).toString("base64")}`,
    `OPS_TOKEN=ops_${randomBytes(24).toString("base64url")}`,
    relayTokenLine(),
    "",
  ];
  writeFileSync(DEV_VARS, lines.join("\n"), { mode: 0o600 });
  return true;
}

const relayTokenLine = () => `RELAY_TOKEN=rly_${randomBytes(24).toString("base64url")}`;

/** Adds RELAY_TOKEN to a .dev.vars written before the SMTP relay existed; answers whether it did. */
export function ensureRelayToken(): boolean {
  if (readDevVar("RELAY_TOKEN")) return false;
  const current = readFileSync(DEV_VARS, "utf8");
  writeFileSync(DEV_VARS, `${current.replace(/\n*$/, "\n")}${relayTokenLine()}\n`, { mode: 0o600 });
  return true;
}

export function readDevVar(name: string): string | undefined {
  if (!existsSync(DEV_VARS)) return undefined;
  for (const line of readFileSync(DEV_VARS, "utf8").split("\n")) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match?.[1] === name) return match[2];
  }
  return undefined;
}

/**
 * The `--var` that tells `wrangler dev` on `port` its real origin as PUBLIC_BASE_URL, which ticket
 * pages and tracking links point at: wrangler.toml names the default port, 8787. A value the user
 * set wins: from the environment (passed on, as wrangler dev does not read it), else in .dev.vars
 * (which wrangler reads itself).
 */
export function publicBaseUrlArgs(
  port: number,
  env: Record<string, string | undefined> = process.env,
  fromDevVars: string | undefined = readDevVar("PUBLIC_BASE_URL"),
): string[] {
  if (env.PUBLIC_BASE_URL) return ["--var", `PUBLIC_BASE_URL:${env.PUBLIC_BASE_URL}`];
  if (fromDevVars) return [];
  return ["--var", `PUBLIC_BASE_URL:http://127.0.0.1:${port}`];
}
