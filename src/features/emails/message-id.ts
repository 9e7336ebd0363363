import { domainOf } from "../../mail/address";

/**
 * The Message-ID the service gives an email that brings none of its own: `<id@sender domain>`.
 * Derived rather than stored (issue 29: ~45 bytes and an index entry per email), so this is the
 * one place that says what it is.
 */
export function defaultMessageId(id: string, fromAddress: string): string {
  return `<${id}@${domainOf(fromAddress)}>`;
}

/**
 * The address in a From header the service wrote (`address` or `Name <address>`; an address never
 * holds `<`), as `emails.from_address` computes it in SQL.
 */
export function addressInFrom(from: string): string {
  return from.endsWith(">") ? from.slice(from.lastIndexOf("<") + 1, -1) : from;
}

/** An email's Message-ID: the caller's own, else the one derived from its id. */
export function messageIdOf(email: { id: string; from: string; messageId: string | null }): string {
  return email.messageId ?? defaultMessageId(email.id, addressInFrom(email.from));
}

const DERIVED = /^<(eml_[0-9A-HJKMNP-TV-Z]{26})@[^<>@\s]+>$/;

/** The email id inside a Message-ID of the derived form, if it has that form. */
export function emailIdInMessageId(messageId: string): string | undefined {
  return DERIVED.exec(messageId)?.[1];
}
