import { validationError } from "../../lib/router";
import { commitEmails } from "../emails/emails.accept";
import { normalizeEmail } from "../emails/emails.input";
import type { EmailRow } from "../emails/emails.repo";
import { type EmailContext, prepareFeatureEmail } from "../emails/emails.service";
import { enqueueEmails } from "../emails/enqueue";
import { joinVariables } from "./layouts";
import { type DraftContent, previewDraft } from "./preview";
import { publishedLayout } from "./template-writes";
import type { VariableValues } from "./templates.schemas";
import { assertMarkup, checkValues, valueProblems, variablesOf, variablesRefused } from "./variables";

export interface TestDraft extends DraftContent {
  from: string | null;
  replyTo: string[];
  /** The layout the editor names (id or alias), or null. */
  layoutId: string | null;
}

/**
 * The dashboard's "send a test to me": the editor's content rendered with the preview's values,
 * one email to `to` (the caller passes the signed-in person's own address, never one typed)
 * through every check of POST /v1/emails (verified domain, quotas, suppression, size). It is
 * refused, never sent with a placeholder, when the markup would not publish or a value is missing,
 * undeclared or of the wrong type (422, as a publish and a send answer). It names no template
 * version: a draft changes, and an email names only what it was built from. A draft naming a
 * layout is sent in the layout's published version, as a send would be (422 when it has none, or is
 * not this workspace's layout); the layout's variables join the draft's.
 */
export async function sendDraftTest(
  ctx: EmailContext,
  templateId: string,
  to: string,
  draft: TestDraft,
  given: VariableValues,
) {
  const content = { ...draft, variables: JSON.stringify(draft.variables) };
  assertMarkup(templateId, content, true);
  const layout = draft.layoutId ? await publishedLayout(ctx, templateId, draft.layoutId) : null;
  const declared = joinVariables(draft.variables, layout ? variablesOf(layout) : null);
  const details = valueProblems(checkValues(declared, given), "variables");
  if (details.length > 0) throw variablesRefused(details);
  const rendered = previewDraft(draft, given, layout ? { layout } : undefined).rendered;
  if (!rendered) throw new Error("markup that passed assertMarkup always renders");
  const needed = [
    ...(draft.from ? [] : [{ path: ["from"], message: "is needed to send a test" }]),
    ...(rendered.subject ? [] : [{ path: ["subject"], message: "is needed to send a test" }]),
  ];
  if (needed.length > 0) throw validationError(needed);
  const email = normalizeEmail(
    {
      from: draft.from as string,
      to,
      ...(draft.replyTo.length > 0 ? { reply_to: draft.replyTo } : {}),
      subject: `[Test] ${rendered.subject}`,
      html: rendered.html,
      ...(rendered.text === null ? {} : { text: rendered.text }),
    },
    ctx.now,
    "",
  );
  const prepared = await prepareFeatureEmail(ctx, email, "template_test");
  await commitEmails(ctx.db, prepared);
  await enqueueEmails(ctx.env.EMAIL_QUEUE, prepared.rows as EmailRow[], ctx.now);
  return { email_id: prepared.row.id };
}
