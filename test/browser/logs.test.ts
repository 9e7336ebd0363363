import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { WORKER_SECRETS } from "../../smtp-relay/test/support/running-worker";
import { sha256Hex } from "../../src/lib/crypto";
import { api, apiKey, connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

const { chromium } = inject("browser");

/** A real webhook receiver on loopback that answers 200 and counts what arrives. */
async function startReceiver(): Promise<{ url: string; received: string[]; server: Server }> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, server };
}

/** Reloads until `check` passes: logs and deliveries arrive a moment after the action. */
async function reloadUntil(page: Page, check: () => Promise<boolean>) {
  await expect
    .poll(
      async () => {
        if (await check()) return true;
        await page.reload();
        return false;
      },
      { timeout: 20_000, interval: 500 },
    )
    .toBe(true);
}

describe.skipIf(!chromium)("logs and events pages in a real Chromium", () => {
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    browser = await connectChromium();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await browser?.close();
    receiver?.server.close();
  });

  it("logs and events pages listing what the test just did", async () => {
    const unique = crypto.randomUUID().slice(0, 8);
    // API calls with the workspace's key: one that works, one that fails.
    expect((await api("GET", "/v1/tickets?limit=3")).status).toBe(200);
    const missing = await api("GET", "/v1/tickets/tkt_nope");
    expect(missing.status).toBe(404);
    const requestId = missing.headers.get("X-Request-Id") as string;

    // An event with a delivery: a ticket in a fresh inbox whose webhook is our receiver.
    const inboxName = `Logs ${unique}`;
    const inbox = await api("POST", "/v1/inboxes", {
      name: inboxName,
      email_address: `logs-${unique}@example.com`,
      webhooks: [{ url: receiver.url, events: ["ticket.created"], enabled: true }],
    });
    expect(inbox.status).toBe(201);
    const inboxId = ((await inbox.json()) as { id: string }).id;
    const ticket = await api("POST", "/v1/tickets", {
      inbox_id: inboxId,
      customer: { email: `ada-${unique}@example.com`, name: "Ada" },
      subject: `Logs test ${unique}`,
    });
    expect(ticket.status).toBe(201);

    // An SMTP log row, posted the way the relay records one.
    const sender = `relay-${unique}@example.com`;
    const relay = await fetch(`${workerUrl}/_relay/smtp-logs`, {
      method: "POST",
      headers: { Authorization: `Bearer ${WORKER_SECRETS.RELAY_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        logs: [
          {
            session_id: `browser-${unique}`,
            client_ip: "203.0.113.7",
            tls: "TLSv1.3",
            auth: "succeeded",
            key_hash: await sha256Hex(apiKey),
            mail_from: sender,
            rcpt_to: ["ada@example.com", "bob@example.com"],
            size: 3210,
            outcome: "rejected",
            reply_code: 550,
            reply: "550 5.7.1 Sender domain not verified",
            email_id: null,
            at: new Date().toISOString(),
          },
        ],
      }),
    });
    expect(relay.status).toBe(200);

    const { page, errors } = await signedInPage(browser, "agent");
    await page.goto(`${workerUrl}/dashboard`);

    // Request logs, filtered by status 404: the failing call is there; its detail view.
    await page.getByRole("link", { name: "Request logs", exact: true }).click();
    await page.getByLabel("Status").fill("404");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/status=404/);
    await reloadUntil(page, async () => (await page.getByRole("link", { name: requestId }).count()) === 1);
    expect(await page.getByRole("cell", { name: "200", exact: true }).count()).toBe(0);
    await screenshot(page, "request-logs");
    await page.getByRole("link", { name: requestId }).click();
    await page.getByRole("heading", { name: "Request log" }).waitFor();
    const detail = await page.textContent("main");
    expect(detail).toContain("GET /v1/tickets/tkt_nope");
    expect(detail).toContain("not_found");
    expect(detail).toContain(apiKey.slice(0, 10));
    expect(detail).not.toContain(apiKey);
    await screenshot(page, "request-log");

    // SMTP logs, filtered by outcome.
    await page.getByRole("link", { name: "SMTP logs", exact: true }).click();
    await page.getByRole("combobox", { name: "Outcome" }).selectOption("rejected");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/outcome=rejected/);
    const smtpRow = page.getByRole("row").filter({ hasText: sender });
    expect(await smtpRow.count()).toBe(1);
    expect(await smtpRow.textContent()).toContain("Sender domain not verified");
    await screenshot(page, "smtp-logs");

    // Events, filtered by the event name and the fresh inbox: the ticket's event and its delivery.
    await page.getByRole("link", { name: "Events", exact: true }).click();
    await page.getByRole("combobox", { name: "Event" }).selectOption("ticket.created");
    await page
      .getByRole("combobox", { name: "Inbox" })
      .selectOption({ label: `${inboxName} (logs-${unique}@example.com)` });
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/inbox_id=/);
    await reloadUntil(page, async () => (await page.getByText("1 succeeded").count()) === 1);
    expect(await page.getByRole("link", { name: "ticket.created" }).count()).toBe(1);
    await screenshot(page, "events");
    await page.getByRole("link", { name: "ticket.created" }).click();
    await page.getByRole("heading", { name: "Event ticket.created" }).waitFor();
    const delivery = page.getByRole("row").filter({ hasText: receiver.url });
    expect(await delivery.textContent()).toMatch(/succeeded\s*200\s*\d+ ms/);
    expect(await page.textContent("pre")).toContain(`Logs test ${unique}`);
    expect(receiver.received).toHaveLength(1);
    await screenshot(page, "event");

    expect(errors).toEqual([]);
  });
});
