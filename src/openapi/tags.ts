/** The /v1 document's tags in reading order, each described for generated docs and SDK modules. */
export const API_TAGS: ReadonlyArray<{ name: string; description: string }> = [
  { name: "Tickets", description: "Support conversations: create, search, assign, tag and close tickets." },
  {
    name: "Messages",
    description: "A ticket's messages: replies, notes, drafts, received email and attachments.",
  },
  {
    name: "Inboxes",
    description: "Addresses that receive email into tickets, their reply settings, and mail they dropped.",
  },
  { name: "Customers", description: "The people who write in and receive email, with their attributes." },
  { name: "Contact groups", description: "Named sets of customers that campaigns are sent to." },
  {
    name: "Emails",
    description:
      "Transactional email: send, schedule, batch, raw messages, suppressions, bounce and complaint reports, archives of past days.",
  },
  {
    name: "Templates",
    description:
      "Stored email templates (Resend's templates API): drafts, published versions, a render check, and `template` in sends.",
  },
  {
    name: "Webhooks",
    description:
      "Workspace endpoints that receive email events (sent, delivered, bounced, opened...), signed and retried, with every delivery attempt listed.",
  },
  { name: "Connections", description: "Sending domains and the DNS records that verify them." },
  {
    name: "Campaigns",
    description: "One email sent to a contact group, now or at a set time, and its recipients.",
  },
  {
    name: "Automations",
    description: "Email sequences that customers are enrolled in, and their enrolments.",
  },
  { name: "Tags", description: "Labels that tickets carry." },
  { name: "Views", description: "Saved ticket lists (filters), shared or personal, each with a live count." },
  {
    name: "Saved replies",
    description: "Replies to reuse, with variables, an optional inbox scope and ticket changes (macros).",
  },
  {
    name: "SLA policies",
    description: "Response and resolution targets per priority, in calendar or business hours, per inbox.",
  },
  { name: "Changelog", description: "Product update entries, published on the public changelog pages." },
  { name: "Surveys", description: "Questions put to customers, and their responses." },
  {
    name: "Reports",
    description:
      "Counts over time, per day or week (UTC), of the mail and the support team, read from daily rollups kept at write time as mail and tickets move.",
  },
  {
    name: "Accounts",
    description: "The workspace: settings, quota usage, request and SMTP logs, the event stream.",
  },
  { name: "Users", description: "People who sign in to the workspace." },
  { name: "Members", description: "The workspace's team and their roles." },
  { name: "Invitations", description: "Invitations to join the workspace's team." },
  { name: "API keys", description: "Keys that authenticate calls to this API, each with a permission." },
  { name: "System", description: "This API description." },
];
