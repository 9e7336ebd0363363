import { and, eq, inArray } from "drizzle-orm";
import { ulid } from "ulid";
import { connections } from "../../db/schema";
import { environmentOf } from "../../env";
import { notFound } from "../../lib/errors";
import { validationError } from "../../lib/router";
import { domainOf, parseAddress } from "../../mail/address";
import { webhookUrlProblem } from "../../webhooks/url-guard";
import { ownGroupIds } from "../campaigns/campaigns.repo";
import { findInbox } from "../inboxes/inboxes.repo";
import type { AutomationContext } from "./automation-context";
import type { TriggerInput } from "./automations.schemas";
import type { Step, StepInput } from "./steps";

type Issue = { path: (string | number)[]; message: string };

/** Keeps the ids given (so enrolments stay at their step across an edit); new steps get one. */
export const withStepIds = (steps: StepInput[]): Step[] =>
  steps.map((step) => ({ ...step, id: step.id ?? `stp_${ulid()}` }));

/** The trigger's target must be the workspace's: 404 like any other foreign id. */
export async function checkTriggerTarget(ctx: AutomationContext, trigger: TriggerInput) {
  if (trigger.type === "group_joined") {
    const own = await ownGroupIds(ctx.db, ctx.accountId, [trigger.contact_group_id]);
    if (!own.has(trigger.contact_group_id)) throw notFound(`Contact group ${trigger.contact_group_id}`);
  }
  if (trigger.type === "ticket_resolved" && !(await findInbox(ctx.db, ctx.accountId, trigger.inbox_id)))
    throw notFound(`Inbox ${trigger.inbox_id}`);
}

export const triggerRefOf = (trigger: TriggerInput) =>
  trigger.type === "group_joined"
    ? trigger.contact_group_id
    : trigger.type === "ticket_resolved"
      ? trigger.inbox_id
      : null;

/** What the schema cannot see: URL rules of this environment, the workspace's groups, addresses. */
async function stepIssues(ctx: AutomationContext, steps: Step[]): Promise<Issue[]> {
  const environment = environmentOf(ctx.env);
  const groupIds = steps.flatMap((s) =>
    s.type === "add_to_group" || s.type === "remove_from_group" ? [s.contact_group_id] : [],
  );
  const own = await ownGroupIds(ctx.db, ctx.accountId, [...new Set(groupIds)]);
  return steps.flatMap((step, i): Issue[] => {
    const at = (field: string, message: string) => [{ path: ["steps", i, field], message }];
    if (step.type === "webhook") {
      const problem = webhookUrlProblem(step.url, environment);
      return problem ? at("url", problem) : [];
    }
    if (step.type === "add_to_group" || step.type === "remove_from_group")
      return own.has(step.contact_group_id)
        ? []
        : at("contact_group_id", "is not a contact group of this workspace");
    if (step.type === "send_email") {
      const issues: Issue[] = [];
      if (!parseAddress(step.from))
        issues.push(...at("from", "must be an address such as Acme <hi@acme.com>"));
      if (step.reply_to && !parseAddress(step.reply_to)) issues.push(...at("reply_to", "must be an address"));
      if (step.template) {
        if (step.html || step.text)
          issues.push(...at("template", "give `template` or `html`/`text`, not both"));
      } else {
        if (!step.html && !step.text) issues.push(...at("html", "give `html`, `text` or both"));
        if (!step.subject) issues.push(...at("subject", "required without a `template`"));
      }
      return issues;
    }
    return [];
  });
}

/** 400 with `details` naming every step that cannot be stored. */
export async function checkSteps(ctx: AutomationContext, steps: Step[]) {
  const issues = await stepIssues(ctx, steps);
  if (issues.length > 0) throw validationError(issues, "json");
}

/**
 * 400 with `details` for every `send_email` whose from domain is not a verified connection of the
 * workspace: checked when the automation is activated and when an active one is edited (a draft,
 * like a campaign draft, may name a domain still being verified).
 */
export async function checkSendable(ctx: AutomationContext, steps: Step[], target?: "json") {
  const domainOfStep = (step: Step) =>
    step.type === "send_email" ? domainOf(parseAddress(step.from)?.address ?? "") : null;
  const domains = [...new Set(steps.flatMap((s) => domainOfStep(s) ?? []))];
  if (domains.length === 0) return;
  const verified = await ctx.db
    .select({ domain: connections.domain })
    .from(connections)
    .where(
      and(
        eq(connections.accountId, ctx.accountId),
        inArray(connections.domain, domains),
        eq(connections.status, "verified"),
      ),
    );
  const ok = new Set(verified.map((row) => row.domain));
  const issues = steps.flatMap((step, i) => {
    const domain = domainOfStep(step);
    return domain !== null && !ok.has(domain)
      ? [
          {
            path: ["steps", i, "from"],
            message: `the domain ${domain} is not a verified connection of this workspace`,
          },
        ]
      : [];
  });
  if (issues.length > 0) throw validationError(issues, target);
}
