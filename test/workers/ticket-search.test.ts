import { describe, expect, it } from "vitest";
import { call, callJson, seedWorkspace } from "./helpers";
import { searchDesk } from "./ticket-search-helpers";

describe("GET /v1/tickets?q= finds tickets by what was said", () => {
  it("searches the subject, messages, customer name and email, client_id and tags", async () => {
    const { create, message, ids } = await searchDesk();
    const bySubject = await create("Blender makes a grinding noise");
    const byMessage = await create("Question");
    await message(byMessage.id, "The toaster oven caught fire yesterday");
    const byCustomer = await create("Hello", {
      customer: { email: "zelda.quark@example.org", name: "Zelda Quark" },
    });
    const byTag = await create("Other", { tags: ["warrantyclaim"] });
    expect(await ids("grinding")).toEqual([bySubject.id]);
    expect(await ids("toaster")).toEqual([byMessage.id]);
    expect(await ids("Quark")).toEqual([byCustomer.id]);
    expect(await ids("zelda.quark@example.org")).toEqual([byCustomer.id]);
    expect(await ids("warrantyclaim")).toEqual([byTag.id]);
    expect(await ids(byTag.client_id)).toEqual([byTag.id]);
  });

  it("takes words anywhere in a word (prefixes, with or without *), phrases, and -exclusions", async () => {
    const { create, message, ids } = await searchDesk();
    const a = await create("Refunded order");
    await message(a.id, "The parcel arrived broken into pieces");
    const b = await create("Refund request");
    await message(b.id, "The parcel arrived late, broken promises");
    expect((await ids("refun")).sort()).toEqual([a.id, b.id].sort());
    expect((await ids("refun*")).sort()).toEqual([a.id, b.id].sort());
    expect(await ids('"broken into"')).toEqual([a.id]);
    expect(await ids('parcel "arrived late"')).toEqual([b.id]);
    expect(await ids("refund -request")).toEqual([a.id]);
    expect(await ids('parcel -"into pieces"')).toEqual([b.id]);
    // Every word must be in the ticket, though each may be in a different part of it.
    expect(await ids("request pieces")).toEqual([]);
    expect(await ids("request promises")).toEqual([b.id]);
  });

  it("folds case and accents, and finds 3-character Japanese and Chinese phrases", async () => {
    const { create, message, ids } = await searchDesk();
    const cafe = await create("Le café était froid");
    const ja = await create("問い合わせ");
    await message(ja.id, "注文した商品がまだ届きません。確認をお願いします。");
    const zh = await create("退款");
    await message(zh.id, "我的订单还没有发货，请帮我查一下物流信息。");
    expect(await ids("cafe")).toEqual([cafe.id]);
    expect(await ids("CAFÉ ETAIT")).toEqual([cafe.id]);
    expect(await ids("商品が")).toEqual([ja.id]);
    expect(await ids("まだ届きません")).toEqual([ja.id]);
    expect(await ids("查一下")).toEqual([zh.id]);
    expect(await ids("物流信息")).toEqual([zh.id]);
  });

  it("ranks by relevance, then newest first, and marks the hit in an escaped excerpt", async () => {
    const { create, message, search } = await searchDesk();
    const older = await create("Identical twin subject");
    const newer = await create("Identical twin subject");
    const html = await create("Invoice");
    await message(html.id, "My invoice <b>total</b> & tax look wrong");
    const strong = await create("Printer jams");
    await message(strong.id, "jams jams jams paper jams again");
    const weak = await create("Scanner");
    await message(
      weak.id,
      `${"A long story about the office, the coffee and the weather. ".repeat(20)} It jams.`,
    );
    const ranked = await search("jams");
    expect(ranked.data.map((t) => t.id)).toEqual([strong.id, weak.id]);
    // Equal relevance (the same text): the newest first.
    expect((await search("twin")).data.map((t) => t.id)).toEqual([newer.id, older.id]);
    const excerpt = (await search("total")).data[0]?.match;
    expect(excerpt).toContain("<mark>total</mark>");
    expect(excerpt).toContain("&lt;b&gt;");
    expect(excerpt).toContain("&amp; tax");
    expect(excerpt).not.toContain("<b>");
    // Without q, no match field.
    const plain = await callJson<{ data: Array<Record<string, unknown>> }>("GET", "/v1/tickets", {
      token: (await searchDesk()).ws.token,
    });
    expect(plain.body.data[0]).not.toHaveProperty("match");
  });

  it("combines with every filter and paginates with an exact total", async () => {
    const { create, ids, search, inbox } = await searchDesk();
    const made = [];
    for (let i = 0; i < 5; i++)
      made.push(
        await create(`Warranty claim ${i}`, { priority: i % 2 ? "high" : "low", tags: i < 2 ? ["vip"] : [] }),
      );
    await create("Unrelated");
    expect((await search("warranty")).pagination.total).toBe(5);
    expect((await ids("warranty", "&priority=high")).sort()).toEqual([made[1]?.id, made[3]?.id].sort());
    expect((await ids("warranty", "&tag=VIP")).sort()).toEqual([made[0]?.id, made[1]?.id].sort());
    expect(await ids("warranty", "&status=closed")).toEqual([]);
    expect((await ids("warranty", `&inbox_id=${inbox.id}&status=open`)).length).toBe(5);
    const first = await search("warranty", "&limit=2");
    const second = await search("warranty", "&limit=2&offset=2");
    const third = await search("warranty", "&limit=2&offset=4");
    expect(first.pagination.total).toBe(5);
    const paged = [...first.data, ...second.data, ...third.data].map((t) => t.id);
    expect(paged.sort()).toEqual(made.map((t) => t.id).sort());
  });

  it("never finds another workspace's tickets", async () => {
    const mine = await searchDesk();
    const theirs = await searchDesk();
    const own = await mine.create("Secret marmalade recipe");
    await theirs.create("Secret marmalade recipe");
    expect(await mine.ids("marmalade")).toEqual([own.id]);
    const empty = await seedWorkspace();
    const res = await callJson<{ data: unknown[] }>("GET", "/v1/tickets?q=marmalade", { token: empty.token });
    expect(res.body.data).toEqual([]);
  });

  it("follows every edit: subject, message, customer, tags, merge, delete", async () => {
    const { ws, create, message, ids } = await searchDesk();
    const t = await create("Kettle whistles");
    await call("PATCH", `/v1/tickets/${t.id}`, { token: ws.token, body: { subject: "Teapot leaks" } });
    expect(await ids("kettle")).toEqual([]);
    expect(await ids("teapot")).toEqual([t.id]);

    await call("PATCH", `/v1/customers/${t.customer_id}`, {
      token: ws.token,
      body: { name: "Barnaby Flint" },
    });
    expect((await ids("barnaby")).includes(t.id)).toBe(true);

    await call("POST", `/v1/tickets/${t.id}/manage`, {
      token: ws.token,
      body: { action: "add_tags", tags: ["glazedpottery"] },
    });
    expect(await ids("glazedpottery")).toEqual([t.id]);
    await call("POST", `/v1/tickets/${t.id}/manage`, {
      token: ws.token,
      body: { action: "remove_tags", tags: ["glazedpottery"] },
    });
    expect(await ids("glazedpottery")).toEqual([]);

    const source = await create("Duplicate");
    await message(source.id, "The handle snapped clean off");
    await call("POST", `/v1/tickets/${source.id}/manage`, {
      token: ws.token,
      body: { action: "merge", into_ticket_id: t.id },
    });
    expect(await ids("handle snapped")).toEqual([t.id]);

    await call("DELETE", `/v1/tickets/${t.id}`, { token: ws.token });
    expect(await ids("handle snapped")).toEqual([]);
    expect(await ids("teapot")).toEqual([]);
  });

  it("renaming a tag renames it in the index", async () => {
    const { ws, create, ids } = await searchDesk();
    const t = await create("Tagged", { tags: ["oldlabel"] });
    const tags = await callJson<{ data: Array<{ id: string; name: string }> }>("GET", "/v1/tags", {
      token: ws.token,
    });
    const tag = tags.body.data.find((x) => x.name === "oldlabel");
    const res = await call("PATCH", `/v1/tags/${tag?.id}`, { token: ws.token, body: { name: "newlabel" } });
    expect(res.status).toBe(200);
    expect(await ids("oldlabel")).toEqual([]);
    expect(await ids("newlabel")).toEqual([t.id]);
  });
});

describe("a search's plan", () => {
  it("looks words up in the index by MATCH and reads tickets by key, never scanning tickets", async () => {
    const { ticketQueries } = await import("../../src/features/tickets/tickets.repo");
    const { parseSearch } = await import("../../src/features/tickets/search-query");
    const { db } = await import("./helpers");
    const { planOf } = await import("./query-plan");
    const q = parseSearch('refund "late parcel" -paypal');
    for (const filter of [{}, { status: "open" as const }, { tag: "vip" }]) {
      const { page, total } = ticketQueries(db(), { accountId: "acc_X", q, ...filter }, 50, 0);
      for (const plan of [await planOf(page), await planOf(total)]) {
        const text = plan.join("\n");
        expect(text).toMatch(/ticket_search VIRTUAL TABLE INDEX \d+:M/);
        // Every look at the index has a MATCH (M): by rowid range, or at given rowids (=M).
        for (const line of plan.filter((l) => l.includes("ticket_search VIRTUAL TABLE")))
          expect(line).toMatch(/INDEX \d+:\S*M/);
        for (const line of plan.filter((l) => /\btickets\b/.test(l) || / t\b/.test(l)))
          expect(line, text).not.toMatch(/^SCAN (tickets|t)\b/);
      }
    }
  });
});
