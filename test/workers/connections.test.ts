import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decryptSecret } from "../../src/lib/crypto";
import { addKey, call, callJson, errorBody, seedWorkspace } from "./helpers";

type Connection = {
  id: string;
  domain: string;
  status: string;
  dns_records: Array<{
    purpose: string;
    type: string;
    name: string;
    value: string;
    required: boolean;
    status: string;
  }>;
};

describe("connections", () => {
  it("connects a domain and answers the DNS records to publish", async () => {
    const ws = await seedWorkspace();
    const { status, body } = await callJson<Connection>("POST", "/v1/connections", {
      token: ws.token,
      body: { domain: "Mail.Example.COM" },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ domain: "mail.example.com", status: "pending" });
    expect(body.id).toMatch(/^con_/);
    const byPurpose = Object.fromEntries(body.dns_records.map((r) => [r.purpose, r]));
    expect(byPurpose.dkim).toMatchObject({ type: "TXT", required: true, status: "unchecked" });
    expect(byPurpose.dkim?.name).toMatch(/^[a-z0-9]+\._domainkey\.mail\.example\.com$/);
    expect(byPurpose.dkim?.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/);
    expect(byPurpose.spf).toMatchObject({ type: "TXT", name: "mail.example.com", required: true });
    expect(byPurpose.spf?.value).toContain(`include:${env.SPF_INCLUDE}`);
    expect(byPurpose.dmarc).toMatchObject({ type: "TXT", name: "_dmarc.mail.example.com", required: false });
    expect(byPurpose.inbound).toMatchObject({ type: "MX", value: env.INBOUND_MX_HOST, priority: 10 });
  });

  it("keeps the DKIM private key only encrypted", async () => {
    const ws = await seedWorkspace();
    const { body } = await callJson<Connection>("POST", "/v1/connections", {
      token: ws.token,
      body: { domain: "secret.example" },
    });
    const row = await env.DB_2.prepare("SELECT * FROM connections WHERE id = ?")
      .bind(body.id)
      .first<Record<string, string>>();
    const privateKey = await decryptSecret(env.ENCRYPTION_KEY, row?.dkim_private_key_encrypted as string);
    expect(privateKey.length).toBeGreaterThan(1000);
    expect(JSON.stringify(row)).not.toContain(privateKey);
    expect(JSON.stringify(body)).not.toContain(privateKey);
  });

  it("answers 409 for a domain the workspace already has, in any case", async () => {
    const ws = await seedWorkspace();
    await call("POST", "/v1/connections", { token: ws.token, body: { domain: "dup.example" } });
    const { status, body } = await callJson("POST", "/v1/connections", {
      token: ws.token,
      body: { domain: "DUP.example" },
    });
    expect(status).toBe(409);
    expect(body).toEqual({
      ...errorBody("Domain already connected", "domain_exists"),
      message: expect.any(String),
    });
  });

  it.each(["not a domain", "localhost", "-bad.example", "a..b.com", ""])(
    "refuses %j with 400",
    async (domain) => {
      const ws = await seedWorkspace();
      expect((await call("POST", "/v1/connections", { token: ws.token, body: { domain } })).status).toBe(400);
    },
  );

  it("lists as { data, meta }, gets, deletes, and hides other workspaces' connections", async () => {
    const a = await seedWorkspace();
    const b = await seedWorkspace();
    const mine = (
      await callJson<Connection>("POST", "/v1/connections", { token: a.token, body: { domain: "a.example" } })
    ).body;
    const theirs = (
      await callJson<Connection>("POST", "/v1/connections", { token: b.token, body: { domain: "b.example" } })
    ).body;

    const list = await callJson<{ data: Connection[]; meta: { total: number } }>("GET", "/v1/connections", {
      token: a.token,
    });
    expect(list.body.meta).toEqual({ total: 1 });
    expect(list.body.data.map((c) => c.id)).toEqual([mine.id]);
    expect((await callJson("GET", `/v1/connections/${mine.id}`, { token: a.token })).body.domain).toBe(
      "a.example",
    );
    for (const [method, path] of [
      ["GET", `/v1/connections/${theirs.id}`],
      ["POST", `/v1/connections/${theirs.id}/verify`],
      ["DELETE", `/v1/connections/${theirs.id}`],
    ] as const) {
      expect((await call(method, path, { token: a.token })).status).toBe(404);
    }
    expect((await callJson("DELETE", `/v1/connections/${mine.id}`, { token: a.token })).body).toEqual({
      id: mine.id,
      deleted: true,
    });
    expect((await call("GET", `/v1/connections/${mine.id}`, { token: a.token })).status).toBe(404);
  });

  it("lets only admin keys change connections", async () => {
    const ws = await seedWorkspace();
    const write = await addKey(ws.accountId, "write");
    expect(
      (await call("POST", "/v1/connections", { token: write.token, body: { domain: "w.example" } })).status,
    ).toBe(403);
    expect((await call("GET", "/v1/connections", { token: write.token })).status).toBe(200);
  });
});
