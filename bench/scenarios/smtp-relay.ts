/**
 * The SMTP relay's cost: messages per second from 10 concurrent senders through the relay into
 * the running API (capture transport), as a ratio to the same senders against a bare smtp-server
 * that discards messages (same STARTTLS and AUTH); and the relay process's memory holding 500 idle
 * connections. For scale it also measures POST /v1/emails/raw straight from 10 HTTP connections: the
 * API's own ceiling, which bounds the relay. Both SMTP servers run in this process for the throughput figures, so both share its
 * event loop with the senders alike; the memory figure comes from a relay process of its own.
 */

import MailComposer from "nodemailer/lib/mail-composer";
import { readDevVar } from "../../scripts/lib/dev-vars";
import { loadConfig } from "../../smtp-relay/src/config";
import { createRelayServer } from "../../smtp-relay/src/server";
import { selfSignedCertificate } from "../../smtp-relay/src/tls";
import { waitForEmptyQueue } from "../lib/api";
import { startBareSmtp } from "../lib/bare-smtp";
import { measure, warmUp } from "../lib/measure";
import { idleConnections, startRelayProcess } from "../lib/relay-process";
import { measureSmtp } from "../lib/smtp-load";
import type { BenchContext, Figure, Scenario, ScenarioResult } from "../lib/types";

const SENDERS = 10;
const IDLE_CONNECTIONS = 500;
const BACKLOG_TIMEOUT_MS = 5 * 60_000;
const MB = 1024 * 1024;

export const smtpRelay: Scenario = {
  name: "smtp-relay",
  description: `${SENDERS} SMTP senders: relay into the API vs a bare smtp-server; relay memory with ${IDLE_CONNECTIONS} idle connections`,
  needsSendingDomain: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const result: ScenarioResult = { name: smtpRelay.name, measurements: [], goals: [] };
    const relayToken = process.env.RELAY_TOKEN ?? readDevVar("RELAY_TOKEN") ?? "";
    const certificate = await selfSignedCertificate("localhost");
    const message = {
      from: `Bench <bench@${ctx.fromDomain}>`,
      to: "someone@example.com",
      subject: "Bench",
      text: "Hello",
      html: "<p>Hello</p>",
    };
    const load = {
      password: ctx.token,
      ca: certificate.cert,
      senders: SENDERS,
      seconds: ctx.seconds,
      message,
    };

    // The API's own ceiling for the same messages and concurrency, without SMTP in front.
    const raw = await new MailComposer(message).compile().build();
    const direct = {
      url: `${ctx.baseUrl}/v1/emails/raw`,
      method: "POST" as const,
      connections: SENDERS,
      headers: { Authorization: `Bearer ${ctx.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        mail_from: `bench@${ctx.fromDomain}`,
        rcpt_to: [message.to],
        raw: raw.toString("base64"),
      }),
    };
    await warmUp(direct);
    const directFigures = await measure({
      ...direct,
      label: "POST /v1/emails/raw direct",
      seconds: ctx.seconds,
    });
    await waitForEmptyQueue(ctx, BACKLOG_TIMEOUT_MS);

    const bare = await startBareSmtp(certificate);
    const bareFigures = await measureSmtp({ ...load, label: "bare smtp-server (discard)", port: bare.port });
    await bare.close();

    const config = loadConfig({ RELAY_API_URL: ctx.baseUrl, RELAY_TOKEN: relayToken, SMTP_PORT: "0" });
    const relay = createRelayServer(config, certificate);
    const { port } = await relay.listen();
    const relayFigures = await measureSmtp({ ...load, label: "relay → POST /v1/emails/raw", port });
    await relay.close();
    result.measurements = [bareFigures, relayFigures, directFigures];

    const memory = await relayMemory(ctx.baseUrl, relayToken);
    const backlog = await waitForEmptyQueue(ctx, BACKLOG_TIMEOUT_MS);
    const figures: Figure[] = [
      { label: "relay msgs/s", value: relayFigures.rps, unit: "msg/s" },
      { label: "bare smtp-server msgs/s", value: bareFigures.rps, unit: "msg/s" },
      {
        label: "ratio relay/bare msgs/s",
        value: bareFigures.rps > 0 ? relayFigures.rps / bareFigures.rps : 0,
        unit: "",
      },
      {
        label: "ratio relay/direct API msgs/s",
        value: directFigures.rps > 0 ? relayFigures.rps / directFigures.rps : 0,
        unit: "",
      },
      { label: "relay RSS, started and idle", value: memory.before / MB, unit: "MB" },
      { label: `relay RSS with ${IDLE_CONNECTIONS} idle connections`, value: memory.after / MB, unit: "MB" },
      {
        label: "per idle connection",
        value: (memory.after - memory.before) / IDLE_CONNECTIONS / 1024,
        unit: "KB",
      },
      { label: "emails unsent when the load ended", value: backlog.found, unit: "emails" },
    ];
    result.figures = figures;
    const problems: string[] = [];
    if (relayFigures.non2xx > 0) problems.push(`${relayFigures.non2xx} relayed messages were refused`);
    if (backlog.left > 0) {
      problems.push(`${backlog.left} emails were still unsent ${BACKLOG_TIMEOUT_MS / 1000} s after the load`);
    }
    if (problems.length > 0) result.problems = problems;
    return result;
  },
};

async function relayMemory(apiUrl: string, relayToken: string) {
  const relay = await startRelayProcess({
    RELAY_API_URL: apiUrl,
    RELAY_TOKEN: relayToken,
    SMTP_MAX_CLIENTS: String(IDLE_CONNECTIONS * 2),
    SMTP_TLS_DIR: `${process.env.TMPDIR ?? "/tmp"}/bench-relay-tls`,
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const before = relay.rssBytes();
    const sockets = await idleConnections(relay.port, IDLE_CONNECTIONS);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const after = relay.rssBytes();
    for (const socket of sockets) socket.destroy();
    return { before, after };
  } finally {
    await relay.stop();
  }
}
