import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const TYPES: Record<string, number> = { TXT: 16, MX: 15, CNAME: 5 };

/**
 * A DNS-over-HTTPS resolver (JSON API, as Cloudflare's and Google's answer) on loopback. Tests
 * publish records with `PUT /records` `{ name, type, values }` and the Worker resolves them through
 * `GET /dns-query?name=&type=`; `name` "fail.test" answers SERVFAIL, like a broken upstream.
 */
export async function startDohServer(): Promise<{ url: string; close(): Promise<void> }> {
  const zone = new Map<string, string[]>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "PUT" && url.pathname === "/records") {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => {
        const { name, type, values } = JSON.parse(body) as { name: string; type: string; values: string[] };
        zone.set(`${name.toLowerCase()} ${type}`, values);
        res.writeHead(204).end();
      });
      return;
    }
    const name = (url.searchParams.get("name") ?? "").toLowerCase();
    const type = url.searchParams.get("type") ?? "A";
    if (name.endsWith("fail.test")) {
      res.writeHead(200, { "content-type": "application/dns-json" }).end(JSON.stringify({ Status: 2 }));
      return;
    }
    const values = zone.get(`${name} ${type}`) ?? [];
    const answer = values.map((data) => ({
      name: `${name}.`,
      type: TYPES[type] ?? 1,
      TTL: 300,
      // TXT data arrives quoted, long values split into 255-character strings, as real resolvers do.
      data: type === "TXT" ? (data.match(/.{1,255}/g) ?? [""]).map((part) => `"${part}"`).join(" ") : data,
    }));
    res.writeHead(200, { "content-type": "application/dns-json" });
    res.end(
      JSON.stringify({ Status: values.length > 0 ? 0 : 3, Answer: answer.length > 0 ? answer : undefined }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
