import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

type Ticket = { id: string; subject: string };
type Message = { type: string; body_text: string | null };

async function json<T>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const answer = await res;
  expect(answer.status, await answer.clone().text()).toBe(status);
  return (await answer.json()) as T;
}

describe.skipIf(!inject("browser").chromium)("two agents on one ticket in a real Chromium", () => {
  let browser: Browser;
  let ticket: Ticket;

  beforeAll(async () => {
    browser = await connectChromium();
    const suffix = crypto.randomUUID().slice(0, 8);
    const inbox = await json<{ id: string }>(
      api("POST", "/v1/inboxes", { name: "Grinders", email_address: `grinders-${suffix}@example.com` }),
      201,
    );
    ticket = await json<Ticket>(
      api("POST", "/v1/tickets", {
        inbox_id: inbox.id,
        customer: { email: `noor-${suffix}@example.org`, name: "Noor Haddad" },
        subject: "Grinder jams on fine settings",
        message: { body_text: "My grinder jams whenever I pick a setting below 5." },
      }),
      201,
    );
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("shows each the other present, and holds back a reply written over the other's until confirmed", async () => {
    const admin = await signedInPage(browser, "admin");
    const agent = await signedInPage(browser, "agent");
    const url = `${workerUrl}/dashboard/tickets/${ticket.id}`;
    await admin.page.goto(url);
    await agent.page.goto(url);
    const presence = (page: typeof admin.page) => page.locator("p.presence");

    // Each sees the other, by name, within a heartbeat or two.
    await expect
      .poll(() => presence(agent.page).textContent(), { timeout: 20_000 })
      .toContain("Ada Admin (viewing)");
    await expect
      .poll(() => presence(admin.page).textContent(), { timeout: 20_000 })
      .toContain("Alan Agent (viewing)");

    // Both start writing; each sees the other replying.
    // By its form: a filled box's accessible name takes in its text, so its label no longer matches.
    const box = (page: typeof admin.page) => page.locator("form.compose textarea");
    await agent.page.bringToFront();
    await box(agent.page).fill("Please clean the burrs with the brush in the box.");
    await admin.page.bringToFront();
    await box(admin.page).fill("A setting below 5 needs the fine burr set; I am sending one.");
    await expect
      .poll(() => presence(agent.page).textContent(), { timeout: 20_000 })
      .toContain("Ada Admin (replying)");
    await expect
      .poll(() => presence(admin.page).textContent(), { timeout: 20_000 })
      .toContain("Alan Agent (replying)");

    // The admin sends first.
    await admin.page.getByRole("button", { name: "Send reply" }).click();
    await expect.poll(() => new URL(admin.page.url()).searchParams.get("done")).toBe("replied");

    // The agent's reply is held back: the warning shows the admin's reply, the text is kept.
    await agent.page.bringToFront();
    await agent.page.getByRole("button", { name: "Send reply" }).click();
    const warning = agent.page.getByRole("alert", { name: "Ticket changed" });
    await expect.poll(() => warning.count()).toBe(1);
    expect(await warning.textContent()).toContain("Your reply was not sent");
    expect(await warning.textContent()).toContain("I am sending one.");
    expect(await box(agent.page).inputValue()).toBe("Please clean the burrs with the brush in the box.");
    await screenshot(agent.page, "collision-reply-held");
    const replies = async () =>
      (await json<{ data: Message[] }>(api("GET", `/v1/tickets/${ticket.id}/messages`))).data
        .filter((m) => m.type === "reply")
        .map((m) => m.body_text);
    expect(await replies()).toEqual(["A setting below 5 needs the fine burr set; I am sending one."]);

    // Sent again, now over what the agent has seen, it goes.
    await agent.page.getByRole("button", { name: "Send reply" }).click();
    await expect.poll(() => new URL(agent.page.url()).searchParams.get("done")).toBe("replied");
    expect(await replies()).toEqual([
      "A setting below 5 needs the fine burr set; I am sending one.",
      "Please clean the burrs with the brush in the box.",
    ]);
    // The held-back reply's page answers 409, which Chromium reports on the console; nothing else.
    const unexpected = (errors: string[]) => errors.filter((e) => !e.includes("status of 409"));
    expect(unexpected(admin.errors)).toEqual([]);
    expect(unexpected(agent.errors)).toEqual([]);
  });
});
