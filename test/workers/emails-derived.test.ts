import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callJson, sendingWorkspace } from "./helpers";

type Email = { id: string; tags: Array<{ name: string; value: string }>; message_id: string };

// Out of alphabetical order on purpose: the rows in email_tags sort by name, the caller's list does not.
const TAGS = [
  { name: "zeta", value: "last" },
  { name: "alpha", value: "first" },
  { name: "mid", value: "x" },
];

/**
 * What the email's row no longer stores twice (issue 29, migration 0032): its tags come from
 * email_tags, its sender's address from the From header, its acceptance from created_at.
 */
describe("an email's derived fields", () => {
  it("shows the tags in the caller's order on every route that answers an email", async () => {
    const ws = await sendingWorkspace("derived-tags.test");
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const sent = await callJson<{ id: string }>("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: `"Ops <team>, Acme" <ops@derived-tags.test>`,
        to: "b@example.com",
        subject: "x",
        text: "x",
        tags: TAGS,
        scheduled_at: at,
      },
    });
    expect(sent.status).toBe(200);
    const id = sent.body.id;
    const one = await callJson<Email>("GET", `/v1/emails/${id}`, { token: ws.token });
    expect(one.body.tags).toEqual(TAGS);
    // The derived Message-ID takes the domain of the address in the From header, not of its name.
    expect(one.body.message_id).toBe(`<${id}@derived-tags.test>`);
    const listed = async (query: string) =>
      (await callJson<{ data: Email[] }>("GET", `/v1/emails${query}`, { token: ws.token })).body.data;
    for (const query of ["", "?tag=mid", "?tag=zeta:last", "?to=b@example.com"]) {
      expect(
        (await listed(query)).map((e) => e.tags),
        query,
      ).toEqual([TAGS]);
    }
    const scheduled = await callJson<{ data: Email[] }>("GET", "/v1/emails/scheduled", { token: ws.token });
    expect(scheduled.body.data.map((e) => e.tags)).toEqual([TAGS]);
    const moved = await callJson<Email>("PATCH", `/v1/emails/${id}`, {
      token: ws.token,
      body: { scheduled_at: new Date(Date.now() + 7_200_000).toISOString() },
    });
    expect(moved.body.tags).toEqual(TAGS);
    const cancelled = await callJson<Email>("POST", `/v1/emails/${id}/cancel`, { token: ws.token });
    expect(cancelled.body.tags).toEqual(TAGS);

    const row = await env.DB_2.prepare(
      `SELECT from_address AS fromAddress,
        (SELECT count(*) FROM email_events WHERE email_seq = emails.seq) AS events FROM emails WHERE id = ?`,
    )
      .bind(id)
      .first<{ fromAddress: string; events: number }>();
    // Accepting it wrote no event: its created_at says when.
    expect(row).toEqual({ fromAddress: "ops@derived-tags.test", events: 0 });
  });
});
