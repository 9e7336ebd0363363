/** The entry file as production runs it: listens, and on SIGTERM lets the session in flight finish. */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closedPort } from "./support/failing-api";
import { ctx, rawSession } from "./support/relay";

const MAIN = new URL("../src/main.ts", import.meta.url).pathname;

describe("smtp-relay/src/main.ts", () => {
  it("listens, and on SIGTERM answers the open session, stops accepting and exits 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "relay-main-"));
    writeFileSync(join(dir, "cert.pem"), ctx().certificate.cert);
    writeFileSync(join(dir, "key.pem"), ctx().certificate.key);
    const port = await closedPort();
    const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
      env: {
        ...process.env,
        SMTP_PORT: String(port),
        SMTP_TLS_CERT: join(dir, "cert.pem"),
        SMTP_TLS_KEY: join(dir, "key.pem"),
        RELAY_API_URL: ctx().workerUrl,
        RELAY_TOKEN: ctx().relayToken,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const deadline = Date.now() + 30_000;
    while (!output.includes("listening")) {
      if (Date.now() > deadline) throw new Error(output);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(output).toContain(`listening on 127.0.0.1:${port}`);

    const session = rawSession(port);
    await session.waitFor(/^220 /m);
    child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const late = rawSession(port);
    await late.closed;
    expect(late.received()).toBe("");
    session.write("NOOP");
    // In flight: the session still gets an answer (smtp-server says it is shutting down), then it ends.
    await session.waitFor(/^(250|421) /m);
    session.socket.end();
    expect(await exited).toBe(0);
    expect(output).toContain("SIGTERM, finishing sessions in flight");
  });
});
