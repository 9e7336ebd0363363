import type { MailAddress } from "../address";

export interface MimeAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
  /** Set for an inline part the HTML references as `cid:<contentId>`. */
  contentId?: string;
}

/**
 * One outbound message. There is deliberately no bcc: blind recipients belong to the SMTP
 * envelope only, and a field here would invite writing them into a header.
 */
export interface MimeMessage {
  from: MailAddress;
  to: MailAddress[];
  cc: MailAddress[];
  replyTo: MailAddress[];
  subject: string;
  text?: string;
  html?: string;
  /** Custom headers such as X-Entity-Ref-ID or List-Unsubscribe, written after the standard ones. */
  headers: Record<string, string>;
  /** Those with a contentId become inline parts of a multipart/related; the rest are attachments. */
  attachments: MimeAttachment[];
  /** The full value, angle brackets included, e.g. `<eml_01...@example.com>`. */
  messageId: string;
  date: Date;
}
