import { env } from "cloudflare:workers";
import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { hmacSha256Hex } from "../../src/lib/crypto";
import { call, callJson, eventually, sendingWorkspace } from "./helpers";

type Email = Record<string, unknown> & {
  id: string;
  status: string;
  opens: { count: number };
  clicks: { count: number };
};

async function sentTracked() {
  const ws = await sendingWorkspace("track.test");
  const { body } = await callJson<Email>("POST", "/v1/emails", {
    token: ws.token,
    body: {
      from: "a@track.test",
      to: "b@example.com",
      subject: "Tracked",
      html: '<html><body><p><a href="https://shop.example/orders?id=1&amp;ref=mail">Your order</a></p></body></html>',
      text: "Your order: https://shop.example/orders?id=1",
      track_opens: true,
      track_clicks: true,
    },
  });
  await eventually(
    async () =>
      (await callJson<Email>("GET", `/v1/emails/${body.id}`, { token: ws.token })).body.status === "sent",
  );
  const raw = await (await call("GET", `/v1/emails/${body.id}/content`, { token: ws.token })).text();
  const html = (await PostalMime.parse(raw)).html ?? "";
  const pixel = new URL(/<img src="([^"]+)"/.exec(html)?.[1] ?? "");
  const click = new URL((/<a href="([^"]+)"/.exec(html)?.[1] ?? "").replaceAll("&amp;", "&"));
  return { ws, id: body.id, html, pixel, click };
}

describe("open and click tracking", () => {
  it("rewrites links to signed redirects and adds an open pixel on this service's host", async () => {
    const { id, html, pixel, click } = await sentTracked();
    expect(pixel.pathname).toMatch(new RegExp(`^/t/o/${id}/[0-9a-f]{32}$`));
    expect(click.pathname).toBe(`/t/c/${id}`);
    expect(click.searchParams.get("u")).toBe("https://shop.example/orders?id=1&ref=mail");
    expect(html).not.toContain('href="https://shop.example');
  });

  it("counts opens and clicks and redirects only links it signed", async () => {
    const { ws, id, pixel, click } = await sentTracked();
    const image = await call("GET", pixel.pathname);
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe("image/gif");
    const redirect = await call("GET", `${click.pathname}${click.search}`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("Location")).toBe("https://shop.example/orders?id=1&ref=mail");

    const elsewhere = new URL(click);
    elsewhere.searchParams.set("u", "https://evil.example/phish");
    const refused = await call("GET", `${elsewhere.pathname}${elsewhere.search}`);
    expect(refused.status).toBe(400);
    expect(refused.headers.get("Location")).toBeNull();
    const forged = new URL(click);
    forged.searchParams.set("s", "0".repeat(32));
    expect((await call("GET", `${forged.pathname}${forged.search}`)).status).toBe(400);
    // A pixel with a wrong signature still answers the image but counts nothing.
    await call("GET", `/t/o/${id}/${"f".repeat(32)}`);

    const email = await eventually(async () => {
      const body = (await callJson<Email>("GET", `/v1/emails/${id}`, { token: ws.token })).body;
      return body.opens.count === 1 ? body : null;
    });
    expect(email.clicks.count).toBe(1);
    expect(email.opens).toMatchObject({ count: 1, first_at: expect.any(String) });
  });

  it("still honours links signed before keys were derived (HMAC under `tracking:<key>`)", async () => {
    const { ws, id } = await sentTracked();
    const legacy = async (message: string) =>
      (await hmacSha256Hex(`tracking:${env.ENCRYPTION_KEY}`, message)).slice(0, 32);
    const target = "https://shop.example/old-offer";
    const redirect = await call(
      "GET",
      `/t/c/${id}?u=${encodeURIComponent(target)}&s=${await legacy(`click\n${id}\n${target}`)}`,
    );
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("Location")).toBe(target);
    await call("GET", `/t/o/${id}/${await legacy(`open\n${id}\n`)}`);
    const email = await eventually(async () => {
      const body = (await callJson<Email>("GET", `/v1/emails/${id}`, { token: ws.token })).body;
      return body.opens.count === 1 ? body : null;
    });
    expect(email.clicks.count).toBe(1);
  });
});
