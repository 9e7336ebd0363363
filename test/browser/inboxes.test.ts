import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

interface Delivery {
  path: string;
  event: string;
  signature: string;
  body: string;
}

/** A real webhook receiver on loopback (development mode lets the Worker post to it over http). */
function startReceiver(): Promise<{ server: Server; port: number; received: Delivery[] }> {
  const received: Delivery[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({
        path: req.url ?? "",
        event: String(req.headers["x-webhook-event"] ?? ""),
        signature: String(req.headers["x-service-signature"] ?? ""),
        body,
      });
      res.writeHead(200).end("ok");
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, port: (server.address() as AddressInfo).port, received }),
    ),
  );
}

const unique = () => crypto.randomUUID().slice(0, 8);

/** The webhook's card on the inbox page, found by its URL. */
const card = (page: Page, url: string) => page.getByRole("article", { name: `Webhook ${url}` });

describe.skipIf(!inject("browser").chromium)("the Inboxes pages in a real Chromium", () => {
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

  it("creates an inbox and edits its webhooks in the page; inbox.updated reaches the webhooks as each edit leaves them", async () => {
    const { page, errors } = await signedInPage(browser, "admin");
    const id = unique();
    const name = `Browser inbox ${id}`;
    const hookPath = `/hook-${id}`;
    const hookUrl = `http://127.0.0.1:${receiver.port}${hookPath}`;
    const mine = () => receiver.received.filter((d) => d.path === hookPath);

    await page.goto(`${workerUrl}/dashboard/inboxes`);
    await page.getByRole("link", { name: "New inbox" }).click();
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Email address").fill(`inbox-${id}@example.com`);
    await screenshot(page, "inbox-new");
    await page.getByRole("button", { name: "Create inbox" }).click();
    await expect.poll(() => page.getByRole("heading", { name }).count()).toBe(1);
    expect(await page.getByRole("status").textContent()).toBe("Inbox created.");

    // Add a webhook subscribed to the inbox events: the spec sends inbox.updated to the webhooks
    // as the write leaves them, so the new webhook hears of its own addition.
    const add = page.getByRole("form", { name: "Add a webhook" });
    await add.getByLabel("URL").fill(hookUrl);
    await add.getByLabel("inbox.updated").check();
    await add.getByLabel("inbox.deleted").check();
    await add.getByRole("button", { name: "Add webhook" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Webhook added.");
    await expect.poll(() => mine().length, { timeout: 15_000 }).toBe(1);
    expect(page.url()).not.toContain("whsec_");
    expect(await page.content()).not.toContain("whsec_");

    // The secret only on request, swapped in place by htmx; it verifies the delivery's signature.
    await card(page, hookUrl).getByRole("button", { name: "Show secret" }).click();
    const secret = (await card(page, hookUrl).locator("code.secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    await screenshot(page, "inbox-secret");
    const [first] = mine();
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(first?.signature ?? "") ?? [];
    expect(createHmac("sha256", secret).update(`${t}.${first?.body}`).digest("hex")).toBe(v1);
    expect(JSON.parse(first?.body ?? "{}")).toMatchObject({
      event: "inbox.updated",
      data: { inbox: { name, email_address: `inbox-${id}@example.com` } },
    });
    await page.reload();
    await screenshot(page, "inbox");

    // Disabled by this edit: it does not hear of it. Enabled again: it does.
    await card(page, hookUrl).getByRole("button", { name: "Disable" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Webhook disabled.");
    expect(await card(page, hookUrl).getByText("Disabled", { exact: true }).count()).toBe(1);
    await card(page, hookUrl).getByRole("button", { name: "Enable" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Webhook enabled.");
    await expect.poll(() => mine().length, { timeout: 15_000 }).toBe(2);

    // Edited to inbox.deleted alone: the edit's own inbox.updated no longer reaches it.
    await card(page, hookUrl).getByText("Edit", { exact: true }).click();
    await card(page, hookUrl).getByLabel("inbox.updated").uncheck();
    await screenshot(page, "inbox-webhook-edit");
    await card(page, hookUrl).getByRole("button", { name: "Save webhook" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Webhook saved.");
    expect(await card(page, hookUrl).locator("ul.event-list").textContent()).toBe("inbox.deleted");

    const danger = page.getByRole("region", { name: "Delete this inbox" });
    await danger.getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Inbox deleted, with its tickets.");
    await expect.poll(() => mine().length, { timeout: 15_000 }).toBe(3);
    // A moment for anything that should not have come.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(mine().map((d) => d.event)).toEqual(["inbox.updated", "inbox.updated", "inbox.deleted"]);
    expect(errors).toEqual([]);
  });

  it("lists the inboxes (screenshot) and shows an agent an inbox read-only, without secrets", async () => {
    const id = unique();
    const name = `Agent view ${id}`;
    const created = await api("POST", "/v1/inboxes", {
      name,
      email_address: `inbox-${id}@example.com`,
      webhooks: [{ url: "https://hooks.example.com/agent-view", events: ["ticket.created"] }],
    });
    expect(created.status).toBe(201);
    const inbox = (await created.json()) as { id: string; webhooks: Array<{ secret: string }> };

    const admin = await signedInPage(browser, "admin");
    await admin.page.goto(`${workerUrl}/dashboard/inboxes`);
    expect(await admin.page.getByRole("link", { name }).count()).toBe(1);
    await screenshot(admin.page, "inboxes");

    const { page, errors } = await signedInPage(browser, "agent");
    await page.goto(`${workerUrl}/dashboard/inboxes`);
    expect(await page.getByRole("link", { name: "New inbox" }).count()).toBe(0);
    await page.getByRole("link", { name }).click();
    await expect.poll(() => page.getByRole("heading", { name }).count()).toBe(1);
    expect(await page.getByText("https://hooks.example.com/agent-view").count()).toBe(1);
    expect(await page.getByRole("textbox").count()).toBe(0);
    for (const button of ["Save", "Show secret", "Add webhook", "Disable", "Delete"]) {
      expect(await page.getByRole("button", { name: button }).count(), button).toBe(0);
    }
    expect(await page.content()).not.toContain(inbox.webhooks[0]?.secret);
    await screenshot(page, "inbox-agent");
    expect(errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await api("DELETE", `/v1/inboxes/${inbox.id}`);
  });
});
