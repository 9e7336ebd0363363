import type { Db } from "../../../../db/client";
import { declaredWith, textHasUnsubscribe } from "../../../campaigns/campaign-template";
import { type ContactFields, missingReason, personValues } from "../../../campaigns/template-values";
import { fill, oneLine, textWithUnsubscribe } from "../../../campaigns/variables";
import { renderInLayout } from "../../../templates/layouts";
import { newRenderer } from "../../../templates/markup";
import { findTemplateWithVersion } from "../../../templates/templates.repo";
import { renderVersion, viewOf } from "../../../templates/variables";
import type { Step } from "../../steps";
import { failed, type StepOutcome, skipped } from "../history";
import type { CustomerRow, Progress } from "../progress";

type EmailStep = Extract<Step, { type: "send_email" }>;

/** What a step's email says to one customer, and the template version it came from (if any). */
export interface StepContent {
  subject: string;
  html?: string;
  text?: string;
  template?: { id: string; versionId: string; layout?: { id: string; versionId: string } };
}

function triggerData(p: Progress): Record<string, unknown> {
  const data: unknown = JSON.parse(p.enrollment.triggerData);
  return data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
}

/**
 * The step's content for the customer: its own html/text with the campaigns' variables, or its
 * template's published version (or the version named) filled in from the step, the trigger data
 * and the customer (template-values.ts). A template gone or unpublished fails the step; a
 * variable without a value skips it, never sending a placeholder. One read of the template, by
 * primary keys, when the step runs (its own round trip: a step sends one email).
 */
export async function stepContent(
  db: Db,
  p: Progress,
  step: EmailStep,
  customer: CustomerRow,
  url: string,
): Promise<StepContent | StepOutcome> {
  const values = { email: customer.email, name: customer.name ?? null, unsubscribeUrl: url };
  const ownSubject = step.subject ? oneLine(fill(step.subject, values)) : null;
  if (!step.template) {
    return {
      subject: ownSubject ?? "",
      ...(step.html ? { html: fill(step.html, values, true) } : {}),
      ...(step.text ? { text: fill(textWithUnsubscribe(step.text), values) } : {}),
    };
  }
  const ref = step.template;
  const found = await findTemplateWithVersion(
    db,
    p.enrollment.accountId,
    ref.id,
    ref.version_id ? { id: ref.version_id } : "published",
  );
  if (!found) return failed(`template_not_found: template ${ref.id} no longer exists`);
  const version = found.version;
  if (!version || version.publishedAt === null)
    return failed(`template_not_published: template ${ref.id} has no published version to send`);
  const layout = version.layoutId
    ? await findTemplateWithVersion(db, p.enrollment.accountId, version.layoutId, "published")
    : null;
  if (version.layoutId && (layout?.template.type !== "layout" || !layout.version))
    return failed(
      `template_layout_not_published: template ${ref.id} uses layout ${version.layoutId}, which was removed or has no published version`,
    );
  const frame = layout?.version ?? null;
  const declared = declaredWith(version, frame);
  const contact: ContactFields = { ...values, metadata: customer.metadata };
  const { given, missing } = personValues(declared, ref.variables ?? {}, contact, triggerData(p));
  if (missing.length > 0) return skipped(missingReason(missing));
  const view = viewOf(declared, given, [], () => "");
  const renderer = newRenderer();
  const rendered = renderInLayout(renderVersion(version, view, renderer), frame, view, renderer);
  return {
    subject: ownSubject ?? oneLine(rendered.subject ?? ""),
    html: rendered.html,
    ...(rendered.text === null
      ? {}
      : {
          text: textHasUnsubscribe(version, frame)
            ? rendered.text
            : `${rendered.text}\n\nUnsubscribe: ${url}\n`,
        }),
    template: {
      id: found.template.id,
      versionId: version.id,
      ...(frame ? { layout: { id: frame.templateId, versionId: frame.id } } : {}),
    },
  };
}

export const isOutcome = (value: StepContent | StepOutcome): value is StepOutcome => "status" in value;
