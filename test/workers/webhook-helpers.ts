import { env } from "cloudflare:workers";
import { callJson, domainConnection, eventually, seedWorkspace } from "./helpers";

declare global {
  namespace Cloudflare {
    interface Env {
      /** The loopback webhook receiver of test/support/webhook-receiver.ts. */
      WEBHOOK_TEST_URL: string;
    }
  }
}

export type Mode = "ok" | "fail" | "flaky" | "hang" | "redirect";

export interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

export interface Envelope {
  id: string;
  event: string;
  timestamp: string;
  data: Record<string, Record<string, unknown>>;
}

/** A receiver path of its own for each test, so concurrent files never read each other's requests. */
export function endpoint(mode: Mode = "ok") {
  const path = `/${crypto.randomUUID()}/${mode}`;
  return { path, url: `${env.WEBHOOK_TEST_URL}${path}` };
}

export async function receivedAt(path: string): Promise<Received[]> {
  const res = await fetch(`${env.WEBHOOK_TEST_URL}/_received?prefix=${encodeURIComponent(path)}`);
  return (await res.json()) as Received[];
}

/** Waits for `count` requests at `path`, then checks that no more arrive for a moment. */
export async function awaitDeliveries(path: string, count: number, settleMs = 1_500): Promise<Received[]> {
  await eventually(async () => (await receivedAt(path)).length >= count);
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  return receivedAt(path);
}

export const envelopesAt = async (path: string) =>
  (await receivedAt(path)).map((r) => JSON.parse(r.body) as Envelope);

/** The receiver's verdicts on a signature: the README's Node example and Stripe's verifier. */
export async function verifyElsewhere(body: string, header: string, secret: string) {
  const res = await fetch(`${env.WEBHOOK_TEST_URL}/_verify`, {
    method: "POST",
    body: JSON.stringify({ body, header, secret }),
  });
  return (await res.json()) as { readme: string; stripe: string };
}

export interface WebhookInput {
  url: string;
  events: string[];
  enabled?: boolean;
  secret?: string;
}

/** A workspace with an inbox carrying `webhooks`, made through the API as a user would. */
export async function inboxWithWebhooks(
  webhooks: WebhookInput[],
  options: {
    ws?: { accountId: string; token: string };
    emailAddress?: string;
    /** The shard of `ws`, or of the workspace made here: TEST_SHARD unless named. */
    shard?: string;
  } = {},
) {
  const ws = options.ws ?? (await seedWorkspace(options.shard ? { shard: options.shard } : {}));
  const emailAddress = options.emailAddress ?? `support-${crypto.randomUUID().slice(0, 8)}@acme.test`;
  await domainConnection(ws.accountId, emailAddress.slice(emailAddress.lastIndexOf("@") + 1), options.shard);
  const { status, body } = await callJson<{
    id: string;
    webhooks: Array<Required<WebhookInput>>;
  }>("POST", "/v1/inboxes", {
    token: ws.token,
    body: {
      name: "Support",
      email_address: emailAddress,
      webhooks: webhooks.map((w) => ({ enabled: true, ...w })),
    },
  });
  if (status !== 201) throw new Error(`inbox not created: ${status} ${JSON.stringify(body)}`);
  return { ws, inbox: body };
}

export async function openTicket(token: string, inboxId: string, subject = "Printer on fire") {
  const { status, body } = await callJson<{ id: string; client_id: string }>("POST", "/v1/tickets", {
    token,
    body: { inbox_id: inboxId, customer: { email: "ada@example.com", name: "Ada" }, subject },
  });
  if (status !== 201) throw new Error(`ticket not created: ${status} ${JSON.stringify(body)}`);
  return body;
}

export type Delivery = {
  id: string;
  url: string;
  status: string;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  attempted_at: string | null;
};

/** The event stream of a workspace, newest first, with delivery records. */
export async function streamOf(ws: { accountId: string; token: string }) {
  const { body } = await callJson<{
    data: Array<{ id: string; event: string; dispatched_at: string | null; deliveries: Delivery[] }>;
  }>("GET", `/v1/accounts/${ws.accountId}/events?limit=100`, { token: ws.token });
  return body.data;
}
