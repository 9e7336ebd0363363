/**
 * What a template costs per email (issue 46): POST /v1/emails naming a stored template (its
 * published version read, the values checked, Mustache's interpretation of subject, HTML and text)
 * against the very same email sent with its HTML given directly (the template rendered once by
 * POST /v1/templates/{id}/render, so both build the same bytes). Both are sent by the queue in the
 * same run, in alternating slices; each slice's cost (D1 round trips, workerd CPU) is counted from
 * the Worker quiet before it to quiet after its backlog drained (work-cost.ts), so the queue's
 * sending is in both and the difference is the template's own.
 *
 * Without an Idempotency-Key, as here, a Worker instance reads a template in a round trip of its
 * own the first time only; later sends take its published version from the instance, checked by
 * the accepting batch (send-cache.ts). With a key the read shares the key's round trip
 * (emails.templated.ts), which this load (one body for every request) cannot show. No goal: the
 * figures go in the closing note.
 */
import { call, describe, waitForEmptyQueue } from "../lib/api";
import { interleaved, warmUp } from "../lib/measure";
import type { BenchContext, Figure, Scenario, ScenarioResult } from "../lib/types";
import { WorkCost } from "../lib/work-cost";

const BACKLOG_TIMEOUT_MS = 5 * 60_000;
const ROUNDS = 2;

/** A receipt of the size and shape transactional templates have: a few KB, a dozen variables. */
function receiptTemplate(fromDomain: string) {
  const keys = [
    "NAME",
    "ORDER",
    "TOTAL",
    "CARD",
    "SHIP_TO",
    "ETA",
    "ITEM_1",
    "ITEM_2",
    "ITEM_3",
    "SUPPORT_URL",
  ];
  const row = (item: string) =>
    `<tr><td style="padding:8px 0;border-bottom:1px solid #eee;font:14px/20px Helvetica,Arial,sans-serif">{{${item}}}</td></tr>`;
  const html = `<!doctype html><html><body style="margin:0;background:#f6f6f6">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="600" style="background:#fff;margin:24px 0;padding:32px">
<tr><td style="font:bold 20px/28px Helvetica,Arial,sans-serif">Thanks for your order, {{NAME}}!</td></tr>
<tr><td style="font:14px/20px Helvetica,Arial,sans-serif;color:#555">Order {{ORDER}} is confirmed and paid with the card ending {{CARD}}.</td></tr>
${["ITEM_1", "ITEM_2", "ITEM_3"].map(row).join("\n")}
<tr><td style="font:bold 16px/24px Helvetica,Arial,sans-serif;padding-top:16px">Total: {{TOTAL}}</td></tr>
<tr><td style="font:14px/20px Helvetica,Arial,sans-serif;color:#555">Shipping to {{SHIP_TO}}, expected {{ETA}}.</td></tr>
<tr><td style="font:12px/18px Helvetica,Arial,sans-serif;color:#999;padding-top:24px">Questions? <a href="{{{SUPPORT_URL}}}">We are here to help</a>.
${"Acme Inc., 1 Market Street, Springfield. You receive this email because you placed an order. ".repeat(8)}</td></tr>
</table></td></tr></table></body></html>`;
  return {
    name: `Bench receipt ${Date.now()}`,
    from: `Bench <bench@${fromDomain}>`,
    subject: "Your order {{ORDER}}",
    html,
    text: "Thanks for your order, {{NAME}}! Order {{ORDER}}: {{TOTAL}}, arriving {{ETA}}.",
    variables: keys.map((key) => ({ key, type: key === "ORDER" ? "number" : "string" })),
  };
}

const VALUES = {
  NAME: "Ada Lovelace & Co",
  ORDER: 10_452,
  TOTAL: "€ 129.90",
  CARD: "4242",
  SHIP_TO: "12 Analytical Row, London",
  ETA: "Thursday",
  ITEM_1: "Notebook <A5>, dotted",
  ITEM_2: "Fountain pen, fine nib",
  ITEM_3: "Ink, blue-black",
  SUPPORT_URL: "https://help.example.com/orders?ref=receipt",
};

/** A published template and the same email rendered from it, or why not. */
async function setUpTemplate(ctx: BenchContext) {
  const template = receiptTemplate(ctx.fromDomain ?? "");
  const created = await call(ctx, "POST", "/v1/templates", template);
  if (created.status !== 201) return { problem: `POST /v1/templates answered ${describe(created)}` };
  const { id } = JSON.parse(created.text) as { id: string };
  const published = await call(ctx, "POST", `/v1/templates/${id}/publish`);
  if (published.status !== 200) return { problem: `publishing answered ${describe(published)}` };
  const rendered = await call(ctx, "POST", `/v1/templates/${id}/render`, { variables: VALUES });
  if (rendered.status !== 200) return { problem: `rendering answered ${describe(rendered)}` };
  const { subject, html, text } = JSON.parse(rendered.text) as {
    subject: string;
    html: string;
    text: string;
  };
  const to = "someone@example.com";
  return {
    viaTemplate: { to, template: { id, variables: VALUES } },
    direct: { from: template.from, to, subject, html, text },
  };
}

export const templateSend: Scenario = {
  name: "template-send",
  description: "POST /v1/emails through a stored template vs the same HTML given directly, sent by the queue",
  needsSendingDomain: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const problems: string[] = [];
    const result: ScenarioResult = { name: templateSend.name, measurements: [], goals: [], problems };
    const bodies = await setUpTemplate(ctx);
    if ("problem" in bodies) {
      problems.push(`${bodies.problem}; not measured`);
      return result;
    }
    for (const [label, body] of Object.entries(bodies)) {
      const probe = await call(ctx, "POST", "/v1/emails", body);
      if (probe.status !== 200) {
        problems.push(`a single POST /v1/emails (${label}) answered ${describe(probe)}; not measured`);
        return result;
      }
    }

    const load = (body: unknown) => ({
      url: `${ctx.baseUrl}/v1/emails`,
      method: "POST" as const,
      body: JSON.stringify(body),
      headers: { Authorization: `Bearer ${ctx.token}`, "Content-Type": "application/json" },
    });
    const direct = load(bodies.direct);
    const viaTemplate = load(bodies.viaTemplate);
    await warmUp(direct);
    await warmUp(viaTemplate);

    // Each slice's window opens once the Worker is quiet and closes once its backlog is sent.
    const costs = { direct: new WorkCost(ctx), template: new WorkCost(ctx) };
    let left = 0;
    let slices = 0;
    const settle = (cost: WorkCost, next: WorkCost) => async () => {
      left = Math.max(left, (await waitForEmptyQueue(ctx, BACKLOG_TIMEOUT_MS)).left);
      await cost.stop();
      slices++;
      if (slices < 2 * ROUNDS) await next.start();
    };
    await waitForEmptyQueue(ctx, BACKLOG_TIMEOUT_MS);
    await costs.direct.start();
    const [directFigures, templateFigures] = await interleaved(
      [
        {
          ...direct,
          label: "POST /v1/emails (HTML)",
          seconds: ctx.seconds,
          settle: settle(costs.direct, costs.template),
        },
        {
          ...viaTemplate,
          label: "POST /v1/emails (template)",
          seconds: ctx.seconds,
          settle: settle(costs.template, costs.direct),
        },
      ],
      ROUNDS,
    );
    if (!directFigures || !templateFigures) return result;
    result.measurements = [directFigures, templateFigures];

    const sent = (m: typeof directFigures) => m.total - m.non2xx;
    const perDirect = costs.direct.perEmail(sent(directFigures));
    const perTemplate = costs.template.perEmail(sent(templateFigures));
    const figures: Figure[] = [
      ...costs.direct.figures(sent(directFigures)).map((f) => ({ ...f, label: `${f.label} (HTML)` })),
      ...costs.template.figures(sent(templateFigures)).map((f) => ({ ...f, label: `${f.label} (template)` })),
    ];
    if (perDirect.cpuMs !== undefined && perTemplate.cpuMs !== undefined)
      figures.push({
        label: "workerd CPU ms per email the template adds",
        value: perTemplate.cpuMs - perDirect.cpuMs,
        unit: "ms",
      });
    if (perDirect.roundTrips !== undefined && perTemplate.roundTrips !== undefined)
      figures.push({
        label: "D1 round trips per email the template adds",
        value: perTemplate.roundTrips - perDirect.roundTrips,
        unit: "",
      });
    if (directFigures.rps > 0)
      figures.push({
        label: "accepted per second, template / HTML",
        value: templateFigures.rps / directFigures.rps,
        unit: "×",
      });
    result.figures = figures;
    result.paths = [
      {
        path: "API email, HTML given",
        roundTrips: perDirect.roundTrips,
        cpuMs: perDirect.cpuMs,
        throughput: `${directFigures.rps.toFixed(0)} accepted/s`,
      },
      {
        path: "API email, stored template",
        roundTrips: perTemplate.roundTrips,
        cpuMs: perTemplate.cpuMs,
        throughput: `${templateFigures.rps.toFixed(0)} accepted/s`,
      },
    ];
    if (left > 0)
      problems.push(
        `${left} emails were still queued or sending ${BACKLOG_TIMEOUT_MS / 1000} s after a slice`,
      );
    return result;
  },
};
