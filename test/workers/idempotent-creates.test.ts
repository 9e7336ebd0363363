import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { activeAutomation } from "./automations-api-helpers";
import { callJson, errorBody, rowCount, ticketWorkspace } from "./helpers";

type Desk = Awaited<ReturnType<typeof ticketWorkspace>>;
type Answer = Record<string, unknown>;

/**
 * One create route: its path, a body per distinct resource `n`, the rows and events a create
 * adds (counted in D1), and how a plain repeat of the same body (no key) answers.
 */
interface CreateRoute {
  name: string;
  status: number;
  prepare(desk: Desk): Promise<{ path: string; body: (n: number) => unknown }>;
  rows(accountId: string): Promise<number>;
  /** Rows one create adds. */
  created: number;
  /** The event one create fires, if any. */
  event?: string;
  /** A repeat without a key: a second row, or the answer the resource's own uniqueness gives. */
  repeat: { rows: 2 } | { rows: 1; status: number; code?: string };
  /** Where the created resource is read back, to show the stored answer is the resource. */
  readBack?: (answer: Answer) => string;
  /** The read-back equals the answer whole (false: later work, a send or a run, moves it on). */
  settled?: boolean;
}

const routes: CreateRoute[] = [
  {
    name: "POST /v1/tickets",
    status: 201,
    prepare: async (desk) => ({
      path: "/v1/tickets",
      body: (n) => ({
        inbox_id: desk.inbox.id,
        customer: { email: "ada@example.com" },
        subject: `Order ${n}`,
        message: { body_text: `Where is order ${n}?` },
        tags: ["Billing", "urgent"],
      }),
    }),
    rows: (accountId) => rowCount("tickets", accountId),
    created: 1,
    settled: true,
    event: "ticket.created",
    repeat: { rows: 2 },
    readBack: (answer) => `/v1/tickets/${answer.id}`,
  },
  {
    name: "POST /v1/tickets/{id}/messages",
    status: 201,
    prepare: async (desk) => ({
      path: `/v1/tickets/${desk.ticket.id}/messages`,
      // A reply: its email commits in the batch too, so a retry must not send it twice.
      body: (n) => ({
        type: "reply",
        body_text: `Reply ${n}`,
        attachments: [{ filename: "a.txt", content: btoa(`file ${n}`), content_type: "text/plain" }],
      }),
    }),
    rows: async (accountId) =>
      (await rowCount("messages", accountId)) + (await rowCount("emails", accountId)),
    created: 2,
    event: "message.created",
    repeat: { rows: 2 },
    readBack: (answer) => `/v1/messages/${answer.id}`,
  },
  {
    name: "POST /v1/tickets/compose",
    status: 201,
    prepare: async (desk) => ({
      path: "/v1/tickets/compose",
      body: (n) => ({
        inbox_id: desk.inbox.id,
        to: `lead-${n}@example.com`,
        subject: `Hello ${n}`,
        body_text: "Hi",
      }),
    }),
    rows: async (accountId) => (await rowCount("tickets", accountId)) + (await rowCount("emails", accountId)),
    created: 2,
    settled: true,
    repeat: { rows: 2 },
    readBack: (answer) => `/v1/tickets/${answer.id}`,
  },
  {
    name: "POST /v1/customers",
    status: 201,
    prepare: async () => ({
      path: "/v1/customers",
      body: (n) => ({ email: `customer-${n}@example.com`, name: `Customer ${n}`, metadata: { n } }),
    }),
    rows: (accountId) => rowCount("customers", accountId),
    created: 1,
    settled: true,
    repeat: { rows: 1, status: 409, code: "customer_exists" },
    readBack: (answer) => `/v1/customers/${answer.id}`,
  },
  {
    name: "POST /v1/contact-groups",
    status: 201,
    prepare: async () => ({
      path: "/v1/contact-groups",
      body: (n) => ({ name: `Group ${n}`, description: `The ${n}th` }),
    }),
    rows: (accountId) => rowCount("contact_groups", accountId),
    created: 1,
    settled: true,
    repeat: { rows: 1, status: 409, code: "contact_group_exists" },
    readBack: (answer) => `/v1/contact-groups/${answer.id}`,
  },
  {
    name: "POST /v1/contact-groups/{id}/members",
    status: 200,
    prepare: async (desk) => {
      const group = await callJson<{ id: string }>("POST", "/v1/contact-groups", {
        token: desk.ws.token,
        body: { name: "Members" },
      });
      // Ada is already a member, so answers carry a skip as well as joiners.
      await callJson("POST", `/v1/contact-groups/${group.body.id}/members`, {
        token: desk.ws.token,
        body: { members: [{ email: "ada@example.com" }] },
      });
      return {
        path: `/v1/contact-groups/${group.body.id}/members`,
        body: (n) => ({
          members: [
            { email: `member-${n}@example.com` },
            { email: `other-${n}@example.com` },
            { email: "ada@example.com" },
          ],
        }),
      };
    },
    rows: (accountId) => rowCount("contact_group_members", accountId),
    created: 2,
    // A plain repeat adds no one: the members are there already, all three skipped.
    repeat: { rows: 1, status: 200 },
  },
  {
    name: "POST /v1/campaigns",
    status: 201,
    prepare: async (desk) => ({
      path: "/v1/campaigns",
      body: (n) => ({
        name: `News ${n}`,
        from: `news@${desk.domain}`,
        subject: `Issue ${n}`,
        html: "<p>Hi</p>",
      }),
    }),
    rows: (accountId) => rowCount("campaigns", accountId),
    created: 1,
    settled: true,
    repeat: { rows: 2 },
    readBack: (answer) => `/v1/campaigns/${answer.id}`,
  },
  {
    name: "POST /v1/automations",
    status: 201,
    prepare: async () => ({
      path: "/v1/automations",
      body: (n) => ({
        name: `Flow ${n}`,
        trigger: { type: "api" },
        steps: [{ type: "wait", duration: "1d" }],
      }),
    }),
    rows: (accountId) => rowCount("automations", accountId),
    created: 1,
    settled: true,
    repeat: { rows: 2 },
    readBack: (answer) => `/v1/automations/${answer.id}`,
  },
  {
    name: "POST /v1/automations/trigger",
    status: 201,
    prepare: async (desk) => {
      const automation = await activeAutomation(desk.ws.token, {
        steps: [{ type: "wait", duration: "1d" }],
        allow_reentry: true,
      });
      return {
        path: "/v1/automations/trigger",
        body: (n) => ({
          automation_id: automation.id,
          customer: { email: `enrol-${n}@example.com` },
          data: { n },
        }),
      };
    },
    rows: (accountId) => rowCount("automation_enrollments", accountId),
    created: 1,
    repeat: { rows: 2 },
    readBack: (answer) => `/v1/enrollments/${answer.id}`,
  },
];

const eventCount = async (accountId: string, name: string | undefined) =>
  name
    ? ((
        await env.DB_2.prepare("SELECT count(*) AS n FROM events WHERE account_id = ? AND event = ?")
          .bind(accountId, name)
          .first<{ n: number }>()
      )?.n ?? 0)
    : 0;

// The workspace of another team, sharing nothing with each route's own.
let elsewhere: Desk;
beforeAll(async () => {
  elsewhere = await ticketWorkspace("elsewhere");
});

for (const route of routes) {
  describe(`Idempotency-Key on ${route.name}`, () => {
    let desk: Desk;
    let path: string;
    let body: (n: number) => unknown;
    let n = 0;
    const post = (payload: unknown, key?: string, token = desk.ws.token, to = path) =>
      callJson<Answer>("POST", to, {
        token,
        body: payload,
        headers: key ? { "Idempotency-Key": key } : {},
      });
    const counts = async (accountId = desk.ws.accountId) => ({
      rows: await route.rows(accountId),
      events: await eventCount(accountId, route.event),
    });

    beforeAll(async () => {
      desk = await ticketWorkspace("idem");
      ({ path, body } = await route.prepare(desk));
    });

    it("replays the first answer for the same key and body: one resource, one event", async () => {
      const payload = body(++n);
      const before = await counts();
      const first = await post(payload, `same-${n}`);
      expect(first.status).toBe(route.status);
      const replay = await post(payload, `same-${n}`);
      expect(replay.status).toBe(first.status);
      expect(replay.body).toEqual(first.body);
      const after = await counts();
      expect(after.rows - before.rows).toBe(route.created);
      expect(after.events - before.events).toBe(route.event ? 1 : 0);
      if (route.readBack) {
        const read = await callJson<Answer>("GET", route.readBack(first.body), { token: desk.ws.token });
        expect(read.status).toBe(200);
        if (route.settled) expect(read.body).toEqual(first.body);
        else expect(read.body.id).toBe(first.body.id);
      }
    });

    it("answers 409 idempotency_key_reused for the same key with another body, creating nothing", async () => {
      const key = `reused-${++n}`;
      expect((await post(body(n), key)).status).toBe(route.status);
      const before = await counts();
      const reused = await post(body(++n), key);
      expect(reused.status).toBe(409);
      expect(reused.body).toMatchObject(errorBody("Idempotency key reused", "idempotency_key_reused"));
      expect(await counts()).toEqual(before);
    });

    it("gives two concurrent twins with one key the same answer and one resource", async () => {
      const payload = body(++n);
      const before = await counts();
      const twins = await Promise.all([post(payload, `twin-${n}`), post(payload, `twin-${n}`)]);
      expect(twins.map((t) => t.status)).toEqual([route.status, route.status]);
      expect(twins[1]?.body).toEqual(twins[0]?.body);
      const after = await counts();
      expect(after.rows - before.rows).toBe(route.created);
      expect(after.events - before.events).toBe(route.event ? 1 : 0);
    });

    it("without the header, repeats the create", async () => {
      const payload = body(++n);
      const before = await counts();
      const first = await post(payload);
      const second = await post(payload);
      expect(first.status).toBe(route.status);
      if (route.repeat.rows === 2) {
        expect(second.status).toBe(route.status);
        expect(second.body.id).not.toBe(first.body.id);
      } else {
        expect(second.status).toBe(route.repeat.status);
        if (route.repeat.code) expect(second.body.code).toBe(route.repeat.code);
      }
      const after = await counts();
      expect(after.rows - before.rows).toBe(route.created * route.repeat.rows);
      expect(after.events - before.events).toBe(route.event ? route.repeat.rows : 0);
    });

    it("keeps keys per workspace: the same key in another workspace creates its own resource", async () => {
      // The other workspace is shared by every route's tests, so the key names the route.
      const key = `${route.name} shared-${++n}`;
      const here = await post(body(n), key);
      const there = await route.prepare(elsewhere);
      const before = await counts(elsewhere.ws.accountId);
      const other = await post(there.body(n), key, elsewhere.ws.token, there.path);
      expect(here.status).toBe(route.status);
      expect(other.status).toBe(route.status);
      if ("id" in here.body) expect(other.body.id).not.toBe(here.body.id);
      expect((await counts(elsewhere.ws.accountId)).rows - before.rows).toBe(route.created);
    });
  });
}

describe("Idempotency-Key in GET /v1/openapi.json", () => {
  it("is a documented header of every create route", async () => {
    const spec = await callJson<{
      paths: Record<
        string,
        { post: { parameters?: Array<{ in: string; name: string; description?: string }> } }
      >;
    }>("GET", "/v1/openapi.json");
    for (const route of routes) {
      const path = route.name.replace("POST ", "");
      const header = spec.body.paths[path]?.post.parameters?.find(
        (p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key",
      );
      expect(header?.description, path).toContain("idempotency_key_reused");
    }
  });
});
