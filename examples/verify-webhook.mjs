// @ts-check
// Verifies a webhook of the service; docs/webhooks.md shows this function. Node 18+, no dependencies.
import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Answers the parsed event, or throws when the signature or its age is wrong.
 * @param {string | Buffer} rawBody the request body exactly as received, before JSON parsing
 * @param {string | undefined} header the X-Service-Signature header
 * @param {string} secret the webhook's secret, `whsec_...`, used whole as the key
 */
export function verifyWebhook(rawBody, header, secret, now = Date.now()) {
  const parts = Object.fromEntries(
    String(header ?? "")
      .split(",")
      .map((p) => p.split("=", 2)),
  );
  const t = Number(parts.t);
  if (!Number.isInteger(t) || typeof parts.v1 !== "string") throw new Error("malformed signature header");
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`).digest("hex");
  const given = Buffer.from(parts.v1, "utf8");
  const wanted = Buffer.from(expected, "utf8");
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw new Error("bad signature");
  if (Math.abs(now / 1000 - t) > 5 * 60) throw new Error("timestamp outside 5 minutes");
  return JSON.parse(String(rawBody));
}
