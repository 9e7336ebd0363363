import { createServer } from "node:net";

/** Asks the OS for a free loopback port; others may already hold 8787 and friends on this machine. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      if (address === null || typeof address === "string") {
        probe.close();
        reject(new Error("could not read the probe socket's port"));
        return;
      }
      probe.close(() => resolve(address.port));
    });
  });
}

/**
 * Several distinct free ports. A probe's port is released before the next is asked, and the OS
 * may hand it out again at once (two calls in a row once gave one port twice in CI): a repeat is
 * asked again.
 */
export async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  return ports;
}
