import type { BounceKind } from "../../features/suppressions/bounces";

/** One recipient a report is about, and what it counts as (null: nothing to act on). */
export interface ReportedRecipient {
  address: string;
  /** RFC 3464 `Action` (failed, delayed, delivered, relayed, expanded); `complaint` for ARF. */
  action: string;
  /** The enhanced status code (RFC 3463), when given. */
  status: string | null;
  /** The SMTP reply code (`550`), when the report quotes one. */
  replyCode: string | null;
  /** What the report says happened, one line: status, Diagnostic-Code or the feedback type. */
  diagnostic: string;
  kind: BounceKind | null;
}

export interface MailReport {
  type: "delivery_status" | "feedback";
  /** How it was read: an RFC 3464/6522 report, an RFC 5965 (ARF) one, or a plain-text notice. */
  format: "rfc3464" | "arf" | "plain";
  /** The server that wrote the report: `Reporting-MTA`, else the notice's sending host, when known. */
  reportingMta: string | null;
  recipients: ReportedRecipient[];
  /** The Message-ID of the returned original (its whole message or its headers), when included. */
  originalMessageId: string | null;
  /**
   * Whether the mail declares itself a report (`multipart/report`, RFC 6522, with its report
   * part), whichever reader found its recipients. False for report parts in another container
   * and for notices in prose: at an inbox those count only when a mail server sent them and they
   * name an email of the workspace.
   */
  declared: boolean;
}
