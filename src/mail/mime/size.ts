import { utf8Length } from "../../lib/text";

/**
 * Size in bytes as sent: the UTF-8 length, counted without encoding a copy of a message that may
 * be tens of megabytes. A built message is ASCII, so this equals its length.
 */
export const mimeSize = (mime: string): number => utf8Length(mime);
