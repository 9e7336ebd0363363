export { buildMime } from "./build";
export { mimeSize } from "./size";
export type { MimeAttachment, MimeMessage } from "./types";
