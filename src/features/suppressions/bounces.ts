import type { Db } from "../../db/client";
import { newId } from "../../lib/ids";
import { countSoftBounces, insertBounce, insertSuppression } from "./suppressions.repo";

export type BounceKind = "hard" | "soft" | "complaint";

const SOFT_BOUNCE_WINDOW_MS = 7 * 86_400_000;
const SOFT_BOUNCES_TO_SUPPRESS = 3;

/**
 * Records a bounce or complaint. A hard bounce or a complaint suppresses the address at once;
 * the third soft bounce within 7 days does too. Answers whether the address is now suppressed.
 */
export async function recordBounce(
  db: Db,
  bounce: {
    accountId: string;
    email: string;
    kind: BounceKind;
    emailId: string | null;
    detail: string | null;
  },
  now = Date.now(),
): Promise<boolean> {
  const email = bounce.email.toLowerCase();
  await insertBounce(db, { ...bounce, email, createdAt: now });
  const suppress =
    bounce.kind !== "soft" ||
    (await countSoftBounces(db, bounce.accountId, email, now - SOFT_BOUNCE_WINDOW_MS)) >=
      SOFT_BOUNCES_TO_SUPPRESS;
  if (!suppress) return false;
  await insertSuppression(db, {
    id: newId("sup"),
    accountId: bounce.accountId,
    email,
    reason:
      bounce.kind === "hard" ? "hard_bounce" : bounce.kind === "complaint" ? "complaint" : "soft_bounces",
    sourceEmailId: bounce.emailId,
    detail: bounce.detail,
    createdAt: now,
  });
  return true;
}
