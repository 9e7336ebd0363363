import type { getInbox } from "../../features/inboxes/inboxes.service";
import { Empty, Notice, PageHeader, Pager, Time } from "../../ui/components";

export type Inbox = Awaited<ReturnType<typeof getInbox>>;

/** Fixed confirmations after a redirect; the query only picks one, it is never shown itself. */
const DONE: Record<string, string> = { deleted: "Inbox deleted, with its tickets." };

export const STATUS_LABELS: Record<Inbox["status_after_reply"], string> = {
  open: "Open",
  pending: "Pending",
  on_hold: "On hold",
  resolved: "Resolved",
  closed: "Closed",
};

function WebhookCount(props: { inbox: Inbox }) {
  const { webhooks } = props.inbox;
  if (webhooks.length === 0) return <span class="muted">none</span>;
  const enabled = webhooks.filter((w) => w.enabled).length;
  return (
    <span>
      {webhooks.length} <span class="muted">({enabled} enabled)</span>
    </span>
  );
}

export function InboxListPage(props: {
  inboxes: Inbox[];
  total: number;
  limit: number;
  offset: number;
  canManage: boolean;
  done: string | undefined;
}) {
  return (
    <>
      <PageHeader title="Inboxes">
        {props.canManage ? (
          <a class="button" href="/dashboard/inboxes/new">
            New inbox
          </a>
        ) : null}
      </PageHeader>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <section class="panel">
        {props.inboxes.length === 0 ? (
          <Empty text="No inboxes yet." />
        ) : (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Address</th>
                <th>Webhooks</th>
                <th>Status after reply</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {props.inboxes.map((inbox) => (
                <tr>
                  <td>
                    <a href={`/dashboard/inboxes/${inbox.id}`}>{inbox.name}</a>
                  </td>
                  <td>{inbox.email_address}</td>
                  <td>
                    <WebhookCount inbox={inbox} />
                  </td>
                  <td>{STATUS_LABELS[inbox.status_after_reply]}</td>
                  <td>
                    <Time at={inbox.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager
          path="/dashboard/inboxes"
          query={{ limit: props.limit === 20 ? undefined : props.limit }}
          limit={props.limit}
          offset={props.offset}
          total={props.total}
        />
      </section>
    </>
  );
}
