import { describe, expect, it } from "vitest";
import { duration } from "../../src/dashboard/tickets/sla-time";
import { dashboardGet, signIn } from "./dashboard-helpers";
import { MIN, slaDesk } from "./sla-helpers";

const html = async (path: string, who: Awaited<ReturnType<typeof signIn>>) => {
  const res = await dashboardGet(path, who);
  expect(res.status).toBe(200);
  return res.text();
};

/** The list row of the ticket `clientId`, as HTML. */
const rowOf = (page: string, clientId: string) => {
  const start = page.indexOf(`>${clientId}</a>`);
  return page.slice(start, page.indexOf("</tr>", start));
};

describe("the dashboard shows the time an SLA leaves", () => {
  it("in the list, the running target due soonest, overdue ones marked; on the page, every target", async () => {
    const desk = await slaDesk();
    const agent = await signIn(desk.ws.accountId, "agent");
    // Normal priority: first response in 60 minutes, resolution in 480 (calendar hours).
    const late = await desk.open(Date.now() - 90 * MIN);
    const fresh = await desk.open(Date.now());
    const list = await html("/dashboard/tickets", agent);
    expect(list).toContain("<th>SLA</th>");
    expect(rowOf(list, late.client_id)).toMatch(/class="badge bad"[^>]*>First response overdue by 3\d m</);
    expect(rowOf(list, fresh.client_id)).toMatch(/>First response due in (59 m|1 h)</);

    const page = await html(`/dashboard/tickets/${late.id}`, agent);
    expect(page).toContain("<dt>SLA</dt>");
    expect(page).toMatch(/First response: <span class="badge bad">overdue by 3\d m<\/span>/);
    expect(page).toMatch(/Resolution: <span[^>]*>due in 6 h (29|30) m<\/span>/);

    // Replied: first response met late, and the list moves on to resolution.
    await desk.say(Date.now(), late.id, "reply");
    const after = await html(`/dashboard/tickets/${late.id}`, agent);
    expect(after).toMatch(/First response: <span class="badge bad">met late<\/span>/);
  });

  it("says durations in their two largest units", () => {
    expect([
      duration(12),
      duration(60),
      duration(125),
      duration(1440),
      duration(1530),
      duration(-45),
    ]).toEqual(["12 m", "1 h", "2 h 5 m", "1 d", "1 d 1 h", "45 m"]);
  });
});
