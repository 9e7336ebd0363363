import { inWorkspace } from "../../lib/workspace-link";
import { trackingSignature } from "./signature";

export interface TrackingOptions {
  baseUrl: string;
  emailId: string;
  /** The email's workspace, named in every link (workspace-link.ts); not signed, not secret. */
  accountId: string;
  key: string;
  opens: boolean;
  clicks: boolean;
}

const decodeEntities = (text: string) =>
  text
    .replace(/&amp;/g, "&")
    .replace(/&#38;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
const encodeAttribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

export const clickPath = (emailId: string) => `/t/c/${emailId}`;
export const openPath = (emailId: string, signature: string) => `/t/o/${emailId}/${signature}`;

/**
 * Rewrites each http(s) link of the HTML body into a signed redirect through this service and
 * adds a 1x1 open pixel before </body>. Text bodies are left alone, as other providers do.
 */
export async function applyTracking(html: string, options: TrackingOptions): Promise<string> {
  const base = options.baseUrl.replace(/\/+$/, "");
  let out = html;
  if (options.clicks) {
    const pattern = /(<a\b[^>]*?\bhref\s*=\s*)(["'])(https?:\/\/[^"']+)\2/gi;
    const matches = [...out.matchAll(pattern)];
    const replacements = await Promise.all(
      matches.map(async (match) => {
        const url = decodeEntities(match[3] ?? "");
        const signature = await trackingSignature(options.key, "click", options.emailId, url);
        const target = inWorkspace(
          `${base}${clickPath(options.emailId)}?u=${encodeURIComponent(url)}&s=${signature}`,
          options.accountId,
        );
        return `${match[1]}"${encodeAttribute(target)}"`;
      }),
    );
    let i = 0;
    out = out.replace(pattern, () => replacements[i++] ?? "");
  }
  if (options.opens) {
    const signature = await trackingSignature(options.key, "open", options.emailId);
    const src = inWorkspace(`${base}${openPath(options.emailId, signature)}`, options.accountId);
    const pixel = `<img src="${encodeAttribute(src)}" width="1" height="1" alt="" style="display:none;border:0">`;
    out = /<\/body>/i.test(out) ? out.replace(/<\/body>/i, `${pixel}</body>`) : `${out}${pixel}`;
  }
  return out;
}
