import { html } from "hono/html";
import { oneLine } from "../../lib/text";
import type { SystemEmail } from "../emails/system-mail";

/** The sign-in email; the link is the only place its token ever appears. */
export function loginMail(to: string, workspace: string, link: string): SystemEmail {
  const name = oneLine(workspace);
  return {
    to,
    subject: `Sign in to ${name}`,
    text: `Sign in to ${name}: ${link}\n\nThe link works once, within 15 minutes. If you did not ask for it, ignore this email: nobody can sign in without it.\n`,
    html: String(
      html`<p><a href="${link}">Sign in to <strong>${name}</strong></a></p>
<p>The link works once, within 15 minutes. If you did not ask for it, ignore this email: nobody can sign in without it.</p>`,
    ),
  };
}
