import { html } from "hono/html";
import { oneLine } from "../../lib/text";
import type { SystemEmail } from "../emails/system-mail";

/** The invitation email; the link is the only place its token ever appears. */
export function invitationMail(
  to: string,
  workspace: string,
  role: string,
  link: string,
  expiresAt: number,
): SystemEmail {
  const name = oneLine(workspace);
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
