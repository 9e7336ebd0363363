import { describe, expect, it } from "vitest";
import { dashboardPost, signIn } from "./dashboard-helpers";
import { call } from "./helpers";
import { deliver, generatedMail } from "./inbound-helpers";
import { postForm } from "./people-helpers";
import { searchDesk } from "./ticket-search-helpers";

/** Every path that writes text, seen by the next search with no step between (SQL triggers). */
describe("a search finds text whatever wrote it", () => {
  it("inbound mail: a new ticket and a reply threaded onto it", async () => {
    const { inbox, ids } = await searchDesk();
    const mail = generatedMail(
      inbox.emailAddress,
      "Gearbox rattles",
      "text/plain; charset=utf-8",
      "The gearbox rattles above 80 km/h.",
    );
    expect(await deliver(mail, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });
    const found = await ids("gearbox");
    expect(found).toHaveLength(1);
    const html = generatedMail(
      inbox.emailAddress,
      "Windscreen",
      "text/html; charset=utf-8",
      "<p>The <b>windscreen wiper</b> squeaks &amp; smears</p>",
    );
    expect(await deliver(html, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });
    expect(await ids('"windscreen wiper" squeaks & smears')).toHaveLength(1);
  });

  it("the portal: a customer's reply", async () => {
    const { ws, create, ids } = await searchDesk();
    const t = await create("Portal ticket");
    const res = await postForm(`/portal/tickets/${t.shared_uuid}/messages?w=${ws.accountId}`, {
      message: "Quokka sighting reported from the portal",
      website: "",
    });
    expect(res.status).toBe(303);
    expect(await ids("quokka sighting")).toEqual([t.id]);
  });

  it("the dashboard: a reply and a note", async () => {
    const { ws, create, ids } = await searchDesk();
    const t = await create("Dashboard ticket");
    const agent = await signIn(ws.accountId, "agent");
    const path = `/dashboard/tickets/${t.id}`;
    expect((await dashboardPost(`${path}/reply`, agent, { body_text: "Platypus reply" })).status).toBe(303);
    expect((await dashboardPost(`${path}/note`, agent, { body_text: "Wombat note" })).status).toBe(303);
    expect(await ids("platypus")).toEqual([t.id]);
    expect(await ids("wombat")).toEqual([t.id]);
  });

  it("messages written at once are all found", async () => {
    const { ws, create, search } = await searchDesk();
    const t = await create("Busy ticket");
    const words = Array.from({ length: 12 }, (_, i) => `concurrentword${String.fromCharCode(97 + i)}`);
    const results = await Promise.all(
      words.map((w) =>
        call("POST", `/v1/tickets/${t.id}/messages`, {
          token: ws.token,
          body: { type: "note", body_text: w },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(words.map(() => 201));
    for (const w of words) expect((await search(w)).data.map((x) => x.id)).toEqual([t.id]);
    expect((await search("concurrentword")).data[0]?.id).toBe(t.id);
  });
});
