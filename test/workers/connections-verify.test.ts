import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callJson, seedWorkspace } from "./helpers";

declare global {
  namespace Cloudflare {
    interface Env {
      DOH_TEST_URL: string;
    }
  }
}

type Connection = {
  id: string;
  status: string;
  dns_records: Array<{ purpose: string; type: string; name: string; value: string; status: string }>;
};

const publish = (name: string, type: string, values: string[]) =>
  fetch(`${env.DOH_TEST_URL}/records`, { method: "PUT", body: JSON.stringify({ name, type, values }) });

async function connect(domain: string) {
  const ws = await seedWorkspace();
  const { body } = await callJson<Connection>("POST", "/v1/connections", {
    token: ws.token,
    body: { domain },
  });
  const record = (purpose: string) =>
    body.dns_records.find((r) => r.purpose === purpose) as Connection["dns_records"][number];
  const verify = () => callJson<Connection>("POST", `/v1/connections/${body.id}/verify`, { token: ws.token });
  return { ws, connection: body, record, verify };
}

describe("POST /v1/connections/{id}/verify over DNS-over-HTTPS", () => {
  it("stays failed until DKIM and SPF are published, then verifies", async () => {
    const { record, verify } = await connect("verify.test");
    const missing = await verify();
    expect(missing.status).toBe(200);
    expect(missing.body.status).toBe("failed");
    expect(missing.body.dns_records.map((r) => r.status)).toEqual([
      "missing",
      "missing",
      "missing",
      "missing",
    ]);

    await publish(record("dkim").name, "TXT", [record("dkim").value]);
    await publish("verify.test", "TXT", [
      "google-site-verification=abc",
      "v=spf1 include:other.example ~all",
    ]);
    const wrongSpf = await verify();
    expect(wrongSpf.body.status).toBe("failed");
    expect(Object.fromEntries(wrongSpf.body.dns_records.map((r) => [r.purpose, r.status]))).toMatchObject({
      dkim: "verified",
      spf: "mismatch",
    });

    // A merged SPF record that includes ours is fine; DMARC and MX are optional.
    await publish("verify.test", "TXT", [`v=spf1 include:other.example include:${env.SPF_INCLUDE} ~all`]);
    await publish("verify.test", "MX", [`10 ${env.INBOUND_MX_HOST}.`]);
    const verified = await verify();
    expect(verified.body.status).toBe("verified");
    expect(Object.fromEntries(verified.body.dns_records.map((r) => [r.purpose, r.status]))).toEqual({
      dkim: "verified",
      spf: "verified",
      dmarc: "missing",
      inbound: "verified",
    });
  });

  it("refuses a DKIM record holding another key", async () => {
    const { record, verify } = await connect("wrongkey.test");
    await publish(record("dkim").name, "TXT", [
      "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwrong",
    ]);
    await publish("wrongkey.test", "TXT", [`v=spf1 include:${env.SPF_INCLUDE} -all`]);
    const result = await verify();
    expect(result.body.status).toBe("failed");
    expect(result.body.dns_records.find((r) => r.purpose === "dkim")?.status).toBe("mismatch");
  });

  it("answers 502 and changes nothing when the resolver fails", async () => {
    const { ws, connection, verify } = await connect("fail.test");
    const result = await verify();
    expect(result.status).toBe(502);
    expect(result.body).toMatchObject({ code: "dns_unavailable" });
    const after = await callJson<Connection>("GET", `/v1/connections/${connection.id}`, { token: ws.token });
    expect(after.body.status).toBe("pending");
  });
});
