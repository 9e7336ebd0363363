import { describe, expect, it } from "vitest";
import { webhookUrlProblem } from "../../src/webhooks/url-guard";

/** What the guard answers, by the words of its message; null is "accepted". */
const REFUSED = /private, link-local or reserved/;
const LOOPBACK = /loopback/;
const EMBEDDED = /embeds an IPv4 address/;
const HTTPS = /must use https:\/\//;
type Verdict = RegExp | null;

/**
 * Every address form of issue 10 and its neighbours: [URL, verdict in production, in development].
 * Development and test are judged alike (loopback allowed, over http too).
 */
const TABLE: Array<[string, Verdict, Verdict]> = [
  // Public receivers.
  ["https://hooks.example.com/in", null, null],
  ["https://8.8.8.8/", null, null],
  ["https://172.32.0.1/", null, null],
  ["https://100.128.0.1/", null, null],
  ["https://198.20.0.1/", null, null],
  ["https://[2606:4700::1111]/", null, null],
  ["http://hooks.example.com/", HTTPS, HTTPS],
  ["http://8.8.8.8/", HTTPS, HTTPS],
  // Loopback: only outside production.
  ["http://127.0.0.1:8787/hook", LOOPBACK, null],
  ["https://127.255.255.254/", LOOPBACK, null],
  ["http://[::1]/", LOOPBACK, null],
  ["http://localhost:9000/", LOOPBACK, null],
  ["https://LOCALHOST./", LOOPBACK, null],
  ["http://hooks.localhost/", LOOPBACK, null],
  ["http://a.b.localhost./", LOOPBACK, null],
  ["http://[::ffff:127.0.0.1]/", LOOPBACK, null],
  // Numeric hosts in disguise: the URL parser rewrites them to dotted quads, judged as such.
  ["https://2130706433/", LOOPBACK, null],
  ["https://0x7f.1/", LOOPBACK, null],
  ["https://0177.0.0.1/", LOOPBACK, null],
  ["https://127.1/", LOOPBACK, null],
  ["https://127.0.0.1./", LOOPBACK, null],
  ["https://0xa9.0xfe.0xa9.0xfe/", REFUSED, REFUSED],
  ["https://2852039166/", REFUSED, REFUSED],
  ["https://0/", REFUSED, REFUSED],
  ["https://134744072/", null, null],
  // IPv4 ranges that are not public unicast.
  ["https://0.0.0.0/", REFUSED, REFUSED],
  ["https://10.0.0.1/", REFUSED, REFUSED],
  ["https://172.16.0.1/", REFUSED, REFUSED],
  ["https://192.168.1.1/", REFUSED, REFUSED],
  ["https://100.64.0.1/", REFUSED, REFUSED],
  ["https://169.254.169.254/latest", REFUSED, REFUSED],
  ["https://198.18.0.1/", REFUSED, REFUSED],
  ["https://198.19.255.254/", REFUSED, REFUSED],
  ["https://192.0.2.10/", REFUSED, REFUSED],
  ["https://198.51.100.10/", REFUSED, REFUSED],
  ["https://203.0.113.10/", REFUSED, REFUSED],
  ["https://192.0.0.8/", REFUSED, REFUSED],
  ["https://224.0.0.1/", REFUSED, REFUSED],
  ["https://240.0.0.1/", REFUSED, REFUSED],
  ["https://255.255.255.255/", REFUSED, REFUSED],
  // IPv6 ranges that are not public unicast.
  ["https://[::]/", REFUSED, REFUSED],
  ["https://[fe80::1]/", REFUSED, REFUSED],
  ["https://[fec0::1]/", REFUSED, REFUSED],
  ["https://[fc00::1]/", REFUSED, REFUSED],
  ["https://[fd12:3456::1]/", REFUSED, REFUSED],
  ["https://[ff02::1]/", REFUSED, REFUSED],
  ["https://[2001:db8::1]/", REFUSED, REFUSED],
  ["https://[3fff::1]/", REFUSED, REFUSED],
  ["https://[2001:2::1]/", REFUSED, REFUSED],
  ["https://[100::1]/", REFUSED, REFUSED],
  ["https://[4000::1]/", REFUSED, REFUSED],
  // IPv4-mapped: the IPv4 address inside is judged; in production the form itself is refused.
  ["https://[::ffff:7f00:1]/", LOOPBACK, null],
  ["https://[::ffff:10.0.0.1]/", REFUSED, REFUSED],
  ["https://[::ffff:169.254.169.254]/", REFUSED, REFUSED],
  ["https://[::ffff:8.8.8.8]/", EMBEDDED, null],
  // IPv4-compatible (deprecated): judged by the IPv4 inside, never loopback.
  ["https://[::127.0.0.1]/", REFUSED, REFUSED],
  ["https://[::a9fe:a9fe]/", REFUSED, REFUSED],
  ["https://[::8.8.8.8]/", EMBEDDED, null],
  // IPv4-translated (RFC 6145).
  ["https://[::ffff:0:a9fe:a9fe]/", REFUSED, REFUSED],
  ["https://[::ffff:0:808:808]/", EMBEDDED, null],
  // NAT64, well-known prefix and local-use prefix.
  ["https://[64:ff9b::127.0.0.1]/", REFUSED, REFUSED],
  ["https://[64:ff9b::a9fe:a9fe]/", REFUSED, REFUSED],
  ["https://[64:ff9b::808:808]/", EMBEDDED, null],
  ["https://[64:ff9b:1::808:808]/", REFUSED, REFUSED],
  // 6to4: 2002:AABB:CCDD::/48 carries the IPv4 address AA.BB.CC.DD.
  ["https://[2002:7f00:1::1]/", REFUSED, REFUSED],
  ["https://[2002:a9fe:a9fe::1]/", REFUSED, REFUSED],
  ["https://[2002:c0a8:101::1]/", REFUSED, REFUSED],
  ["https://[2002:808:808::1]/", EMBEDDED, null],
  // Teredo: the server is in the third and fourth groups, the client is the last 32 bits inverted.
  ["https://[2001:0:808:808::80ff:fffe]/", REFUSED, REFUSED],
  ["https://[2001:0:a9fe:a9fe::f7f7:f7f7]/", REFUSED, REFUSED],
  ["https://[2001:0:808:808::f7f7:f7f7]/", EMBEDDED, null],
];

describe("webhook URL guard", () => {
  it.each(TABLE)("%s: production %s, development %s", (url, production, development) => {
    for (const [environment, verdict] of [
      ["production", production],
      ["development", development],
      ["test", development],
    ] as const) {
      const problem = webhookUrlProblem(url, environment);
      if (verdict === null) expect(problem, `${url} in ${environment}`).toBeNull();
      else expect(problem, `${url} in ${environment}`).toMatch(verdict);
    }
  });

  it("sees the dotted quad the URL parser makes of a numeric host", () => {
    const hosts = ["2130706433", "0x7f.1", "0177.0.0.1", "127.1", "127.0.0.1.", "0x7f000001"].map(
      (host) => new URL(`https://${host}/`).hostname,
    );
    expect(new Set(hosts)).toEqual(new Set(["127.0.0.1"]));
    expect(new URL("https://[::127.0.0.1]/").hostname).toBe("[::7f00:1]");
  });

  it("refuses what is not an https URL, credentials and very long URLs, whatever the environment", () => {
    for (const environment of ["production", "development"] as const) {
      expect(webhookUrlProblem("not a url", environment)).toMatch(/absolute https/);
      expect(webhookUrlProblem("ftp://hooks.example.com/", environment)).toMatch(/absolute https/);
      expect(webhookUrlProblem("https://u:p@hooks.example.com/", environment)).toMatch(/credentials/);
      expect(webhookUrlProblem(`https://a.example/${"x".repeat(2048)}`, environment)).toMatch(/2048/);
    }
  });
});
