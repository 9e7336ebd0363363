import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

type Envelope = { id: string; event: string; data: Record<string, Record<string, unknown>> };
type Ticket = { id: string; client_id: string; subject: string; status: string };
type Message = { id: string; type: string };

/** A real webhook receiver on loopback: it keeps every envelope posted to it. */
async function startReceiver() {
  const received: Envelope[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push(JSON.parse(body) as Envelope);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, received, close: () => server.close() };
}

const rand = () => crypto.randomUUID().slice(0, 8);

async function json<T>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const answer = await res;
  expect(answer.status, await answer.clone().text()).toBe(status);
  return (await answer.json()) as T;
}

/** Believable tickets for the list's screenshot: varied customers, states, priorities and tags. */
const SAMPLES = [
  {
    subject: "Refund for a duplicate charge on invoice #4821",
    name: "Maria García",
    priority: "high",
    tags: ["billing"],
    assignee: "agent",
    text: "I was charged twice for March. Could you refund one of the payments?",
  },
  {
    subject: "Password reset link says it has expired",
    name: "Tom Becker",
    priority: "normal",
    text: "Every reset link I get is already expired when I click it.",
  },
  {
    subject: "CSV export drops the last column",
    name: "Priya Natarajan",
    priority: "high",
    tags: ["bug"],
    assignee: "admin",
    text: "The export of my orders is missing the 'Total' column.",
  },
  {
    subject: "Please add our VAT number to invoices",
    name: "Lukas Schmidt",
    priority: "low",
    tags: ["billing"],
    status: "pending",
    text: "Our VAT number is DE123456789; it should appear on every invoice.",
  },
  {
    subject: "Change the shipping address for order 10384",
    name: "Aiko Tanaka",
    priority: "urgent",
    assignee: "agent",
    text: "We moved last week. The parcel should go to the new office.",
  },
  {
    subject: "Two-factor codes arrive several minutes late",
    name: "Sam Okafor",
    priority: "urgent",
    tags: ["bug", "sms"],
    text: "The SMS codes expire before they reach my phone.",
  },
  {
    subject: "Dark mode for the mobile app?",
    name: "Elena Rossi",
    priority: "low",
    status: "on_hold",
    tags: ["feature"],
    text: "Any plans for a dark theme? My eyes would thank you.",
  },
  {
    subject: "Thanks, the new dashboard is great",
    name: "Noah Williams",
    priority: "normal",
    status: "resolved",
    text: "Just wanted to say the redesign is lovely.",
  },
] as const;

describe.skipIf(!inject("browser").chromium)("the Tickets pages in a real Chromium", () => {
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let inbox: { id: string; name: string; email_address: string };
  const tickets: Ticket[] = [];

  /** Envelopes of `event` about the ticket `id`, as the receiver got them. */
  const deliveries = (event: string, ticketId: string) =>
    receiver.received.filter((e) => e.event === event && e.data.ticket?.id === ticketId);

  beforeAll(async () => {
    browser = await connectChromium();
    receiver = await startReceiver();
    const suffix = rand();
    inbox = await json(
      api("POST", "/v1/inboxes", {
        name: "Customer care",
        email_address: `support-${suffix}@example.com`,
        webhooks: [
          {
            url: receiver.url,
            events: ["ticket.created", "ticket.updated", "ticket.deleted", "message.created"],
          },
        ],
      }),
      201,
    );
    const users = await json<{ data: Array<{ id: string; email: string }> }>(api("GET", "/v1/users"));
    const userId = (role: string) => users.data.find((u) => u.email === `${role}@example.com`)?.id;
    for (const sample of SAMPLES) {
      const local = sample.name
        .toLowerCase()
        .normalize("NFD")
        .replace(/[^a-z ]/g, "")
        .replace(" ", ".");
      tickets.push(
        await json<Ticket>(
          api("POST", "/v1/tickets", {
            inbox_id: inbox.id,
            customer: { email: `${local}@example.org`, name: sample.name },
            subject: sample.subject,
            priority: sample.priority,
            message: { body_text: sample.text },
            ...("status" in sample ? { status: sample.status } : {}),
            ...("tags" in sample ? { tags: sample.tags } : {}),
            ...("assignee" in sample ? { assignee_id: userId(sample.assignee) } : {}),
          }),
          201,
        ),
      );
    }
  });

  afterAll(async () => {
    await browser?.close();
    receiver?.close();
  });

  /** The ticket page, opened from the list like a person would. */
  async function openFromList(page: Page, ticket: Ticket) {
    await page.goto(`${workerUrl}/dashboard/tickets?inbox_id=${inbox.id}`);
    await page.getByRole("link", { name: ticket.subject }).click();
    await expect.poll(() => page.getByRole("heading", { name: ticket.subject }).count()).toBe(1);
  }

  it("lists the tickets, filters them in place, and saves an edit that reaches the webhook as ticket.updated", async () => {
    const { page, errors } = await signedInPage(browser, "agent");
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.goto(`${workerUrl}/dashboard/tickets?inbox_id=${inbox.id}`);
    for (const ticket of tickets)
      expect(await page.getByRole("link", { name: ticket.subject }).count()).toBe(1);
    await screenshot(page, "tickets-list");

    // A filter applies at once (htmx swaps the table and keeps the address); the plain form is the same GET.
    await page.getByLabel("Priority").selectOption({ label: "Urgent" });
    await expect.poll(() => new URL(page.url()).searchParams.get("priority")).toBe("urgent");
    await expect.poll(() => page.locator("#ticket-results tbody tr").count()).toBe(2);

    const ticket = tickets[2] as Ticket;
    await openFromList(page, ticket);
    await page.getByLabel("Status").selectOption({ label: "Resolved" });
    await page.getByLabel("Priority").selectOption({ label: "Urgent" });
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.getByText("Saved.").count()).toBe(1);
    await expect.poll(() => deliveries("ticket.updated", ticket.id).length, { timeout: 20_000 }).toBe(1);
    expect(deliveries("ticket.updated", ticket.id)[0]?.data.ticket).toMatchObject({
      status: "resolved",
      priority: "urgent",
    });
    expect(errors).toEqual([]);
  });

  it("adds an internal note that sends no message.created, while a reply does", async () => {
    const { page, errors } = await signedInPage(browser, "agent");
    await page.setViewportSize({ width: 1360, height: 900 });
    const ticket = tickets[0] as Ticket;
    await openFromList(page, ticket);

    await page
      .getByLabel("Message")
      .fill("Checked with finance: the second charge was a bank retry. Refunding it.");
    await page.getByRole("button", { name: "Add note" }).click();
    await expect.poll(() => page.getByText("Note added.").count()).toBe(1);
    await page
      .getByLabel("Message")
      .fill(
        "Hi María,\n\nSorry about that! We've refunded the duplicate charge; it should reach your card in 3–5 days.\n\nBest,\nAlan",
      );
    await page.getByRole("button", { name: "Send reply" }).click();
    await expect.poll(() => page.getByText("Reply sent").count()).toBe(1);
    await screenshot(page, "ticket");

    const messages = await json<{ data: Message[] }>(api("GET", `/v1/tickets/${ticket.id}/messages`));
    const note = messages.data.find((m) => m.type === "note");
    const reply = messages.data.find((m) => m.type === "reply");
    expect(note && reply).toBeTruthy();
    // The positive control: the reply, added after the note, reaches the receiver...
    await expect
      .poll(() => deliveries("message.created", ticket.id).map((e) => e.data.message?.id), {
        timeout: 20_000,
      })
      .toContain(reply?.id);
    // ...and a moment later still nothing came for the note.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(deliveries("message.created", ticket.id).map((e) => e.data.message?.id)).toEqual([reply?.id]);
    expect(await page.locator(".message-note").getByText("Internal note").count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it("creates a ticket with New ticket and deletes it with Delete", async () => {
    const { page, errors } = await signedInPage(browser, "agent");
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.goto(`${workerUrl}/dashboard/tickets`);
    await page.getByRole("link", { name: "New ticket" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "New ticket" }).count()).toBe(1);
    const subject = "Order arrived damaged";
    await page.getByLabel("Inbox").selectOption({ value: inbox.id });
    await page.getByLabel("Customer email").fill("olivia.brown@example.org");
    await page.getByLabel("Customer name").fill("Olivia Brown");
    await page.getByLabel("Subject").fill(subject);
    await page
      .getByLabel("First message")
      .fill("The box was crushed and the mug inside is broken. Photos on request.");
    await page.getByLabel("Priority").selectOption({ label: "High" });
    await screenshot(page, "ticket-new");
    await page.getByRole("button", { name: "Create ticket" }).click();
    await expect.poll(() => page.getByRole("heading", { name: subject }).count()).toBe(1);
    expect(await page.getByText("Ticket created.").count()).toBe(1);
    const id = new URL(page.url()).pathname.split("/").pop() ?? "";
    await expect.poll(() => deliveries("ticket.created", id).length, { timeout: 20_000 }).toBe(1);
    expect(deliveries("ticket.created", id)[0]?.data.ticket).toMatchObject({ subject, priority: "high" });

    // Delete asks first (the page accepts the dialog), then lands on the list.
    await page.getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => page.getByText("The ticket was deleted.").count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe("/dashboard/tickets");
    await expect.poll(() => deliveries("ticket.deleted", id).length, { timeout: 20_000 }).toBe(1);
    expect((await api("GET", `/v1/tickets/${id}`)).status).toBe(404);
    expect(errors).toEqual([]);
  });
});
