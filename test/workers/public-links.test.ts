import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runBatch } from "../../src/db/client";
import { claimAddress } from "../../src/db/directory/inbox-addresses";
import { inboxes } from "../../src/db/schema";
import { createConnection } from "../../src/features/connections/connections.service";
import { systemEmail } from "../../src/features/emails/system-mail";
import { newId } from "../../src/lib/ids";
import { surveyUrl } from "../../src/mail/survey-token";
import { applyTracking } from "../../src/mail/tracking/apply";
import { unsubscribeUrl } from "../../src/mail/unsubscribe-token";
import { call, callJson, db, directory, eventually, seedWorkspace, shardD1Of, shardEnv } from "./helpers";
import { postForm } from "./people-helpers";

/**
 * Public links (portal page, unsubscribe, survey, tracking) name their workspace (`?w=`), found
 * with one directory read; links without it (made before) are found by asking every shard; a link
 * naming another workspace finds nothing. For a workspace on each shard.
 */

const OTHER = { DB: "DB_2", DB_2: "DB" } as const;

/** The path and query of a link, as a browser or mail client would request it. */
const local = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};
const withoutWorkspace = (url: string) => {
  const parsed = new URL(url, "http://localhost");
  parsed.searchParams.delete("w");
  return `${parsed.pathname}${parsed.search}`;
};
const naming = (url: string, accountId: string) => {
  const parsed = new URL(url, "http://localhost");
  parsed.searchParams.set("w", accountId);
  return `${parsed.pathname}${parsed.search}`;
};

/** A workspace on `shard` with a verified domain and an inbox on it, written in that shard. */
async function deskOn(shard: "DB" | "DB_2") {
  const ws = await seedWorkspace({ shard });
  const domain = `links-${crypto.randomUUID().slice(0, 8)}.test`;
  const connection = await createConnection(db(shard), shardEnv(shard), ws.accountId, domain);
  await shardD1Of(shard)
    .prepare("UPDATE connections SET status = 'verified', verified_at = ? WHERE id = ?")
    .bind(Date.now(), connection.id)
    .run();
  const inbox = {
    id: newId("inb"),
    accountId: ws.accountId,
    name: "Support",
    emailAddress: `support@${domain}`,
    connectionId: connection.id,
    createdAt: Date.now(),
    updatedAt: Date.now(),
  };
  await claimAddress(
    directory(),
    { address: inbox.emailAddress, accountId: ws.accountId, inboxId: inbox.id },
    0,
  );
  await db(shard).insert(inboxes).values(inbox);
  // Another workspace on each shard, for links naming the wrong one.
  const strangers = [await seedWorkspace({ shard }), await seedWorkspace({ shard: OTHER[shard] })];
  return { ws, inbox, strangers: strangers.map((s) => s.accountId) };
}

async function ticketIn(desk: Awaited<ReturnType<typeof deskOn>>) {
  const res = await callJson<{ id: string; customer_id: string; public_url: string }>("POST", "/v1/tickets", {
    token: desk.ws.token,
    body: {
      inbox_id: desk.inbox.id,
      customer: { email: `c-${crypto.randomUUID().slice(0, 8)}@example.com` },
      subject: "Links",
      message: { body_text: "Where is my order?" },
    },
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe.each(["DB_2", "DB"] as const)("public links of a workspace on %s", (shard) => {
  it("the ticket page: public_url names the workspace; without it found all the same; a wrong one is 404", async () => {
    const desk = await deskOn(shard);
    const ticket = await ticketIn(desk);
    expect(new URL(ticket.public_url).searchParams.get("w")).toBe(desk.ws.accountId);
    for (const path of [local(ticket.public_url), withoutWorkspace(ticket.public_url)]) {
      const page = await call("GET", path);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Where is my order?");
    }
    for (const stranger of [...desk.strangers, "acc_nonsense", ""]) {
      expect((await call("GET", naming(ticket.public_url, stranger))).status).toBe(404);
      const reply = await postForm(`${naming(ticket.public_url, stranger).replace("?", "/messages?")}`, {
        message: "Hello?",
      });
      expect(reply.status).toBe(404);
    }
    // The reply form posts to the link naming the workspace, also from a page opened without it.
    const reply = await postForm(withoutWorkspace(`${ticket.public_url}`).concat("/messages"), {
      message: "Any news?",
    });
    expect(reply.status).toBe(303);
    expect(reply.headers.get("Location")).toMatch(
      new RegExp(`^${new URL(ticket.public_url).pathname}\\?w=${desk.ws.accountId}#msg_`),
    );
  });

  it("unsubscribe: the link names the workspace; without it found all the same; a wrong one unsubscribes nobody", async () => {
    const desk = await deskOn(shard);
    const customer = await callJson<{ id: string }>("POST", "/v1/customers", {
      token: desk.ws.token,
      body: { email: `u-${crypto.randomUUID().slice(0, 8)}@example.com` },
    });
    const campaignId = newId("cmp");
    await shardD1Of(shard)
      .prepare(
        `INSERT INTO campaigns (id, account_id, name, "from", subject, created_at, updated_at)
         VALUES (?1, ?2, 'News', 'news@example.com', 'Hello', ?3, ?3)`,
      )
      .bind(campaignId, desk.ws.accountId, Date.now())
      .run();
    const url = await unsubscribeUrl(env, { customerId: customer.body.id, campaignId }, desk.ws.accountId);
    expect(new URL(url).searchParams.get("w")).toBe(desk.ws.accountId);
    const oneClick = (path: string) =>
      call("POST", path, {
        rawBody: "List-Unsubscribe=One-Click",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
    const subscribed = async () =>
      (
        await shardD1Of(shard)
          .prepare("SELECT unsubscribed FROM customers WHERE id = ?")
          .bind(customer.body.id)
          .first<{ unsubscribed: number }>()
      )?.unsubscribed;

    for (const stranger of desk.strangers) {
      expect((await call("GET", naming(url, stranger))).status).toBe(404);
      expect((await oneClick(naming(url, stranger))).status).toBe(404);
    }
    expect(await subscribed()).toBe(0);
    const page = await call("GET", withoutWorkspace(url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`action="${new URL(url).pathname}?w=${desk.ws.accountId}"`);
    expect((await call("GET", local(url))).status).toBe(200);
    expect((await oneClick(local(url))).status).toBe(200);
    expect(await subscribed()).toBe(1);
    // An old link (no `w`) still unsubscribes: found by asking every shard.
    expect((await oneClick(withoutWorkspace(url))).status).toBe(200);
  });

  it("survey: the link names the workspace; without it found all the same; a wrong one records nothing", async () => {
    const desk = await deskOn(shard);
    const survey = await callJson<{ id: string }>("POST", "/v1/surveys", {
      token: desk.ws.token,
      body: { name: "After", kind: "csat", question: "How did we do?", inbox_ids: [desk.inbox.id] },
    });
    expect(survey.status).toBe(201);
    const ticket = await ticketIn(desk);
    await shardD1Of(shard)
      .prepare(
        `INSERT INTO survey_requests (ticket_id, account_id, survey_id, inbox_id, customer_id, assignee_id, email_id, sent_at)
         VALUES (?, ?, ?, ?, ?, NULL, NULL, ?)`,
      )
      .bind(ticket.id, desk.ws.accountId, survey.body.id, desk.inbox.id, ticket.customer_id, Date.now())
      .run();
    const url = await surveyUrl(env, { ticketId: ticket.id, rating: 4 }, desk.ws.accountId);
    expect(new URL(url).searchParams.get("w")).toBe(desk.ws.accountId);
    const responses = async () =>
      (
        await shardD1Of(shard)
          .prepare("SELECT rating FROM survey_responses WHERE ticket_id = ?")
          .bind(ticket.id)
          .all<{ rating: number }>()
      ).results;

    for (const stranger of desk.strangers) {
      expect((await call("GET", naming(url, stranger))).status).toBe(404);
      expect((await postForm(naming(url, stranger), {})).status).toBe(404);
    }
    expect(await responses()).toEqual([]);
    const page = await call("GET", withoutWorkspace(url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`action="${new URL(url).pathname}?w=${desk.ws.accountId}"`);
    expect((await postForm(local(url), {})).status).toBe(200);
    expect(await responses()).toEqual([{ rating: 4 }]);
    const older = await surveyUrl(env, { ticketId: ticket.id, rating: 2 }, desk.ws.accountId);
    expect((await postForm(withoutWorkspace(older), {})).status).toBe(200);
    expect(await responses()).toEqual([{ rating: 2 }]);
  });

  it("tracking: the links name the workspace; without it counted all the same; a wrong one counts nothing", async () => {
    const desk = await deskOn(shard);
    const email = systemEmail(
      db(shard),
      shardEnv(shard),
      desk.ws.accountId,
      { to: "b@example.com", subject: "Tracked", text: "x", html: "x" },
      Date.now(),
    );
    await runBatch(db(shard), email.statements);
    const html = await applyTracking('<p><a href="https://shop.example/a">a</a></p></body>', {
      baseUrl: env.PUBLIC_BASE_URL,
      emailId: email.row.id,
      accountId: desk.ws.accountId,
      key: env.ENCRYPTION_KEY,
      opens: true,
      clicks: true,
    });
    const pixel = /<img src="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&") ?? "";
    const click = /<a href="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&") ?? "";
    expect(new URL(pixel).searchParams.get("w")).toBe(desk.ws.accountId);
    expect(new URL(click).searchParams.get("w")).toBe(desk.ws.accountId);
    const counts = () =>
      shardD1Of(shard)
        .prepare("SELECT open_count AS opens, click_count AS clicks FROM emails WHERE id = ?")
        .bind(email.row.id)
        .first<{ opens: number; clicks: number }>();

    for (const stranger of desk.strangers) {
      expect((await call("GET", naming(pixel, stranger))).status).toBe(200);
      const redirect = await call("GET", naming(click, stranger));
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get("Location")).toBe("https://shop.example/a");
    }
    expect(await counts()).toEqual({ opens: 0, clicks: 0 });
    // Opens are counted after the image is answered: one at a time, so a stranger's would show.
    expect((await call("GET", local(pixel))).status).toBe(200);
    await eventually(async () => (await counts())?.opens === 1);
    expect((await call("GET", withoutWorkspace(pixel))).status).toBe(200);
    await eventually(async () => (await counts())?.opens === 2);
    expect((await call("GET", local(click))).status).toBe(302);
    expect((await call("GET", withoutWorkspace(click))).status).toBe(302);
    expect(await counts()).toEqual({ opens: 2, clicks: 2 });
  });
});
