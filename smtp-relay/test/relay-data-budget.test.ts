/**
 * The cap on DATA held in memory across sessions (SMTP_MAX_BUFFERED_BYTES): a message that would
 * take the relay past it gets a temporary 452 and is retried by its client; bytes are given back
 * when a message has been forwarded or its client went away mid-DATA.
 */
import { describe, expect, it } from "vitest";
import { ctx, eventually, sendFails, startRelay, streamingSender } from "./support/relay";

const CAP = 300_000;
/** About 200 KB of body in SMTP-sized lines: one such message fits under the cap, two do not. */
const BIG_BODY = `${"x".repeat(76)}\r\n`.repeat(2_600);
const header = (from: string, subject: string) =>
  `From: ${from}\r\nTo: ada@example.com\r\nSubject: ${subject}\r\n\r\n`;

describe("the cap on buffered DATA", () => {
  it("answers 452 4.3.1 to the message that would exceed it, and accepts its retry once there is room", async () => {
    const relay = await startRelay({ maxBufferedBytes: CAP });
    const { main } = ctx().workspaces;
    const from = `a@${main.domain}`;
    const [first, second] = [
      await streamingSender(relay.port, main.token),
      await streamingSender(relay.port, main.token),
    ];
    try {
      const a = first.send(from, ["ada@example.com"]);
      a.body.write(header(from, "first") + BIG_BODY);
      await eventually(async () => relay.relay.bufferedBytes() >= BIG_BODY.length, 5_000);

      const b = second.send(from, ["ada@example.com"]);
      b.body.end(header(from, "second") + BIG_BODY);
      const refused = await sendFails(b.sent);
      expect(refused.responseCode).toBe(452);
      expect(refused.response).toMatch(/^452 4\.3\.1 /);

      a.body.end("\r\nthe end\r\n");
      expect((await a.sent).response).toMatch(/^250 2\.0\.0 Ok: queued as eml_/);
      await eventually(async () => relay.relay.bufferedBytes() === 0, 5_000);

      const retry = second.send(from, ["ada@example.com"]);
      retry.body.end(header(from, "second, again") + BIG_BODY);
      expect((await retry.sent).response).toMatch(/^250 2\.0\.0 Ok: queued as eml_/);
      expect(relay.relay.bufferedBytes()).toBe(0);
    } finally {
      first.connection.close();
      second.connection.close();
      await relay.close();
    }
  });

  it("gives the bytes back when a client disconnects in the middle of DATA", async () => {
    const relay = await startRelay({ maxBufferedBytes: CAP });
    const { main } = ctx().workspaces;
    const from = `a@${main.domain}`;
    const quitter = await streamingSender(relay.port, main.token);
    const patient = await streamingSender(relay.port, main.token);
    try {
      const abandoned = quitter.send(from, ["ada@example.com"]);
      abandoned.body.write(header(from, "abandoned") + BIG_BODY);
      await eventually(async () => relay.relay.bufferedBytes() >= BIG_BODY.length, 5_000);
      quitter.connection.close();
      await eventually(async () => relay.relay.bufferedBytes() === 0, 5_000);

      const next = patient.send(from, ["ada@example.com"]);
      next.body.end(header(from, "after the quitter") + BIG_BODY);
      expect((await next.sent).response).toMatch(/^250 2\.0\.0 Ok: queued as eml_/);
    } finally {
      patient.connection.close();
      await relay.close();
    }
  });
});
