import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { htmlToText } from "./html-to-text";
import type { PublicMessage, PublicTicket } from "./portal.repo";

/** What a customer reads for each status; `pending` means the team waits on them. */
const STATUS_WORDS: Record<PublicTicket["status"], string> = {
  open: "Open",
  pending: "Waiting on you",
  on_hold: "On hold",
  resolved: "Resolved",
  closed: "Closed",
  spam: "Closed",
};

const STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; color: #1f2328; background: #f6f8fa; margin: 0; }
main { max-width: 46rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin: .25rem 0; overflow-wrap: anywhere; }
.meta { color: #59636e; margin: 0 0 1.5rem; }
.status { display: inline-block; padding: 0 .5rem; border-radius: 1rem; background: #ddf4ff; color: #0550ae; }
article { background: #fff; border: 1px solid #d1d9e0; border-radius: .5rem; margin: 0 0 1rem; padding: 1rem; }
article.reply { border-left: 4px solid #0969da; }
header { display: flex; justify-content: space-between; gap: 1rem; color: #59636e; font-size: .875rem; }
header strong { color: #1f2328; }
.body { white-space: pre-wrap; overflow-wrap: anywhere; margin: .5rem 0 0; }
`;

/** UTC with minutes: the page runs no script (see the CSP), so it cannot localise times. */
const formatTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

const bodyOf = (message: PublicMessage) =>
  message.bodyText ?? (message.bodyHtml === null ? "" : htmlToText(message.bodyHtml));

function renderMessage(message: PublicMessage, inboxName: string) {
  const isReply = message.type === "reply";
  return html`<article class="${isReply ? "reply" : "customer"}">
<header><strong>${isReply ? inboxName : "You"}</strong><time datetime="${new Date(message.createdAt).toISOString()}">${formatTime(message.createdAt)}</time></header>
<p class="body">${bodyOf(message)}</p>
</article>`;
}

function layout(title: string, content: HtmlEscapedString | Promise<HtmlEscapedString>) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${raw(STYLE)}</style>
</head>
<body><main>${content}</main></body>
</html>`;
}

/** The customer's page. Every database value goes through `html`, which escapes interpolations. */
export function renderTicketPage(ticket: PublicTicket) {
  const thread =
    ticket.messages.length > 0
      ? ticket.messages.map((message) => renderMessage(message, ticket.inboxName))
      : html`<p class="meta">No messages yet.</p>`;
  return layout(
    `${ticket.subject} · ${ticket.inboxName}`,
    html`<p class="meta">${ticket.inboxName}</p>
<h1>${ticket.subject}</h1>
<p class="meta">Ticket ${ticket.clientId} · <span class="status">${STATUS_WORDS[ticket.status]}</span></p>
${thread}`,
  );
}

export function renderNotFoundPage() {
  return layout(
    "Ticket not found",
    html`<h1>Ticket not found</h1>
<p class="meta">This link does not lead to a ticket. Check that you copied the whole address.</p>`,
  );
}
