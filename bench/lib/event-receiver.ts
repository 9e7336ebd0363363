/**
 * A webhook receiver on loopback that judges what it gets rather than keeping it: each request's
 * `X-Service-Signature` (`t=<s>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed by the endpoint's
 * secret) is checked with node's crypto, not the service's signer, and event ids (`X-Webhook-Id`)
 * are counted once each, so 10,000 deliveries cost a Set, not 10,000 stored bodies.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** What one endpoint's path received. */
export class Tally {
  readonly ids = new Set<string>();
  duplicates = 0;
  badSignatures = 0;
  /** Signed, but not the event expected (another name, another campaign). */
  unexpected = 0;
  /** Date.now() of the request that brought the `wanted`-th distinct id. */
  reachedAt: number | undefined;

  constructor(
    readonly secret: string,
    /** Whether a verified body is one this tally waits for. */
    readonly expected: (body: { event: string; data: Record<string, unknown> }) => boolean,
    readonly wanted: number,
  ) {}
}

const validSignature = (header: string, body: string, secret: string) => {
  const t = /(?:^|,)t=(\d+)/.exec(header)?.[1];
  const v1 = /(?:^|,)v1=([0-9a-f]{64})/.exec(header)?.[1];
  if (!t || !v1) return false;
  const mac = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(mac, Buffer.from(v1, "hex"));
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export class EventReceiver {
  readonly #server: Server;
  readonly #tallies = new Map<string, Tally>();
  /** Requests to a path nobody tallies. */
  strays = 0;

  constructor() {
    this.#server = createServer((req, res) => {
      readBody(req).then(
        (body) => {
          this.#take(new URL(req.url ?? "/", "http://receiver").pathname, req, body);
          res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
        },
        () => res.writeHead(400).end(),
      );
    });
  }

  #take(path: string, req: IncomingMessage, body: string) {
    const tally = this.#tallies.get(path);
    if (!tally) {
      this.strays++;
      return;
    }
    if (!validSignature(String(req.headers["x-service-signature"] ?? ""), body, tally.secret)) {
      tally.badSignatures++;
      return;
    }
    const id = String(req.headers["x-webhook-id"] ?? "");
    if (!tally.expected(JSON.parse(body)) || id === "") tally.unexpected++;
    else if (tally.ids.has(id)) tally.duplicates++;
    else {
      tally.ids.add(id);
      if (tally.ids.size === tally.wanted) tally.reachedAt = Date.now();
    }
  }

  /** Starts counting what arrives at `path`, checked against `secret` (set once the endpoint exists). */
  tally(path: string, tally: Tally) {
    this.#tallies.set(path, tally);
    return tally;
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}
