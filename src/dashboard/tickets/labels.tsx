import { TICKET_PRIORITIES, TICKET_STATUSES } from "../../db/schema";

type Status = (typeof TICKET_STATUSES)[number];
type Priority = (typeof TICKET_PRIORITIES)[number];

/** The list's confirmations after a redirect: codes, never free text from the query. */
export const LIST_DONE = {
  deleted: "The ticket was deleted.",
  view_created: "View saved: it is in the sidebar.",
  view_saved: "View saved.",
  view_filters: "The view now saves these filters.",
  view_deleted: "The view was deleted.",
} as const;

/** The ticket page's confirmations after a redirect. */
export const TICKET_DONE = {
  created: "Ticket created.",
  saved: "Saved.",
  unchanged: "Nothing to save: no field was changed.",
  replied: "Reply sent: it is on its way to the customer.",
  noted: "Note added. Only your team sees it.",
} as const;

export const STATUS_LABELS: Record<Status, string> = {
  open: "Open",
  pending: "Pending",
  on_hold: "On hold",
  resolved: "Resolved",
  closed: "Closed",
  spam: "Spam",
};

export const PRIORITY_LABELS: Record<Priority, string> = {
  low: "Low",
  normal: "Normal",
  high: "High",
  urgent: "Urgent",
};

export const statusOptions = TICKET_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }));
export const priorityOptions = TICKET_PRIORITIES.map((value) => ({ value, label: PRIORITY_LABELS[value] }));

/** Colour follows meaning: open needs someone, pending waits on the customer, resolved is done. */
export function StatusBadge(props: { status: Status }) {
  return <span class={`badge status-${props.status}`}>{STATUS_LABELS[props.status]}</span>;
}

export function PriorityBadge(props: { priority: Priority }) {
  return <span class={`badge priority-${props.priority}`}>{PRIORITY_LABELS[props.priority]}</span>;
}
