import { randomBytes } from "node:crypto";
import { call, callOk } from "../lib/api";
import { cpuSince, groupCpuMs, openInspector, summarizeProfile } from "../lib/cpu-profile";
import { sleep } from "../lib/process-group";
import { startServer } from "../lib/server";
const N = Number(process.env.N ?? "2000");
const server = await startServer();
try {
  const ctx = { baseUrl: server.baseUrl, token: server.token, seconds: 5, fromDomain: server.fromDomain };
  const runId = randomBytes(4).toString("hex");
  const g = JSON.parse((await call(ctx as never, "POST", "/v1/contact-groups", { name: `P ${runId}` })).text);
  for (let i = 0; i < N; i += 1000) {
    const members = Array.from({ length: Math.min(1000, N - i) }, (_, j) => ({ email: `r${i + j}.${runId}@example.com` }));
    await callOk(ctx as never, "POST", `/v1/contact-groups/${g.id}/members`, { members });
  }
  const c = JSON.parse((await call(ctx as never, "POST", "/v1/campaigns", {
    name: `P ${runId}`, from: `Bench <news@${server.fromDomain}>`, subject: "News for {{name|you}}",
    html: '<p>Hello {{first_name|there}}</p><p><a href="{{unsubscribe_url}}">Unsubscribe</a></p>', text: "Hello", contact_group_ids: [g.id],
  })).text);
  const { processGroup, inspectorPort } = server.local!;
  const inspector = await openInspector(inspectorPort);
  await inspector.startProfile();
  const before = groupCpuMs(processGroup);
  const t0 = performance.now();
  await callOk(ctx as never, "POST", `/v1/campaigns/${c.id}/send`, {});
  for (;;) {
    const s = await callOk<{ status: string; stats: { sent: number } }>(ctx as never, "GET", `/v1/campaigns/${c.id}`);
    if (s.status === "sent") break;
    await sleep(300);
  }
  const secs = (performance.now() - t0) / 1000;
  const cpu = cpuSince(before, groupCpuMs(processGroup));
  const profile = await inspector.stopProfile();
  const sources = await inspector.sourcesOf(profile);
  inspector.close();
  console.log(`${N} recipients in ${secs.toFixed(1)} s = ${(N / secs).toFixed(0)}/s`);
  console.log([...cpu].map(([k, v]) => `${k} ${(v / N).toFixed(2)} ms/recipient`).join(", "));
  console.log(summarizeProfile(profile, sources, 40));
} finally {
  await server.stop();
}
