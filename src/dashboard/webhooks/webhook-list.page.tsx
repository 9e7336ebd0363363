import { MAX_EMAIL_WEBHOOK_ENDPOINTS } from "../../features/email-webhooks/email-webhooks.schemas";
import type { EmailWebhook } from "../../features/email-webhooks/email-webhooks.service";
import { Badge, Empty, Notice, PageHeader, Pager } from "../../ui/components";
import type { Problem } from "../inboxes/form-problem";
import { ProblemNotice } from "../inboxes/form-problem";
import { EndpointForm, EventList } from "./endpoint-form";
import type { EndpointDraft } from "./webhook-forms";

/** Fixed confirmations after a redirect; the query only picks one, it is never shown itself. */
const DONE: Record<string, string> = { deleted: "Webhook deleted, with its deliveries." };

export function EnabledBadge(props: { endpoint: Pick<EmailWebhook, "enabled"> }) {
  return props.endpoint.enabled ? <Badge text="Enabled" tone="good" /> : <Badge text="Disabled" />;
}

export function WebhookListPage(props: {
  endpoints: EmailWebhook[];
  total: number;
  limit: number;
  offset: number;
  canManage: boolean;
  csrfToken: string;
  done?: string | undefined;
  problem?: Problem | undefined;
  draft?: EndpointDraft | undefined;
}) {
  return (
    <>
      <PageHeader title="Webhooks" />
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <p class="muted">
        Endpoints of the workspace that receive email events (sent, delivered, bounced, opened...), each a
        signed POST retried until acknowledged.
      </p>
      <section class="panel">
        {props.endpoints.length === 0 ? (
          <Empty text="No webhooks yet." />
        ) : (
          <table>
            <thead>
              <tr>
                <th>URL</th>
                <th>Events</th>
                <th>Enabled</th>
                <th>Disabled because</th>
              </tr>
            </thead>
            <tbody>
              {props.endpoints.map((endpoint) => (
                <tr>
                  <td class="url">
                    <a href={`/dashboard/webhooks/${endpoint.id}`}>
                      <code>{endpoint.url}</code>
                    </a>
                  </td>
                  <td>
                    <EventList events={endpoint.events} />
                  </td>
                  <td>
                    <EnabledBadge endpoint={endpoint} />
                  </td>
                  <td>{endpoint.disabled_reason ?? <span class="muted">none</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager
          path="/dashboard/webhooks"
          query={{ limit: props.limit }}
          limit={props.limit}
          offset={props.offset}
          total={props.total}
        />
      </section>
      {props.canManage ? (
        <section class="panel">
          <h2>Add a webhook</h2>
          <p class="muted">
            {props.total} of at most {MAX_EMAIL_WEBHOOK_ENDPOINTS} webhooks, disabled ones included.
          </p>
          <ProblemNotice problem={props.problem} />
          {props.total >= MAX_EMAIL_WEBHOOK_ENDPOINTS ? (
            <p role="status">The workspace has all the webhooks it may have: delete one to add another.</p>
          ) : (
            <EndpointForm
              action="/dashboard/webhooks"
              label="Add a webhook"
              button="Add webhook"
              csrfToken={props.csrfToken}
              draft={props.draft}
            />
          )}
        </section>
      ) : null}
    </>
  );
}
