import { html } from "hono/html";
import { oneLine } from "../../lib/text";
import type { SystemEmail } from "../emails/system-mail";

/** A scheme, `www.`, an address or a dotted host name such as `scam.test`. */
const LINK_LIKE = /[a-z][a-z0-9+.-]*:\/\/|www\.|@|[a-z0-9-]\.[a-z]{2,}\b/i;
const MAX_NAME = 60;

/**
 * The workspace name as the service's own mail shows it. Anyone who signs up chooses it, and the
 * mail comes from SYSTEM_FROM, so a name carrying a link or host ("You won a prize - claim at
 * scam.test") would be the service vouching for it: such a name is not shown at all, and a long one is cut.
 */
export function workspaceNameForMail(workspace: string) {
  const name = oneLine(workspace).trim();
  if (!name || LINK_LIKE.test(name)) return "a workspace";
  return name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name;
}

/** The invitation email; the link is the only place its token ever appears. */
export function invitationMail(
  to: string,
  workspace: string,
  role: string,
  link: string,
  expiresAt: number,
): SystemEmail {
  const name = workspaceNameForMail(workspace);
  const until = new Date(expiresAt).toISOString().slice(0, 16).replace("T", " ");
  return {
    to,
    subject: `You are invited to ${name}`,
    text: `You are invited to join ${name} as ${role}.\n\nAccept the invitation: ${link}\n\nThe link works once and expires on ${until} UTC. If you did not expect it, ignore this email.\n`,
    html: String(
      html`<p>You are invited to join <strong>${name}</strong> as ${role}.</p>
<p><a href="${link}">Accept the invitation</a></p>
<p>The link works once and expires on ${until} UTC. If you did not expect it, ignore this email.</p>`,
    ),
  };
}
