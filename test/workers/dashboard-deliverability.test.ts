import { beforeAll, describe, expect, it, vi } from "vitest";
import { dashboardGet, type SignedIn, signIn } from "./dashboard-helpers";
import { callJson, seedWorkspace } from "./helpers";
import { deliver, FIXTURES, generatedMail } from "./inbound-helpers";
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

/** The points a chart draws, by interval start: each one's data-value as a number. */
function pointsOf(html: string, chartId: string) {
  const at = html.indexOf(`<figure class="chart" id="${chartId}"`);
  expect(at, `no chart ${chartId}`).toBeGreaterThan(0);
  const figure = html.slice(at, html.indexOf("</figure>", at));
  return Object.fromEntries(
    [...figure.matchAll(/<circle [^>]*data-start="([^"]+)" data-value="([^"]+)"/g)].map((m) => [
      m[1],
      Number(m[2]),
    ]),
  );
}

/** The period's totals shown above the charts, by label. */
function totalsOf(html: string) {
  const at = html.indexOf('<dl class="facts rate-totals">');
  expect(at).toBeGreaterThan(0);
  const list = html.slice(at, html.indexOf("</dl>", at));
  return Object.fromEntries(
    [...list.matchAll(/<dt>([^<]+)<\/dt><dd>([^<]*)<\/dd>/g)].map((m) => [m[1], m[2]]),
  );
}

interface EmailReport {
  data: Array<{ start: string; bounce_rate: number | null; complaint_rate: number | null }>;
  from: string;
  to: string;
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

  it("charts the bounce and complaint rates of the last 30 days as the email report gives them", async () => {
    const { html, status } = await page("/dashboard/deliverability", world.agent);
    expect(status).toBe(200);
    expect(html).toContain('aria-current="page">Deliverability</a>');
    const from = /<section class="panel" id="rates" data-from="([^"]+)" data-to="([^"]+)"/.exec(html);
    const today = Math.floor(Date.now() / 86_400_000);
    expect(from?.[1]).toBe(new Date((today - 29) * 86_400_000).toISOString());
    expect(from?.[2]).toBe(new Date((today + 1) * 86_400_000).toISOString());
    const { body: report } = await callJson<EmailReport>(
      "GET",
      `/v1/reports/email?from=${from?.[1]}&to=${from?.[2]}`,
      { token: world.ws.token },
    );
    expect(report.data).toHaveLength(30);
    // One email delivered, to four: one hard bounce, one soft, one complaint, all today; the
    // bounce rate is hard bounces over the emails sent (one of one).
    expect(totalsOf(html)).toEqual({
      Sent: "1",
      Failed: "0",
      Delivered: "1",
      "Hard bounces": "1",
      "Soft bounces": "1",
      Complaints: "1",
      "Bounce rate": "100%",
      "Complaint rate": "100%",
    });
    const drawn = (pick: "bounce_rate" | "complaint_rate") =>
      Object.fromEntries(report.data.filter((d) => d[pick] !== null).map((d) => [d.start, d[pick]]));
    expect(pointsOf(html, "bounce-rate-chart")).toEqual(drawn("bounce_rate"));
    expect(pointsOf(html, "complaint-rate-chart")).toEqual(drawn("complaint_rate"));
    expect(Object.keys(pointsOf(html, "bounce-rate-chart"))).toHaveLength(1);
    // The days with nothing delivered have no point, and no NaN anywhere.
    expect(html).not.toContain("NaN");
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
    expect(totalsOf(theirs)).toMatchObject({ Delivered: "0", "Bounce rate": "no data" });
    expect(theirs).toContain('<figure class="chart" id="bounce-rate-chart" data-empty="1">');
  });
});
