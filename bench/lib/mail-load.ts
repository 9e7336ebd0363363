/**
 * A load of inbound mail for bench/profile.ts (`npm run profile -- MAIL`): new conversations from
 * new senders to one inbox, through wrangler dev's local email endpoint, `concurrency` at a time
 * for `seconds`. Each is a distinct mail (its own Message-ID), so each is stored as a new ticket:
 * the accept path, not the duplicate one a repeated request would take.
 */
import { randomBytes } from "node:crypto";
import { deliverTimed, type MailSpec } from "./inbound-mail";
import { createInbox } from "./inbound-seed";
import type { BenchContext, Measurement } from "./types";

const CONCURRENCY = 10;

export async function mailLoad(
  ctx: BenchContext,
  /** Mail to an address no inbox has: each refused after the directory's lookup (the endpoint's floor). */
  refused = false,
): Promise<(seconds: number) => Promise<Measurement>> {
  const run = randomBytes(4).toString("hex");
  const inbox = `profile-${run}@${ctx.fromDomain}`;
  if (!refused) await createInbox(ctx, inbox);
  let sent = 0;
  const nextMail = (): MailSpec => {
    const n = sent++;
    return {
      from: `customer-${n}.${run}@example.com`,
      to: inbox,
      subject: `Profile ${run} ${n}`,
      messageId: `<profile-${n}.${run}@customer.example>`,
      body: `Hello,\n\nQuestion number ${n}: how do I reset my password?\n`,
    };
  };
  return async (seconds) => {
    const ms: number[] = [];
    let unexpected = 0;
    const started = performance.now();
    const until = started + seconds * 1000;
    const worker = async () => {
      while (performance.now() < until) {
        const delivery = await deliverTimed(ctx.baseUrl, nextMail());
        ms.push(delivery.ms);
        if (delivery.outcome !== (refused ? "rejected" : "accepted")) unexpected++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    ms.sort((a, b) => a - b);
    return {
      label: `MAIL (${refused ? "refused, to an unknown address" : "new conversations"}, ${CONCURRENCY} at a time)`,
      rps: ms.length / ((performance.now() - started) / 1000),
      p50: ms[Math.floor(ms.length / 2)] ?? 0,
      p99: ms[Math.floor(ms.length * 0.99)] ?? 0,
      non2xx: unexpected,
      errors: 0,
      total: ms.length,
    };
  };
}
