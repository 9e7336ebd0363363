import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../src/db/schema";
import { PRESENCE_TTL_MS } from "../../src/features/presence/presence";
import { dashboardGet, dashboardPost, type SignedIn, signIn } from "./dashboard-helpers";
import { call, callJson, db, ticketWorkspace } from "./helpers";
import { postForm } from "./people-helpers";

type Presence = { others: Array<{ name: string; state: string }>; heartbeat_ms: number };

async function named(accountId: string, name: string) {
  const who = await signIn(accountId, "agent");
  await db().update(users).set({ name }).where(eq(users.id, who.user.id));
  return who;
}

async function beat(path: string, who: SignedIn, state: string) {
  const res = await dashboardPost(`${path}/presence`, who, { state });
  expect(res.status).toBe(200);
  return (await res.json()) as Presence;
}

describe("ticket presence", () => {
  it("shows each person the others on the ticket, viewing or replying, and forgets who leaves", async () => {
    const { ws, ticket } = await ticketWorkspace("presence");
    const path = `/dashboard/tickets/${ticket.id}`;
    const ada = await named(ws.accountId, "Ada Agent");
    const bob = await named(ws.accountId, "Bob Agent");

    expect((await beat(path, ada, "viewing")).others).toEqual([]);
    const seenByBob = await beat(path, bob, "replying");
    expect(seenByBob.others).toEqual([{ name: "Ada Agent", state: "viewing" }]);
    expect(seenByBob.heartbeat_ms).toBeGreaterThan(0);
    expect((await beat(path, ada, "viewing")).others).toEqual([{ name: "Bob Agent", state: "replying" }]);

    // Another workspace asking about the same ticket id meets nobody.
    const other = await ticketWorkspace("presence-other");
    const stranger = await named(other.ws.accountId, "Eve");
    expect((await beat(path, stranger, "viewing")).others).toEqual([]);

    await beat(path, bob, "gone");
    expect((await beat(path, ada, "viewing")).others).toEqual([]);
  });

  it("refuses a heartbeat without the session's CSRF token, or an unknown state", async () => {
    const { ws, ticket } = await ticketWorkspace("presence-csrf");
    const ada = await named(ws.accountId, "Ada Agent");
    const path = `/dashboard/tickets/${ticket.id}/presence`;
    expect((await postForm(path, { state: "viewing" }, { Cookie: ada.cookie })).status).toBe(403);
    expect((await dashboardPost(path, ada, { state: "typing" })).status).toBe(400);
  });

  it("lets an entry expire after two missed heartbeats", async () => {
    const presence = env.TICKET_PRESENCE.get(env.TICKET_PRESENCE.idFromName("acc_expiry:tkv_expiry"));
    const t = 1_000_000;
    await presence.heartbeat({ userId: "a", name: "Ada", state: "viewing" }, t);
    expect(
      await presence.heartbeat({ userId: "b", name: "Bob", state: "viewing" }, t + PRESENCE_TTL_MS),
    ).toEqual([{ name: "Ada", state: "viewing" }]);
    expect(
      await presence.heartbeat({ userId: "b", name: "Bob", state: "viewing" }, t + PRESENCE_TTL_MS + 1),
    ).toEqual([]);
  });
});

describe("a reply over a message not seen", () => {
  it("is not sent: the page shows the news and sends it only when sent again", async () => {
    const { ws, ticket } = await ticketWorkspace("conflict");
    const path = `/dashboard/tickets/${ticket.id}`;
    const agent = await named(ws.accountId, "Ada Agent");
    const fieldsOf = (html: string) => ({
      version: /name="version" value="(\d+)"/.exec(html)?.[1] ?? "",
      loaded_at: /name="loaded_at" value="(\d+)"/.exec(html)?.[1] ?? "",
    });
    const loaded = fieldsOf(await (await dashboardGet(path, agent)).text());
    expect(loaded.version).not.toBe("");

    await call("POST", `/v1/tickets/${ticket.id}/messages`, {
      token: ws.token,
      body: { type: "customer", body_text: "Never mind, it works now" },
    });
    const refused = await dashboardPost(`${path}/reply`, agent, {
      body_text: "Try turning it off",
      ...loaded,
    });
    expect(refused.status).toBe(409);
    const page = await refused.text();
    expect(page).toContain("Your reply was not sent");
    expect(page).toContain("Never mind, it works now");
    expect(page).toContain("Try turning it off</textarea>");
    const replies = async () =>
      (
        await callJson<{ data: Array<{ type: string }> }>("GET", `/v1/tickets/${ticket.id}/messages`, {
          token: ws.token,
        })
      ).body.data.filter((m) => m.type === "reply");
    expect(await replies()).toEqual([]);

    const again = fieldsOf(page);
    expect(again.version).not.toBe(loaded.version);
    const sent = await dashboardPost(`${path}/reply`, agent, { body_text: "Glad to hear it", ...again });
    expect(sent.status).toBe(303);
    expect(await replies()).toHaveLength(1);
  });
});
