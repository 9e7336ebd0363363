import type { Context } from "hono";
import type { AppEnv } from "../../env";
import {
  CreateAutomationBodySchema,
  UpdateAutomationBodySchema,
} from "../../features/automations/automations.schemas";
import {
  activateAutomation,
  createAutomation,
  deleteAutomation,
  getAutomation,
  pauseAutomation,
  updateAutomation,
} from "../../features/automations/automations.service";
import { cancelEnrollment } from "../../features/automations/enrollments.service";
import { createRouter } from "../../lib/router";
import { asApiBody, formProblem, type Problem } from "../inboxes/form-problem";
import { SecretValue } from "../inboxes/webhooks.view";
import { renderPage } from "../page";
import type { EditorFormValues } from "./automation-forms";
import { renderAutomation, renderEnrollment, renderNew } from "./automation-render";
import {
  activateAutomationRoute,
  automationSecretRoute,
  cancelEnrollmentRoute,
  createAutomationRoute,
  deleteAutomationRoute,
  pauseAutomationRoute,
  saveAutomationRoute,
} from "./automations.routes";
import { type EditorDraft, readDraft } from "./editor-draft";
import { automationInput } from "./editor-input";
import { applyOp, readOp } from "./editor-ops";
import { SecretPage } from "./secret.page";

/**
 * The editor's post: a step button re-renders the editor with its change; Save reads the draft as
 * the API's body and hands it to `save`. What the API refuses re-renders the editor with its reason.
 */
async function editorPost(
  c: Context<AppEnv>,
  form: EditorFormValues,
  render: (draft: EditorDraft, problem?: Problem, status?: 400 | 409) => Promise<Response>,
  save: (input: ReturnType<typeof automationInput>) => Promise<string>,
) {
  const draft = readDraft(form);
  const op = readOp(form.op);
  if (op.kind !== "save") return render(applyOp(draft, op));
  try {
    return c.redirect(await save(automationInput(draft)), 303);
  } catch (error) {
    // A step's template another workspace's or gone (404), or values it refuses (422), is the form's problem.
    const { problem, status } = formProblem(error, [404, 422]);
    return render(draft, problem, status);
  }
}

/** Runs a move on automation `id` and redirects to it with `done`; a refusal shows on its page. */
async function act(c: Context<AppEnv>, id: string, done: string, action: () => Promise<unknown>) {
  try {
    await action();
  } catch (error) {
    const { problem, status } = formProblem(error);
    return renderAutomation(c, id, { problem }, status);
  }
  return c.redirect(`/dashboard/automations/${id}?done=${done}`, 303);
}

export const automationActionsRouter = createRouter()
  .openapi(createAutomationRoute, async (c) =>
    editorPost(
      c,
      c.req.valid("form"),
      (draft, problem, status) => renderNew(c, draft, problem, status),
      async (input) => {
        const created = await createAutomation(c.var.ctx, asApiBody(CreateAutomationBodySchema, input));
        return `/dashboard/automations/${created.id}?done=created`;
      },
    ),
  )
  .openapi(saveAutomationRoute, async (c) => {
    const { id } = c.req.valid("param");
    return editorPost(
      c,
      c.req.valid("form"),
      (draft, problem, status) => renderAutomation(c, id, { draft, problem }, status),
      async (input) => {
        await updateAutomation(c.var.ctx, id, asApiBody(UpdateAutomationBodySchema, input));
        return `/dashboard/automations/${id}?done=saved`;
      },
    );
  })
  .openapi(activateAutomationRoute, async (c) => {
    const { id } = c.req.valid("param");
    return act(c, id, "activated", () => activateAutomation(c.var.ctx, id));
  })
  .openapi(pauseAutomationRoute, async (c) => {
    const { id } = c.req.valid("param");
    return act(c, id, "paused", () => pauseAutomation(c.var.ctx, id));
  })
  .openapi(deleteAutomationRoute, async (c) => {
    const { id } = c.req.valid("param");
    try {
      await deleteAutomation(c.var.ctx, id);
    } catch (error) {
      const { problem, status } = formProblem(error);
      return renderAutomation(c, id, { problem }, status);
    }
    return c.redirect("/dashboard/automations?done=deleted", 303);
  })
  .openapi(automationSecretRoute, async (c) => {
    const automation = await getAutomation(c.var.ctx, c.req.valid("param").id);
    if (c.req.header("HX-Request") === "true") return c.html(<SecretValue secret={automation.secret} />);
    return renderPage(
      c,
      { title: "Automation secret", nav: "Automations" },
      <SecretPage automation={automation} />,
    );
  })
  .openapi(cancelEnrollmentRoute, async (c) => {
    const { id } = c.req.valid("param");
    try {
      await cancelEnrollment(c.var.ctx, id);
    } catch (error) {
      const { problem, status } = formProblem(error);
      return renderEnrollment(c, id, { problem }, status);
    }
    return c.redirect(`/dashboard/enrollments/${id}?done=cancelled`, 303);
  });
