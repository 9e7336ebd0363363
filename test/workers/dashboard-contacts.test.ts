import { describe, expect, it } from "vitest";
import { readMembersCsv } from "../../src/dashboard/contacts/csv-import";
import { dashboardGet, dashboardPost, signIn } from "./dashboard-helpers";
import { callJson, seedWorkspace } from "./helpers";

type Group = { id: string; name: string; description: string | null; member_count: number };
type Member = { id: string; email: string; name: string | null };

async function contactsDesk() {
  const ws = await seedWorkspace();
  const [admin, agent] = await Promise.all([signIn(ws.accountId, "admin"), signIn(ws.accountId, "agent")]);
  const group = await apiGroup(ws.token, "Newsletter");
  return { ws, admin, agent, group };
}

async function apiGroup(token: string, name: string) {
  const res = await callJson<Group>("POST", "/v1/contact-groups", { token, body: { name } });
  if (res.status !== 201) throw new Error(`group not created: ${JSON.stringify(res.body)}`);
  return res.body;
}

const groupNow = async (token: string, id: string) =>
  callJson<Group>("GET", `/v1/contact-groups/${id}`, { token });

async function membersOf(token: string, id: string) {
  const res = await callJson<{ data: Member[] }>("GET", `/v1/contact-groups/${id}/members?limit=100`, {
    token,
  });
  return res.body.data;
}

describe("the Contacts list", () => {
  it("lists the workspace's groups with member counts, escaped, paginated, never another workspace's", async () => {
    const { ws, admin, agent, group } = await contactsDesk();
    await apiGroup(ws.token, "<script>alert(1)</script>");
    await apiGroup(ws.token, "Customers");
    await callJson("POST", `/v1/contact-groups/${group.id}/members`, {
      token: ws.token,
      body: { members: [{ email: "a@example.com" }, { email: "b@example.com" }] },
    });
    const elsewhere = await contactsDesk();

    const res = await dashboardGet("/dashboard/contacts", admin);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('aria-current="page">Contacts</a>');
    expect(html).toContain(`href="/dashboard/contacts/${group.id}">Newsletter</a>`);
    expect(html).toContain("<td>2</td>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain(elsewhere.group.id);
    expect(html).toContain('href="/dashboard/contacts/new"');

    const first = await (await dashboardGet("/dashboard/contacts?limit=2", admin)).text();
    expect(first).toContain("1–2 of 3");
    expect(first).not.toContain(`/dashboard/contacts/${group.id}"`);
    const second = await (await dashboardGet("/dashboard/contacts?limit=2&offset=2", admin)).text();
    expect(second).toContain(`/dashboard/contacts/${group.id}"`);

    const asAgent = await (await dashboardGet("/dashboard/contacts", agent)).text();
    expect(asAgent).toContain(`/dashboard/contacts/${group.id}"`);
    expect(asAgent).not.toContain("/dashboard/contacts/new");
  });
});

describe("a new contact group", () => {
  it("is created from the form through the API's path; a taken name is the API's 409; agents get 403", async () => {
    const { ws, admin, agent } = await contactsDesk();
    expect((await dashboardGet("/dashboard/contacts/new", admin)).status).toBe(200);
    expect((await dashboardGet("/dashboard/contacts/new", agent)).status).toBe(403);
    expect((await dashboardPost("/dashboard/contacts", agent, { name: "Nope" })).status).toBe(403);

    const res = await dashboardPost("/dashboard/contacts", admin, { name: " Partners ", description: "" });
    expect(res.status).toBe(303);
    const location = res.headers.get("Location") ?? "";
    expect(location).toMatch(/^\/dashboard\/contacts\/grp_[0-9A-Z]{26}\?done=created$/);
    const id = location.split("/")[3]?.split("?")[0] ?? "";
    expect((await groupNow(ws.token, id)).body).toMatchObject({ name: "Partners", description: null });
    expect(await (await dashboardGet(location, admin)).text()).toContain("Contact group created.");

    const empty = await dashboardPost("/dashboard/contacts", admin, {
      name: "   ",
      description: "<b>kept</b>",
    });
    expect(empty.status).toBe(400);
    const emptyHtml = await empty.text();
    expect(emptyHtml).toContain("<code>body.name</code>");
    expect(emptyHtml).toContain('value="&lt;b&gt;kept&lt;/b&gt;"');
    const duplicate = await dashboardPost("/dashboard/contacts", admin, { name: "newsletter" });
    expect(duplicate.status).toBe(409);
    const html = await duplicate.text();
    expect(html).toContain("already has a contact group named");
    expect(html).toContain('value="newsletter"');
  });
});

describe("a group's page", () => {
  it("pages the members, shows agents no forms, and another workspace's group is 404", async () => {
    const { ws, admin, agent, group } = await contactsDesk();
    const members = Array.from({ length: 25 }, (_, i) => ({ email: `m${i}@example.com`, name: `M <${i}>` }));
    await callJson("POST", `/v1/contact-groups/${group.id}/members`, { token: ws.token, body: { members } });

    const html = await (await dashboardGet(`/dashboard/contacts/${group.id}`, admin)).text();
    expect(html).toContain("<h1>Newsletter</h1>");
    expect(html).toContain("1–20 of 25");
    expect(html).toContain(`href="/dashboard/contacts/${group.id}?offset=20"`);
    expect(html).toContain("M &lt;24&gt;");
    expect(html).not.toContain("m0@example.com");
    expect(html).toContain(`action="/dashboard/contacts/${group.id}/import"`);
    const next = await (await dashboardGet(`/dashboard/contacts/${group.id}?offset=20`, admin)).text();
    expect(next).toContain("m0@example.com");

    const asAgent = await (await dashboardGet(`/dashboard/contacts/${group.id}`, agent)).text();
    expect(asAgent).toContain("m24@example.com");
    expect(asAgent).not.toContain('<form method="post" action="/dashboard/contacts/');

    const other = await contactsDesk();
    expect((await dashboardGet(`/dashboard/contacts/${other.group.id}`, admin)).status).toBe(404);
    expect((await dashboardPost(`/dashboard/contacts/${other.group.id}/delete`, admin)).status).toBe(404);
    expect((await groupNow(other.ws.token, other.group.id)).status).toBe(200);
  });

  it("adds one member through addMembers: new customer with its name, then already a member, invalid kept", async () => {
    const { ws, admin, agent, group } = await contactsDesk();
    const path = `/dashboard/contacts/${group.id}/members`;
    expect((await dashboardPost(path, agent, { email: "x@example.com" })).status).toBe(403);
    const added = await dashboardPost(path, admin, { email: "Ada@Example.com", name: "Ada" });
    expect(added.headers.get("Location")).toBe(`/dashboard/contacts/${group.id}?done=added`);
    expect(await membersOf(ws.token, group.id)).toMatchObject([{ email: "ada@example.com", name: "Ada" }]);
    const again = await dashboardPost(path, admin, { email: "ada@example.com", name: "Other" });
    expect(again.headers.get("Location")).toBe(`/dashboard/contacts/${group.id}?done=already`);
    const invalid = await dashboardPost(path, admin, { email: "not an address" });
    expect(invalid.status).toBe(400);
    const html = await invalid.text();
    expect(html).toContain("must be an email address");
    expect(html).toContain('value="not an address"');
    expect((await groupNow(ws.token, group.id)).body.member_count).toBe(1);
  });

  it("imports a CSV as one addMembers call: added and skipped, names kept, quotes read", async () => {
    const { ws, admin, agent, group } = await contactsDesk();
    await callJson("POST", `/v1/contact-groups/${group.id}/members`, {
      token: ws.token,
      body: { members: [{ email: "old@example.com" }] },
    });
    const path = `/dashboard/contacts/${group.id}/import`;
    expect((await dashboardPost(path, agent, { csv: "a@example.com" })).status).toBe(403);
    const csv =
      'email,name\r\nada@example.com,Ada Lovelace\r\n\r\n"grace@example.com","Hopper, Grace"\nold@example.com,Old\nlinus@example.com\n';
    const res = await dashboardPost(path, admin, { csv });
    expect(res.status).toBe(303);
    const location = res.headers.get("Location") ?? "";
    expect(location).toBe(`/dashboard/contacts/${group.id}?done=imported&added=3&skipped=1`);
    expect(await (await dashboardGet(location, admin)).text()).toContain("Imported: added 3, skipped 1.");
    const members = await membersOf(ws.token, group.id);
    expect(members.map((m) => [m.email, m.name]).sort()).toEqual([
      ["ada@example.com", "Ada Lovelace"],
      ["grace@example.com", "Hopper, Grace"],
      ["linus@example.com", null],
      ["old@example.com", null],
    ]);
  });

  it("refuses a CSV with bad rows by line number, keeps the text, and adds nothing", async () => {
    const { ws, admin, group } = await contactsDesk();
    const path = `/dashboard/contacts/${group.id}/import`;
    const csv =
      'good@example.com,Good\nnot-an-address,Bad\n\nx@example.com,X,extra\n"open@example.com,Unclosed';
    const res = await dashboardPost(path, admin, { csv });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Nothing was imported");
    expect(html).toContain("Line 2: email: must be an email address");
    expect(html).toContain("Line 4: more than two columns");
    expect(html).toContain("Line 5: a quote is not closed");
    expect(html).not.toContain("Line 1:");
    expect(html).toContain("good@example.com,Good\nnot-an-address,Bad");
    expect((await groupNow(ws.token, group.id)).body.member_count).toBe(0);

    const tooMany = Array.from({ length: 1001 }, (_, i) => `p${i}@example.com`).join("\n");
    const big = await dashboardPost(path, admin, { csv: tooMany });
    expect(big.status).toBe(400);
    expect(await big.text()).toContain("Line 1001: over 1000 rows");
    expect((await groupNow(ws.token, group.id)).body.member_count).toBe(0);
  });

  it("removes a member (the customer stays), renames, then deletes the group", async () => {
    const { ws, admin, agent, group } = await contactsDesk();
    await callJson("POST", `/v1/contact-groups/${group.id}/members`, {
      token: ws.token,
      body: { members: [{ email: "gone@example.com" }] },
    });
    const [member] = await membersOf(ws.token, group.id);
    const remove = `/dashboard/contacts/${group.id}/members/${member?.id}/remove`;
    expect((await dashboardPost(remove, agent)).status).toBe(403);
    const removed = await dashboardPost(remove, admin);
    expect(removed.headers.get("Location")).toBe(`/dashboard/contacts/${group.id}?done=removed`);
    expect(await membersOf(ws.token, group.id)).toEqual([]);
    expect((await callJson("GET", `/v1/customers/${member?.id}`, { token: ws.token })).status).toBe(200);

    const save = await dashboardPost(`/dashboard/contacts/${group.id}`, admin, {
      name: "Letters",
      description: "Monthly",
    });
    expect(save.headers.get("Location")).toBe(`/dashboard/contacts/${group.id}?done=saved`);
    expect((await groupNow(ws.token, group.id)).body).toMatchObject({
      name: "Letters",
      description: "Monthly",
    });
    expect((await dashboardPost(`/dashboard/contacts/${group.id}`, agent, { name: "X" })).status).toBe(403);

    expect((await dashboardPost(`/dashboard/contacts/${group.id}/delete`, agent)).status).toBe(403);
    const deleted = await dashboardPost(`/dashboard/contacts/${group.id}/delete`, admin);
    expect(deleted.headers.get("Location")).toBe("/dashboard/contacts?done=deleted");
    expect((await groupNow(ws.token, group.id)).status).toBe(404);
  });
});

describe("reading a members CSV", () => {
  it("skips a header only on the first row and keeps quotes inside quoted names", () => {
    expect(readMembersCsv('Email,Name\na@example.com,"Ann ""Nan"" Lee"')).toEqual({
      members: { members: [{ email: "a@example.com", name: 'Ann "Nan" Lee' }] },
    });
    expect(readMembersCsv("a@example.com\nemail,name")).toMatchObject({
      problems: [{ line: 2, message: expect.stringContaining("email") }],
    });
    expect(readMembersCsv(" \n")).toEqual({
      problems: [{ line: 1, message: "no rows: paste lines of email,name" }],
    });
  });
});
