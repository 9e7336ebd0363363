import { fill } from "../../features/campaigns/variables";
import type { Campaign } from "./campaign-list.page";

/**
 * Whatever a campaign's HTML holds, its preview runs nothing and reaches nothing: a sandbox (a
 * unique origin: no script, no forms, no cookies, no access to the dashboard), inline styles and
 * images as a mail client would show them, no other request.
 */
export const PREVIEW_POLICY =
  "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; font-src https: data:";

const SAMPLE = { email: "ada@example.com", name: "Ada Lovelace", unsubscribeUrl: "#unsubscribe" };

/** The campaign's HTML as a sample recipient would get it (values escaped, as in the real send). */
export const previewHtml = (campaign: Campaign) => fill(campaign.html ?? "", SAMPLE, true);
