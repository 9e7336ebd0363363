import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { verifyWebhook } from "../../examples/verify-webhook.mjs";

/** One request the receiver took, as it arrived. */
export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

/** How long `/hang` keeps a request open without answering: well past the 10 s delivery timeout. */
const HANG_MS = 30_000;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
};

/**
 * A real webhook receiver on loopback. POSTs to any path are recorded; the last path segment says
 * how to answer: `ok` (200), `fail` (500), `flaky` (500 to the path's first request, then 200),
 * `redirect` (302), `hang` (never answers). Tests read what
 * arrived with `GET /_received?prefix=/path`, and `POST /_verify` checks a signature with code
 * that is not the service's: the README's example and Stripe's own verifier.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  readonly #server: Server;
  readonly #hanging = new Set<ServerResponse>();

  constructor() {
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error) => json(res, 500, { error: String(error) }));
    });
  }

  async #handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://receiver");
    const body = await readBody(req);
    if (req.method === "GET" && url.pathname === "/_received") {
      const prefix = url.searchParams.get("prefix") ?? "/";
      return json(
        res,
        200,
        this.received.filter((r) => r.path.startsWith(prefix)),
      );
    }
    if (req.method === "POST" && url.pathname === "/_verify") return json(res, 200, await verifyBoth(body));
    this.received.push({
      method: req.method ?? "",
      path: url.pathname,
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
      body,
      receivedAt: Date.now(),
    });
    const mode = url.pathname.split("/").pop();
    if (mode === "hang") {
      this.#hanging.add(res);
      setTimeout(() => {
        this.#hanging.delete(res);
        res.destroy();
      }, HANG_MS).unref();
      return;
    }
    if (mode === "fail") return json(res, 500, { error: "receiver failure" });
    if (mode === "flaky" && this.received.filter((r) => r.path === url.pathname).length === 1) {
      return json(res, 500, { error: "receiver failure, this once" });
    }
    if (mode === "redirect") {
      res.writeHead(302, { location: `${url.pathname}-moved` });
      return res.end();
    }
    return json(res, 200, { ok: true });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const res of this.#hanging) res.destroy();
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

const stripe = new Stripe("sk_test_unused_by_signature_checks");

/** `{ body, header, secret }` checked by the README's verifier and by Stripe's. */
async function verifyBoth(request: string) {
  const { body, header, secret } = JSON.parse(request) as { body: string; header: string; secret: string };
  const attempt = async (check: () => unknown) => {
    try {
      await check();
      return "valid";
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
  return {
    readme: await attempt(() => verifyWebhook(body, header, secret)),
    stripe: await attempt(() => stripe.webhooks.constructEventAsync(body, header, secret, 300)),
  };
}
