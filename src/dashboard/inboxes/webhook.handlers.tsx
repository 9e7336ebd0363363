import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { UpdateInboxBodySchema } from "../../features/inboxes/inboxes.schemas";
import { getInbox, updateInbox } from "../../features/inboxes/inboxes.service";
import type { Webhook } from "../../features/inboxes/webhooks";
import { createRouter } from "../../lib/router";
import { renderPage } from "../page";
import { asApiBody, formProblem } from "./form-problem";
import { SecretPage } from "./inbox.page";
import { eventList, type WebhookDraft } from "./inbox-forms";
import { renderInbox } from "./render-inbox";
import {
  addWebhookRoute,
  deleteWebhookRoute,
  disableWebhookRoute,
  editWebhookRoute,
  enableWebhookRoute,
  webhookSecretRoute,
} from "./webhook.routes";
import { webhookAt, withAdded, withEdited, without } from "./webhook-list";
import { SecretValue } from "./webhooks.view";

type Change = (webhooks: Webhook[]) => unknown[];

/**
 * PATCHes the inbox's whole `webhooks` array, changed by `change`, through the API's schema and
 * `updateInbox` (which fires `inbox.updated`); then back to the inbox, or its page with the reason.
 */
async function changeWebhooks(
  c: Context<AppEnv>,
  id: string,
  change: Change,
  done: string,
  draft?: WebhookDraft,
) {
  try {
    const inbox = await getInbox(c.var.ctx, id);
    const body = asApiBody(UpdateInboxBodySchema, { webhooks: change(inbox.webhooks) });
    await updateInbox(c.var.ctx, id, body);
  } catch (error) {
    const { problem, status } = formProblem(error);
    return renderInbox(c, id, { problem, webhookDraft: draft }, status);
  }
  return c.redirect(`/dashboard/inboxes/${id}?done=${done}`, 303);
}

/** Acts on the webhook at `index`, refusing (409) when the page showed another one there. */
const onWebhook =
  (index: number, shownUrl: string, change: (webhooks: Webhook[]) => unknown[]): Change =>
  (webhooks) => {
    webhookAt(webhooks, index, shownUrl);
    return change(webhooks);
  };

export const webhooksRouter = createRouter()
  .openapi(addWebhookRoute, async (c) => {
    const { id } = c.req.valid("param");
    const form = c.req.valid("form");
    const added = { url: form.url, events: eventList(form.events) };
    return changeWebhooks(c, id, (webhooks) => withAdded(webhooks, added), "webhook_added", added);
  })
  .openapi(editWebhookRoute, async (c) => {
    const { id, index } = c.req.valid("param");
    const form = c.req.valid("form");
    const edit = { url: form.url, events: eventList(form.events) };
    const change = onWebhook(index, form.current_url, (webhooks) => withEdited(webhooks, index, edit));
    return changeWebhooks(c, id, change, "webhook_saved");
  })
  .openapi(enableWebhookRoute, async (c) => {
    const { id, index } = c.req.valid("param");
    const change = onWebhook(index, c.req.valid("form").current_url, (webhooks) =>
      withEdited(webhooks, index, { enabled: true }),
    );
    return changeWebhooks(c, id, change, "webhook_enabled");
  })
  .openapi(disableWebhookRoute, async (c) => {
    const { id, index } = c.req.valid("param");
    const change = onWebhook(index, c.req.valid("form").current_url, (webhooks) =>
      withEdited(webhooks, index, { enabled: false }),
    );
    return changeWebhooks(c, id, change, "webhook_disabled");
  })
  .openapi(deleteWebhookRoute, async (c) => {
    const { id, index } = c.req.valid("param");
    const change = onWebhook(index, c.req.valid("form").current_url, (webhooks) => without(webhooks, index));
    return changeWebhooks(c, id, change, "webhook_deleted");
  })
  .openapi(webhookSecretRoute, async (c) => {
    const { id, index } = c.req.valid("param");
    const inbox = await getInbox(c.var.ctx, id);
    const webhook = webhookAt(inbox.webhooks, index, c.req.valid("form").current_url);
    if (c.req.header("HX-Request") === "true") return c.html(<SecretValue secret={webhook.secret} />);
    return renderPage(
      c,
      { title: "Webhook secret", nav: "Inboxes" },
      <SecretPage inbox={inbox} webhook={webhook} />,
    );
  });
