import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

type Ticket = { id: string; subject: string };
type Message = { type: string; body_text: string | null };

async function json<T>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const answer = await res;
  expect(answer.status, await answer.clone().text()).toBe(status);
  return (await answer.json()) as T;
}

/** The reply the agent picks: two variables, one with a default, rendered for this ticket. */
const DESCALING_BODY =
  'Hi {{ customer.first_name | default: "there" }}, an E4 after descaling means a drop of vinegar is left in the sensor: fill the kettle with clean water, boil it twice and pour it away. It heats normally after that.\n\n{{ user.name }}';
const RENDERED_START = "Hi Greta, an E4 after descaling means a drop of vinegar is left in the sensor";

/** The names in the order the picker lists them (newest first); two have "descaling" in them. */
const REPLIES = ["Descaling steps", "Refund issued", "Descaling kit reorder", "Delivery delay"];

describe.skipIf(!inject("browser").chromium)("a support agent's day in a real Chromium", () => {
  let browser: Browser;
  let inbox: { id: string };
  let kettle: Ticket;
  let lid: Ticket;
  const replyIds = new Map<string, string>();

  const newTicket = (subject: string, name: string, text: string) =>
    json<Ticket>(
      api("POST", "/v1/tickets", {
        inbox_id: inbox.id,
        customer: { email: `${name.split(" ")[0]?.toLowerCase()}@example.org`, name },
        subject,
        message: { body_text: text },
      }),
      201,
    );

  beforeAll(async () => {
    browser = await connectChromium();
    const suffix = crypto.randomUUID().slice(0, 8);
    inbox = await json(
      api("POST", "/v1/inboxes", { name: "Kettle care", email_address: `kettles-${suffix}@example.com` }),
      201,
    );
    // The searched word is only in the first message, so that the excerpt comes from it.
    kettle = await newTicket(
      "Kettle shows E4 and stops heating",
      "Greta Lindqvist",
      "Since descaling it with vinegar my kettle shows E4 and stops after a few seconds.",
    );
    lid = await newTicket("Lid hinge squeaks", "Omar Haddad", "The lid squeaks every time it opens.");
    for (const name of REPLIES) {
      const body =
        name === "Descaling steps" ? DESCALING_BODY : `Hi {{ customer.first_name }}, about: ${name}.`;
      const reply = await json<{ id: string }>(
        api("POST", "/v1/saved-replies", { name, body, inbox_id: inbox.id }),
        201,
      );
      replyIds.set(name, reply.id);
    }
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** The names of the saved replies the picker's list shows now. */
  const shownReplies = (page: Page) =>
    page
      .locator("#saved-reply-list option")
      .evaluateAll((options) => options.filter((o) => !o.hasAttribute("hidden")).map((o) => o.textContent));

  it("searches from the top bar, inserts a saved reply with variables from the keyboard, sends it, and opens a view", async () => {
    const { page, errors } = await signedInPage(browser, "agent");
    await page.setViewportSize({ width: 1360, height: 900 });

    // (a) The top bar's search box, on any page, lands on the results with the hit highlighted.
    await page.goto(`${workerUrl}/dashboard`);
    await page.getByLabel("Search tickets", { exact: true }).fill("descaling");
    await page.keyboard.press("Enter");
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("descaling");
    const row = page.locator("#ticket-results tr", { has: page.getByRole("link", { name: kettle.subject }) });
    await expect.poll(() => row.count()).toBe(1);
    expect((await row.locator(".match mark").first().textContent())?.toLowerCase()).toBe("descaling");
    expect(await row.locator(".match").textContent()).toContain("descaling it with vinegar");
    expect(await page.getByRole("link", { name: "Lid hinge squeaks" }).count()).toBe(0);
    await screenshot(page, "support-day-search");
    await row.getByRole("link", { name: kettle.subject }).click();
    await expect.poll(() => page.getByRole("heading", { name: kettle.subject }).count()).toBe(1);
    // The heading shows while the page is still parsing; the picker's script runs after it.
    await page.waitForLoadState("load");

    // (b) The picker: filter by typing, ArrowDown into the list (hidden replies are skipped), Enter.
    expect(await shownReplies(page)).toEqual([...REPLIES].reverse());
    const list = page.locator("#saved-reply-list");
    const focused = page.locator(":focus");
    await page.getByLabel("Find a saved reply").focus();
    await page.keyboard.type("descaling");
    await expect.poll(() => shownReplies(page)).toEqual(["Descaling kit reorder", "Descaling steps"]);
    expect(await page.locator('[data-filter-count="saved-reply-list"]').textContent()).toBe("2 of 4 match.");
    await page.keyboard.press("ArrowDown");
    expect(await focused.getAttribute("id")).toBe("saved-reply-list");
    expect(await list.inputValue()).toBe(replyIds.get("Descaling kit reorder"));
    await page.keyboard.press("ArrowDown");
    expect(await list.inputValue()).toBe(replyIds.get("Descaling steps"));
    await page.keyboard.press("Enter");

    // The preview shows before anything is sent: the customer's first name and the agent's name in.
    const preview = page.getByRole("region", { name: "Preview" });
    await expect.poll(() => preview.count()).toBe(1);
    expect(await preview.textContent()).toContain(RENDERED_START);
    expect(await preview.textContent()).toContain("Alan Agent");
    expect(await preview.textContent()).not.toContain("{{");
    const message = page.getByLabel("Message");
    expect(await message.inputValue()).toContain(RENDERED_START);
    expect(await message.inputValue()).not.toContain("{{");
    // Nothing is sent yet: the thread still holds only the customer's first message.
    const before = await json<{ data: Message[] }>(api("GET", `/v1/tickets/${kettle.id}/messages`));
    expect(before.data.map((m) => m.type)).toEqual(["customer"]);
    await screenshot(page, "support-day-saved-reply");

    // The inserted text has the focus: Tab reaches Send reply.
    expect(await focused.getAttribute("name")).toBe("body_text");
    await page.keyboard.press("Tab");
    expect(await focused.textContent()).toBe("Send reply");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByText("Reply sent").count()).toBe(1);
    const thread = page.locator(".thread");
    expect(await thread.textContent()).toContain(RENDERED_START);
    expect(await thread.textContent()).not.toContain("{{");
    const messages = await json<{ data: Message[] }>(api("GET", `/v1/tickets/${kettle.id}/messages`));
    expect(messages.data.map((m) => m.type)).toEqual(["customer", "reply"]);
    expect(messages.data[1]?.body_text).toContain(RENDERED_START);
    expect(messages.data[1]?.body_text).toContain("Alan Agent");
    expect(messages.data[1]?.body_text).not.toContain("{{");

    // (c) A view from the ticket list's sidebar: its live count, then its list.
    await json(api("POST", "/v1/views", { name: "Kettle care queue", filters: { inbox_id: inbox.id } }), 201);
    await page.goto(`${workerUrl}/dashboard/tickets`);
    const views = page.getByRole("navigation", { name: "Views" });
    const view = views.getByRole("link", { name: /Kettle care queue/ });
    expect(await view.locator(".count").textContent()).toBe("2");
    await newTicket("Base light stays on", "Ines Duarte", "The light on the base never goes off.");
    await page.reload();
    expect(await view.locator(".count").textContent()).toBe("3");
    await view.click();
    await expect.poll(() => new URL(page.url()).searchParams.get("inbox_id")).toBe(inbox.id);
    expect(await view.getAttribute("aria-current")).toBe("page");
    for (const subject of [kettle.subject, "Lid hinge squeaks", "Base light stays on"])
      expect(await page.locator("#ticket-results").getByRole("link", { name: subject }).count()).toBe(1);
    expect(await page.locator("#ticket-results tbody tr").count()).toBe(3);
    await screenshot(page, "support-day-view");
    expect(errors).toEqual([]);
  });

  it("inserts the first match when Enter is pressed in the filter box, and says when nothing matches", async () => {
    const { page, errors } = await signedInPage(browser, "agent");
    await page.goto(`${workerUrl}/dashboard/tickets/${lid.id}`);
    await page.getByLabel("Find a saved reply").fill("zzz");
    expect(await shownReplies(page)).toEqual([]);
    expect(await page.locator('[data-filter-count="saved-reply-list"]').textContent()).toBe(
      "Nothing matches.",
    );
    await page.getByLabel("Find a saved reply").fill("refund");
    expect(await shownReplies(page)).toEqual(["Refund issued"]);
    await page.getByLabel("Find a saved reply").press("Enter");
    await expect
      .poll(() => new URL(page.url()).searchParams.get("saved_reply"))
      .toBe(replyIds.get("Refund issued"));
    expect(await page.getByRole("region", { name: "Preview" }).textContent()).toContain(
      "Hi Omar, about: Refund issued.",
    );
    expect(await page.getByLabel("Message").inputValue()).toBe("Hi Omar, about: Refund issued.");
    expect(errors).toEqual([]);
  });

  it("works without script: no filter box that would do nothing, and the list with Insert", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const session = inject("browser").sessions.agent;
    await context.addCookies([
      { name: "session", value: session, url: workerUrl, httpOnly: true, sameSite: "Lax" },
    ]);
    const page = await context.newPage();
    await page.goto(`${workerUrl}/dashboard/tickets/${lid.id}`);
    expect(await page.getByLabel("Find a saved reply").isVisible()).toBe(false);
    expect(await shownReplies(page)).toEqual([...REPLIES].reverse());
    await page.locator("#saved-reply-list").selectOption(replyIds.get("Delivery delay") ?? "");
    await page.getByRole("button", { name: "Insert" }).click();
    await expect.poll(() => page.getByRole("region", { name: "Preview" }).count()).toBe(1);
    expect(await page.getByLabel("Message").inputValue()).toBe("Hi Omar, about: Delivery delay.");
    await context.close();
  });
});
