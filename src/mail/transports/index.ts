import { captureTransport } from "./capture";
import { cloudflareTransport } from "./cloudflare";
import { smtpTransport } from "./smtp";
import type { Transport } from "./transport";

/** The transport `EMAIL_TRANSPORT` names; capture unless told otherwise. */
export function transportFor(env: Env): Transport {
  switch (env.EMAIL_TRANSPORT) {
    case "smtp":
      return smtpTransport(env);
    case "cloudflare":
      return cloudflareTransport(env.SEND_EMAIL);
    default:
      return captureTransport();
  }
}
