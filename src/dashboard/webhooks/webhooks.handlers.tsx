import type { Context } from "hono";
import { hasRole } from "../../auth/roles";
import type { AppEnv } from "../../env";
import {
  CreateEmailWebhookBodySchema,
  UpdateEmailWebhookBodySchema,
} from "../../features/email-webhooks/email-webhooks.schemas";
import {
  createEmailWebhook,
  deleteEmailWebhook,
  getEmailWebhook,
  listEmailWebhookAttempts,
  listEmailWebhooks,
  resendEmailWebhookDelivery,
  sendEmailWebhookTest,
  updateEmailWebhook,
} from "../../features/email-webhooks/email-webhooks.service";
import { executionOf } from "../../features/email-webhooks/execution";
import { createRouter } from "../../lib/router";
import { asApiBody, formProblem, type Problem } from "../inboxes/form-problem";
import { eventList } from "../inboxes/inbox-forms";
import { SecretValue } from "../inboxes/webhooks.view";
import { renderPage, sessionOf } from "../page";
import { DeliveriesPanel } from "./deliveries.view";
import { SecretPage, WebhookPage } from "./webhook.page";
import type { EndpointDraft } from "./webhook-forms";
import { WebhookListPage } from "./webhook-list.page";
import {
  createWebhookRoute,
  deleteWebhookRoute,
  disableWebhookRoute,
  editWebhookRoute,
  enableWebhookRoute,
  resendDeliveryRoute,
  testWebhookRoute,
  webhookListRoute,
  webhookPageRoute,
  webhookSecretRoute,
} from "./webhooks.routes";

const FIRST_PAGE = { limit: 20, offset: 0 };

interface Shown {
  done?: string | undefined;
  problem?: Problem | undefined;
  draft?: EndpointDraft | undefined;
}

async function renderList(
  c: Context<AppEnv>,
  page: { limit: number; offset: number },
  shown: Shown,
  status: 200 | 400 | 409 = 200,
) {
  const { data, total } = await listEmailWebhooks(c.var.ctx, page);
  return renderPage(
    c,
    { title: "Webhooks", nav: "Webhooks", status },
    <WebhookListPage
      endpoints={data}
      total={total}
      {...page}
      canManage={hasRole(sessionOf(c), "admin")}
      csrfToken={c.var.csrfToken}
      {...shown}
    />,
  );
}

async function renderEndpoint(
  c: Context<AppEnv>,
  id: string,
  page: { limit: number; offset: number },
  shown: Shown,
  status: 200 | 400 | 409 = 200,
) {
  const endpoint = await getEmailWebhook(c.var.ctx, id);
  const attempts = await listEmailWebhookAttempts(c.var.ctx, id, page);
  const canManage = hasRole(sessionOf(c), "admin");
  return renderPage(
    c,
    { title: "Webhook", nav: "Webhooks", status },
    <WebhookPage endpoint={endpoint} canManage={canManage} csrfToken={c.var.csrfToken} {...shown}>
      <DeliveriesPanel
        endpointId={id}
        attempts={attempts.data}
        total={attempts.total}
        {...page}
        canManage={canManage}
        csrfToken={c.var.csrfToken}
      />
    </WebhookPage>,
  );
}

/** Runs a change on the endpoint, then back to its page with `done`, or its reason shown there. */
async function onEndpoint(c: Context<AppEnv>, id: string, done: string, change: () => Promise<unknown>) {
  try {
    await change();
  } catch (error) {
    const { problem, status } = formProblem(error);
    return renderEndpoint(c, id, FIRST_PAGE, { problem }, status);
  }
  return c.redirect(`/dashboard/webhooks/${id}?done=${done}`, 303);
}

export const webhooksPagesRouter = createRouter()
  .openapi(webhookListRoute, async (c) => {
    const { limit, offset, done } = c.req.valid("query");
    return renderList(c, { limit, offset }, { done });
  })
  .openapi(createWebhookRoute, async (c) => {
    const form = c.req.valid("form");
    const draft = { url: form.url, events: eventList(form.events) };
    try {
      const created = await createEmailWebhook(c.var.ctx, asApiBody(CreateEmailWebhookBodySchema, draft));
      return c.redirect(`/dashboard/webhooks/${created.id}?done=created`, 303);
    } catch (error) {
      const { problem, status } = formProblem(error);
      return renderList(c, FIRST_PAGE, { problem, draft }, status);
    }
  })
  .openapi(webhookPageRoute, async (c) => {
    const { limit, offset, done } = c.req.valid("query");
    return renderEndpoint(c, c.req.valid("param").id, { limit, offset }, { done });
  })
  .openapi(editWebhookRoute, async (c) => {
    const { id } = c.req.valid("param");
    const form = c.req.valid("form");
    const draft = { url: form.url, events: eventList(form.events) };
    try {
      await updateEmailWebhook(c.var.ctx, id, asApiBody(UpdateEmailWebhookBodySchema, draft));
    } catch (error) {
      const { problem, status } = formProblem(error);
      return renderEndpoint(c, id, FIRST_PAGE, { problem, draft }, status);
    }
    return c.redirect(`/dashboard/webhooks/${id}?done=saved`, 303);
  })
  .openapi(enableWebhookRoute, async (c) => {
    const { id } = c.req.valid("param");
    return onEndpoint(c, id, "enabled", () => updateEmailWebhook(c.var.ctx, id, { enabled: true }));
  })
  .openapi(disableWebhookRoute, async (c) => {
    const { id } = c.req.valid("param");
    return onEndpoint(c, id, "disabled", () => updateEmailWebhook(c.var.ctx, id, { enabled: false }));
  })
  .openapi(deleteWebhookRoute, async (c) => {
    await deleteEmailWebhook(c.var.ctx, c.req.valid("param").id);
    return c.redirect("/dashboard/webhooks?done=deleted", 303);
  })
  .openapi(testWebhookRoute, async (c) => {
    const { id } = c.req.valid("param");
    return onEndpoint(c, id, "tested", () => sendEmailWebhookTest(c.var.ctx, id, executionOf(c)));
  })
  .openapi(webhookSecretRoute, async (c) => {
    const endpoint = await getEmailWebhook(c.var.ctx, c.req.valid("param").id);
    if (c.req.header("HX-Request") === "true") return c.html(<SecretValue secret={endpoint.secret} />);
    return renderPage(c, { title: "Webhook secret", nav: "Webhooks" }, <SecretPage endpoint={endpoint} />);
  })
  .openapi(resendDeliveryRoute, async (c) => {
    const { id, delivery_id } = c.req.valid("param");
    return onEndpoint(c, id, "resent", () =>
      resendEmailWebhookDelivery(c.var.ctx, id, delivery_id, executionOf(c)),
    );
  });
