import { beforeAll, describe, expect, it, vi } from "vitest";
import { dailyCountsQuery } from "../../src/dashboard/deliverability/deliverability.queries";
import { dashboardGet, type SignedIn, signIn } from "./dashboard-helpers";
import { callJson, db, seedWorkspace } from "./helpers";
import { deliver, FIXTURES, generatedMail } from "./inbound-helpers";
import { planOf } from "./query-plan";
import { MAILER_DAEMON, report, returnPathOf, sentEmail, setUp } from "./reports-helpers";

// The email goes through the real queue and transport first; on a loaded machine that outlasts 5 s.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const HARD = "gone@example.net";
const SOFT = "full@example.net";
const COMPLAINER = "angry@example.net";
const FINE = "fine@example.net";

const page = async (path: string, who: SignedIn) => {
  const res = await dashboardGet(path, who);
  return { status: res.status, html: await res.text() };
};

const listed = (html: string, kind: "reports" | "dropped") =>
  [
    ...html.matchAll(new RegExp(`href="/dashboard/deliverability/${kind}/((?:rpt|drp)_[0-9A-Za-z]+)"`, "g")),
  ].map((m) => m[1] as string);

/** The six numbers of the rates table's row that starts with `label` (a UTC day, or "30 days"). */
function rowOf(html: string, label: string) {
  const at = html.indexOf(`>${label}</t`);
  expect(at, `no row ${label}`).toBeGreaterThan(0);
  const row = html.slice(at, html.indexOf("</tr>", at));
  return [...row.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m) => m[1]);
}

/** A mail the inbox accepts and drops (an automatic answer threading into no ticket), with HTML in it. */
const autoReply = (to: string, body: string) =>
  generatedMail(to, "Out of office", "text/plain; charset=utf-8", body).replace(
    "MIME-Version",
    "Auto-Submitted: auto-replied\r\nMIME-Version",
  );

describe("the Deliverability page", () => {
  let world: Awaited<ReturnType<typeof seedWorld>>;
  beforeAll(async () => {
    world = await seedWorld();
  });

  /**
   * One email to four recipients of a fresh workspace, and through the real email handler: a hard
   * bounce, a soft one (a delay), a complaint, each to its recipient's own bounce address, and an
   * automatic answer to the inbox (dropped).
   */
  async function seedWorld() {
    const setup = await setUp();
    const sent = await sentEmail([HARD, SOFT, COMPLAINER, FINE], setup);
    for (const [fixture, recipient] of [
      [FIXTURES.dsnHard, HARD],
      [FIXTURES.dsnSoft, SOFT],
      [FIXTURES.arf, COMPLAINER],
    ] as const) {
      const to = await returnPathOf(sent.id, recipient);
      expect(await deliver(report(fixture, sent, recipient, to), { from: MAILER_DAEMON, to })).toEqual({
        outcome: "accepted",
      });
    }
    const dropped = autoReply(setup.address, "Back Monday. <script>alert('dropped')</script>");
    expect(await deliver(dropped, { to: setup.address })).toEqual({ outcome: "accepted" });
    const { body: email } = await callJson<{ created_at: string }>("GET", `/v1/emails/${sent.id}`, {
      token: setup.ws.token,
    });
    const agent = await signIn(setup.ws.accountId, "agent");
    return { ...setup, sent, day: email.created_at.slice(0, 10), agent, droppedRaw: dropped };
  }

  it("counts the day's recipients, bounces and complaints, with rates, zeros and a 30-day total", async () => {
    const { html, status } = await page("/dashboard/deliverability", world.agent);
    expect(status).toBe(200);
    expect(html).toContain('aria-current="page">Deliverability</a>');
    // 4 sent; 1 hard and 1 soft: 50.0%; 1 complaint: 25.0%.
    expect(rowOf(html, world.day)).toEqual(["4", "1", "1", "1", "50.0%", "25.0%"]);
    expect(rowOf(html, "30 days")).toEqual(["4", "1", "1", "1", "50.0%", "25.0%"]);
    const today = Math.floor(Date.now() / 86_400_000);
    const quiet = new Date((today - 29) * 86_400_000).toISOString().slice(0, 10);
    if (quiet !== world.day) expect(rowOf(html, quiet)).toEqual(["0", "0", "0", "0", "—", "—"]);
    expect(html).not.toContain(new Date((today - 30) * 86_400_000).toISOString().slice(0, 10));
  });

  it("lists the reports with their fields, filtered by kind, email id and recipient", async () => {
    const { agent, sent } = world;
    const all = (await page("/dashboard/deliverability", agent)).html;
    expect(listed(all, "reports")).toHaveLength(3);
    for (const text of [
      `<td class="address">${HARD}</td>`,
      '<span class="badge bad">hard</span>',
      '<span class="badge warn">soft</span>',
      "<code>5.1.1</code>",
      '<span class="badge bad">suppressed</span>',
      '<span class="badge warn">complaint</span>',
      `<code>${sent.id}</code>`,
    ])
      expect(all).toContain(text);

    const bounces = (await page("/dashboard/deliverability?kind=bounce", agent)).html;
    expect(listed(bounces, "reports")).toHaveLength(2);
    expect(bounces).not.toContain(`<td class="address">${COMPLAINER}</td>`);
    const complaints = (await page("/dashboard/deliverability?kind=complaint", agent)).html;
    expect(listed(complaints, "reports")).toHaveLength(1);
    expect(complaints).toContain(`<td class="address">${COMPLAINER}</td>`);
    expect(listed((await page("/dashboard/deliverability?kind=unsupported", agent)).html, "reports")).toEqual(
      [],
    );

    // Typed with capitals and spaces, as people paste an address.
    const one = (await page(`/dashboard/deliverability?recipient=%20${HARD.toUpperCase()}`, agent)).html;
    expect(listed(one, "reports")).toHaveLength(1);
    expect(one).toContain(`<td class="address">${HARD}</td>`);
    expect(
      listed((await page(`/dashboard/deliverability?email_id=${sent.id}`, agent)).html, "reports"),
    ).toHaveLength(3);
    // Blank filters are no filters.
    expect(
      listed((await page("/dashboard/deliverability?recipient=%20%20&email_id=", agent)).html, "reports"),
    ).toHaveLength(3);
    const other = (await page("/dashboard/deliverability?email_id=eml_other&kind=", agent)).html;
    expect(listed(other, "reports")).toEqual([]);
    expect(other).toContain("No report matches these filters.");
    expect((await page("/dashboard/deliverability?kind=exploded", agent)).status).toBe(400);

    const first = (await page("/dashboard/deliverability?limit=2", agent)).html;
    expect(listed(first, "reports")).toHaveLength(2);
    expect(first).toContain("1–2 of 3");
    expect(first).toContain('href="/dashboard/deliverability?limit=2&amp;offset=2">Next</a>');
    const second = (await page("/dashboard/deliverability?limit=2&offset=2", agent)).html;
    expect(listed(second, "reports")).toEqual([listed(all, "reports")[2]]);
    // The dropped list keeps its own place.
    expect(listed(second, "dropped")).toHaveLength(1);
  });

  it("lists the dropped mail: reason, inbox, from, to, size", async () => {
    const html = (await page("/dashboard/deliverability", world.agent)).html;
    expect(listed(html, "dropped")).toHaveLength(1);
    expect(html).toContain("<td>auto submitted</td>");
    expect(html).toContain(`<td class="address">${world.address}</td>`);
    expect(html).toContain(`${world.droppedRaw.length} B`);
  });

  it("shows a report in full and its raw message escaped, with the whole as a text/plain download", async () => {
    const { agent } = world;
    const id = listed((await page(`/dashboard/deliverability?recipient=${HARD}`, agent)).html, "reports")[0];
    const detail = await page(`/dashboard/deliverability/reports/${id}`, agent);
    expect(detail.status).toBe(200);
    for (const text of [
      `<code>${id}</code>`,
      "<dt>Severity</dt>",
      "<dt>Status</dt><dd><code>5.1.1</code></dd>",
      "<dt>Reporting server</dt><dd>mail.example.net</dd>",
      // The DSN's "<gone@example.net>" is text on the page, not a tag.
      `&lt;${HARD}&gt;`,
      `href="/dashboard/deliverability/reports/${id}/raw"`,
    ])
      expect(detail.html).toContain(text);
    expect(detail.html).not.toContain(`<${HARD}>`);

    const raw = await dashboardGet(`/dashboard/deliverability/reports/${id}/raw`, agent);
    expect(raw.status).toBe(200);
    expect(raw.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(raw.headers.get("Content-Disposition")).toBe(`attachment; filename="${id}.txt"`);
    expect(await raw.text()).toContain(`Final-Recipient: rfc822; ${HARD}`);
  });

  it("shows a dropped mail's raw message escaped: its script is text", async () => {
    const { agent } = world;
    const id = listed((await page("/dashboard/deliverability", agent)).html, "dropped")[0];
    const detail = await page(`/dashboard/deliverability/dropped/${id}`, agent);
    expect(detail.status).toBe(200);
    expect(detail.html).toContain("&lt;script&gt;alert(&#39;dropped&#39;)&lt;/script&gt;");
    expect(detail.html).not.toContain("<script>alert");
    expect(detail.html).not.toContain("Showing the first");
    const raw = await dashboardGet(`/dashboard/deliverability/dropped/${id}/raw`, agent);
    expect(await raw.text()).toBe(world.droppedRaw);
  });

  it("shows the first 256 KiB of a large message, and offers the whole", async () => {
    const { ws, address } = await setUp();
    const big = autoReply(address, `${"x".repeat(76)}\r\n`.repeat(4000));
    expect(big.length).toBeGreaterThan(300_000);
    expect(await deliver(big, { to: address })).toEqual({ outcome: "accepted" });
    const agent = await signIn(ws.accountId, "agent");
    const id = listed((await page("/dashboard/deliverability", agent)).html, "dropped")[0];
    const { html } = await page(`/dashboard/deliverability/dropped/${id}`, agent);
    expect(html).toContain(`Showing the first 256.0 KB of ${(big.length / 1024).toFixed(1)} KB.`);
    const escaped = /<pre class="payload raw">([^<]*)<\/pre>/.exec(html)?.[1] ?? "";
    const shown = escaped.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
    expect(shown).toBe(big.slice(0, 256 * 1024));
    expect(
      (await (await dashboardGet(`/dashboard/deliverability/dropped/${id}/raw`, agent)).text()).length,
    ).toBe(big.length);
  });

  it("answers another workspace's report and dropped mail with the 404 page", async () => {
    const stranger = await signIn((await seedWorkspace()).accountId, "owner");
    const mine = (await page("/dashboard/deliverability", world.agent)).html;
    const [reportId] = listed(mine, "reports");
    const [droppedId] = listed(mine, "dropped");
    for (const path of [
      `/dashboard/deliverability/reports/${reportId}`,
      `/dashboard/deliverability/reports/${reportId}/raw`,
      `/dashboard/deliverability/dropped/${droppedId}`,
      `/dashboard/deliverability/dropped/${droppedId}/raw`,
      "/dashboard/deliverability/reports/rpt_nothing",
    ]) {
      const res = await page(path, stranger);
      expect(res.status, path).toBe(404);
      expect(res.html, path).toContain("<h1>Not found</h1>");
    }
    const theirs = (await page("/dashboard/deliverability", stranger)).html;
    expect(listed(theirs, "reports")).toEqual([]);
    expect(listed(theirs, "dropped")).toEqual([]);
    expect(rowOf(theirs, "30 days")).toEqual(["0", "0", "0", "0", "—", "—"]);
  });
});

describe("the daily counts' query", () => {
  it("is one range of emails_account_created; each recipient and its bounces by index", async () => {
    const plan = (await planOf(dailyCountsQuery(db(), "acc_X", 0))).join("\n");
    expect(plan).toContain("emails_account_created (account_id=? AND created_at>?)");
    expect(plan).toMatch(
      /email_recipients USING (COVERING )?INDEX sqlite_autoindex_email_recipients_1 \(email_id=\?/,
    );
    expect(plan).toContain("bounces_account_email_created (account_id=? AND email=?)");
    expect(plan).not.toMatch(/SCAN (emails|email_recipients|bounces|b)\b/);
  });
});
