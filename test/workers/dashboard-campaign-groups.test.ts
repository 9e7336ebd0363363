import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { groupsNamedLike, groupsWithIds } from "../../src/features/contact-groups/contact-groups.repo";
import { newId } from "../../src/lib/ids";
import { createAutomation } from "./automations-api-helpers";
import { campaignOf, campaignWorkspace, createCampaign, HTML } from "./campaigns-helpers";
import { dashboardGet, dashboardPost, signIn } from "./dashboard-helpers";
import { db } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

/** `count` groups named "Group 000"… written after the workspace's own "Newsletter", so newer than it. */
async function manyGroups(accountId: string, count: number) {
  const start = Date.now() + 1000;
  const insert = env.DB_2.prepare(
    "INSERT INTO contact_groups (id, account_id, name, name_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const names = Array.from({ length: count }, (_, i) => `Group ${String(i).padStart(3, "0")}`);
  const ids = names.map(() => newId("grp"));
  await env.DB_2.batch(
    names.map((name, i) => insert.bind(ids[i], accountId, name, name.toLowerCase(), start + i, start + i)),
  );
  return { names, ids };
}

/** The ticked group checkboxes of a page's HTML: what a browser posts for them. */
const tickedGroups = (html: string) =>
  [...html.matchAll(/<input[^>]*name="contact_group_ids"[^>]*>/g)]
    .filter(([input]) => / checked/.test(input))
    .map(([input]) => /value="([^"]+)"/.exec(input)?.[1]);

describe("dashboard: a campaign's groups beyond the first hundred", () => {
  it("shows the selected oldest group, keeps it on a subject-only save, and finds others by name", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }]);
    const { names, ids } = await manyGroups(ws.accountId, 150);
    const campaign = await createCampaign(ws);
    const owner = await signIn(ws.accountId, "owner");

    const editor = await (await dashboardGet(`/dashboard/campaigns/${campaign.id}`, owner)).text();
    expect(editor).toContain("Newsletter");
    const ticked = tickedGroups(editor);
    expect(ticked).toEqual([ws.groupId]);

    // The editor's fields as the browser posts them, only the subject changed.
    const fields = {
      name: campaign.name,
      from: `Acme News <news@${ws.domain}>`,
      reply_to: "",
      subject: "A new subject",
      html: HTML,
      text: "",
    };
    const saved = await dashboardPost(`/dashboard/campaigns/${campaign.id}`, owner, {
      ...fields,
      groups_shown: "1",
      ...(ticked[0] ? { contact_group_ids: ticked[0] } : {}),
    });
    expect(saved.status).toBe(303);
    expect(await campaignOf(ws.token, campaign.id)).toMatchObject({
      subject: "A new subject",
      contact_group_ids: [ws.groupId],
    });

    // A form that did not list the groups (no `groups_shown`, no box) leaves them as they are.
    const older = await dashboardPost(`/dashboard/campaigns/${campaign.id}`, owner, {
      ...fields,
      subject: "Older form",
    });
    expect(older.status).toBe(303);
    expect(await campaignOf(ws.token, campaign.id)).toMatchObject({
      subject: "Older form",
      contact_group_ids: [ws.groupId],
    });

    // "Group 007" is among the 50 oldest of the 150, so not on the newest hundred.
    expect(editor).not.toContain(ids[7]);
    const searched = await (
      await dashboardGet(
        `/dashboard/campaigns/${campaign.id}?group_q=${encodeURIComponent("group 007")}`,
        owner,
      )
    ).text();
    expect(searched).toContain(`value="${ids[7]}"`);
    expect(searched).toContain(names[7]);
    expect(tickedGroups(searched)).toEqual([ws.groupId]);

    // The htmx fragment: the ticked groups stay ticked, the matches follow unticked.
    const fragment = await (
      await dashboardGet(
        `/dashboard/campaigns/group-choices?group_q=007&contact_group_ids=${ids[120]}&contact_group_ids=${ws.groupId}`,
        owner,
      )
    ).text();
    expect(fragment).not.toContain("<html");
    expect(new Set(tickedGroups(fragment))).toEqual(new Set([ids[120], ws.groupId]));
    expect(fragment).toContain(`value="${ids[7]}"`);
    expect(fragment).not.toContain(`value="${ids[8]}"`);
  });

  it("keeps another workspace's groups out of the search and the fragment", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }]);
    const other = await campaignWorkspace([{ email: "eve@example.org" }]);
    const owner = await signIn(ws.accountId, "owner");
    const fragment = await (
      await dashboardGet(
        `/dashboard/campaigns/group-choices?group_q=news&contact_group_ids=${other.groupId}`,
        owner,
      )
    ).text();
    expect(fragment).toContain(`value="${ws.groupId}"`);
    expect(fragment).not.toContain(other.groupId);
  });

  it("searches and fetches the chosen groups on the workspace's index", async () => {
    expectIndexed(await planOf(groupsNamedLike(db(), "acc_X", "news", 100)), "contact_groups");
    expectIndexed(await planOf(groupsWithIds(db(), "acc_X", ["grp_A", "grp_B"])), "contact_groups");
  });
});

/** The selected option of each group select of a page's HTML: what a browser posts for them. */
const selectedGroups = (html: string) =>
  [...html.matchAll(/<option value="(grp_[^"]+)" selected[^>]*>/g)].map(([, id]) => id);

describe("dashboard: an automation's groups beyond the first hundred", () => {
  it("the editor selects the trigger's and a step's oldest group, so a save keeps them", async () => {
    const ws = await campaignWorkspace([]);
    await manyGroups(ws.accountId, 150);
    const created = await createAutomation(ws.token, {
      trigger: { type: "group_joined", contact_group_id: ws.groupId },
      steps: [{ type: "remove_from_group", contact_group_id: ws.groupId }],
    });
    const owner = await signIn(ws.accountId, "owner");

    const editor = await (await dashboardGet(`/dashboard/automations/${created.id}`, owner)).text();
    // The trigger's select and the step's select both hold the group, though 150 are newer.
    expect(selectedGroups(editor)).toEqual([ws.groupId, ws.groupId]);
    // Each select offers it once, plus the newest hundred others.
    expect(editor.match(new RegExp(`<option value="${ws.groupId}"`, "g"))).toHaveLength(2);
  });
});
