import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { htmlToText } from "../../src/features/portal/html-to-text";
import { dashboardGet, signIn } from "./dashboard-helpers";
import { call, callJson } from "./helpers";
import { CUSTOMER, deliver, generatedMail, inboundWorkspace, messagesOf, ticketsOf } from "./inbound-helpers";

/**
 * The body that made the handler and every view of its ticket burn CPU for seconds (the old
 * converter's back-referenced regex was quadratic in it): `<p>Hello</p>` then `<style ` repeated.
 */
const hostileHtml = (repeats: number) => `<p>Hello</p>${"<style ".repeat(repeats)}`;

const htmlOnlyMail = (to: string, html: string) =>
  generatedMail(to, "Hostile markup", "text/html; charset=utf-8", html);

/** Wall time of `work`, in ms, with its result. */
async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
}

/** Generous for a shared machine; the old converter took 10 s and more at 420 KB. */
const PROMPT_MS = 5_000;

describe("an HTML-only mail with a hostile 1 MB body", () => {
  it("is stored promptly with its text, and its ticket's portal and dashboard pages answer promptly", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const raw = htmlOnlyMail(inbox.emailAddress, hostileHtml(150_000));
    expect(raw.length).toBeGreaterThan(1_000_000);
    const [delivery, deliverMs] = await timed(() => deliver(raw, { to: inbox.emailAddress }));
    expect(delivery).toEqual({ outcome: "accepted" });
    expect(deliverMs).toBeLessThan(PROMPT_MS);

    const [ticket] = await ticketsOf(ws.token);
    const [message] = await messagesOf(ws.token, ticket?.id as string);
    expect(message).toMatchObject({ body_text: null, stripped_text: "Hello" });
    const stored = await env.DB_2.prepare("SELECT html_text FROM messages WHERE id = ?")
      .bind(message?.id)
      .first<{ html_text: string }>();
    expect(stored?.html_text).toBe("Hello");

    const { body } = await callJson<{ public_url: string }>("GET", `/v1/tickets/${ticket?.id}`, {
      token: ws.token,
    });
    const [portal, portalMs] = await timed(() => call("GET", new URL(body.public_url).pathname));
    expect(portal.status).toBe(200);
    expect(await portal.text()).toContain('<p class="body">Hello</p>');
    expect(portalMs).toBeLessThan(PROMPT_MS);

    const who = await signIn(ws.accountId);
    const [page, pageMs] = await timed(() => dashboardGet(`/dashboard/tickets/${ticket?.id}`, who));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div class="message-body">Hello</div>');
    expect(pageMs).toBeLessThan(PROMPT_MS);
  });

  it("a message stored before html_text existed is still shown, converted once per view", async () => {
    const { ws, inbox } = await inboundWorkspace();
    await deliver(htmlOnlyMail(inbox.emailAddress, "<p>Old&nbsp;row</p>"), { to: inbox.emailAddress });
    const [ticket] = await ticketsOf(ws.token);
    await env.DB_2.prepare("UPDATE messages SET html_text = NULL WHERE ticket_id = ?").bind(ticket?.id).run();
    const { body } = await callJson<{ public_url: string }>("GET", `/v1/tickets/${ticket?.id}`, {
      token: ws.token,
    });
    expect(await (await call("GET", new URL(body.public_url).pathname)).text()).toContain(
      '<p class="body">Old row</p>',
    );
    const who = await signIn(ws.accountId);
    expect(await (await dashboardGet(`/dashboard/tickets/${ticket?.id}`, who)).text()).toContain(
      '<div class="message-body">Old row</div>',
    );
  });
});

describe("html_text of messages written through the API", () => {
  const htmlTextOf = async (id: string) =>
    (
      await env.DB_2.prepare("SELECT html_text FROM messages WHERE id = ?")
        .bind(id)
        .first<{ html_text: string | null }>()
    )?.html_text;

  it("is made when a message is posted or a draft edited, and only while it has no text body", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const ticket = await callJson<{ id: string }>("POST", "/v1/tickets", {
      token: ws.token,
      body: {
        inbox_id: inbox.id,
        customer: { email: CUSTOMER },
        subject: "Hi",
        message: { body_html: "<p>First&nbsp;one</p>" },
      },
    });
    const [first] = await messagesOf(ws.token, ticket.body.id);
    expect(await htmlTextOf(first?.id as string)).toBe("First one");
    const post = (body: Record<string, unknown>) =>
      callJson<{ id: string }>("POST", `/v1/tickets/${ticket.body.id}/messages`, {
        token: ws.token,
        body: { type: "note", ...body },
      });
    const both = await post({ body_text: "Text", body_html: "<p>Html</p>" });
    expect(await htmlTextOf(both.body.id)).toBeNull();
    const draft = await post({ type: "reply", body_html: "<p>One</p>", draft: true });
    expect(await htmlTextOf(draft.body.id)).toBe("One");
    const patch = (body: Record<string, unknown>) =>
      call("PATCH", `/v1/messages/${draft.body.id}`, { token: ws.token, body });
    await patch({ body_html: "<p>Two</p>" });
    expect(await htmlTextOf(draft.body.id)).toBe("Two");
    await patch({ body_text: "Now text" });
    expect(await htmlTextOf(draft.body.id)).toBeNull();
    // The stored text body stays: the new HTML needs no text of its own.
    await patch({ body_html: "<p>Three</p>" });
    expect(await htmlTextOf(draft.body.id)).toBeNull();
  });
});

describe("htmlToText on hostile markup", () => {
  it.each([
    ["<style  repeated", hostileHtml(150_000)],
    ["nested lists", "<ul><li>".repeat(100_000)],
    ["nested tables", "<table><tr><td>".repeat(60_000)],
    ["unclosed comments", "<!--".repeat(250_000)],
    ["entities", "&amp".repeat(250_000)],
  ])("%s (about 1 MB) converts in linear time", (_, html) => {
    const [, ms] = (() => {
      const start = performance.now();
      const text = htmlToText(html);
      return [text, performance.now() - start] as const;
    })();
    expect(ms).toBeLessThan(PROMPT_MS);
  });

  it("keeps what readers need: blocks, line breaks, list items, entities; drops head, style and script", () => {
    const html =
      "<html><head><title>T</title><style>p{}</style></head><body><p>Hello&nbsp;there,<br>line</p>" +
      "<script>alert(1)</script><ul><li>one</li><li>two</li></ul>&lt;b&gt; &amp; &#x1F600;</body></html>";
    expect(htmlToText(html)).toBe("Hello there,\nline\n\n• one\n• two\n\n<b> & 😀");
  });
});
