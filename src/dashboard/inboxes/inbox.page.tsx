import type { Webhook } from "../../features/inboxes/webhooks";
import { ActionButton, CsrfField, Notice, PageHeader, Time } from "../../ui/components";
import { type Problem, ProblemNotice } from "./form-problem";
import type { InboxSettingsDraft, WebhookDraft } from "./inbox-forms";
import { type Inbox, STATUS_LABELS } from "./inbox-list.page";
import { InboxFields, RULE_LABELS } from "./new-inbox.page";
import { SecretValue, WebhooksPanel } from "./webhooks.view";

/** Fixed confirmations after a redirect; the query only picks one, it is never shown itself. */
const DONE: Record<string, string> = {
  created: "Inbox created.",
  saved: "Settings saved.",
  webhook_added: "Webhook added.",
  webhook_saved: "Webhook saved.",
  webhook_enabled: "Webhook enabled.",
  webhook_disabled: "Webhook disabled.",
  webhook_deleted: "Webhook deleted.",
};

export interface InboxPageProps {
  inbox: Inbox;
  canManage: boolean;
  csrfToken: string;
  done?: string | undefined;
  problem?: Problem | undefined;
  settingsDraft?: InboxSettingsDraft | undefined;
  webhookDraft?: WebhookDraft | undefined;
}

function Crumbs() {
  return (
    <p class="crumbs">
      <a href="/dashboard/inboxes">Inboxes</a>
    </p>
  );
}

/** What no form changes: shown under the settings form, or with the settings read-only. */
function About(props: { inbox: Inbox }) {
  const { inbox } = props;
  return (
    <>
      <dt>Id</dt>
      <dd>
        <code>{inbox.id}</code>
      </dd>
      <dt>Connection</dt>
      <dd>{inbox.connection_id ? <code>{inbox.connection_id}</code> : <span class="muted">none</span>}</dd>
      <dt>Created</dt>
      <dd>
        <Time at={inbox.created_at} />
      </dd>
      <dt>Updated</dt>
      <dd>
        <Time at={inbox.updated_at} />
      </dd>
    </>
  );
}

function Settings(props: InboxPageProps) {
  const { inbox } = props;
  return (
    <section class="panel" aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      {props.canManage ? (
        <>
          <form method="post" action={`/dashboard/inboxes/${inbox.id}`} class="stack">
            <CsrfField token={props.csrfToken} />
            <InboxFields values={props.settingsDraft ?? inbox} />
            <div class="actions">
              <button type="submit">Save</button>
            </div>
          </form>
          <dl class="facts about">
            <About inbox={inbox} />
          </dl>
        </>
      ) : (
        <dl class="facts">
          <dt>Name</dt>
          <dd>{inbox.name}</dd>
          <dt>Email address</dt>
          <dd>{inbox.email_address}</dd>
          <dt>Status after reply</dt>
          <dd>{STATUS_LABELS[inbox.status_after_reply]}</dd>
          <dt>Assignment</dt>
          <dd>{RULE_LABELS[inbox.assignment_rule]}</dd>
          <About inbox={inbox} />
        </dl>
      )}
    </section>
  );
}

export function InboxPage(props: InboxPageProps) {
  const { inbox } = props;
  return (
    <>
      <Crumbs />
      <PageHeader title={inbox.name} />
      <p class="subtitle">{inbox.email_address}</p>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <ProblemNotice problem={props.problem} />
      <Settings {...props} />
      <WebhooksPanel
        inboxId={inbox.id}
        webhooks={inbox.webhooks}
        canManage={props.canManage}
        csrfToken={props.csrfToken}
        draft={props.webhookDraft}
      />
      {props.canManage ? (
        <section class="panel danger-zone" aria-labelledby="delete-heading">
          <h2 id="delete-heading">Delete this inbox</h2>
          <p class="muted">Its tickets, their messages and its tags are deleted with it.</p>
          <ActionButton
            action={`/dashboard/inboxes/${inbox.id}/delete`}
            label="Delete"
            csrfToken={props.csrfToken}
            confirm={`Delete the inbox ${inbox.name} and all its tickets?`}
            danger
          />
        </section>
      ) : null}
    </>
  );
}

/** The page a secret opens on without script. */
export function SecretPage(props: { inbox: Inbox; webhook: Webhook }) {
  return (
    <>
      <p class="crumbs">
        <a href={`/dashboard/inboxes/${props.inbox.id}`}>{props.inbox.name}</a>
      </p>
      <PageHeader title="Webhook secret" />
      <section class="panel">
        <dl class="facts">
          <dt>Webhook</dt>
          <dd>
            <code>{props.webhook.url}</code>
          </dd>
          <dt>Secret</dt>
          <dd>
            <SecretValue secret={props.webhook.secret} />
          </dd>
        </dl>
        <p class="muted">
          Verify each delivery's X-Service-Signature with it: HMAC-SHA256 of "timestamp.body", keyed with the
          whole secret.
        </p>
      </section>
    </>
  );
}
