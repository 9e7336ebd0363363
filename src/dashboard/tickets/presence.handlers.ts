import { HEARTBEAT_MS } from "../../features/presence/presence";
// By type only: the class's module loads `cloudflare:workers`, which the app (loaded by Node's
// tests too) must not; the Worker's entry exports the class.
import type { TicketPresence } from "../../features/presence/ticket-presence";
import { createRouter } from "../../lib/router";
import { sessionOf } from "../page";
import { presenceRoute } from "./presence.routes";

/** The presence of one ticket of one workspace: named by both, so workspaces never meet. */
const presenceOf = (namespace: DurableObjectNamespace<TicketPresence>, accountId: string, ticketId: string) =>
  namespace.get(namespace.idFromName(`${accountId}:${ticketId}`));

export const presenceRouter = createRouter().openapi(presenceRoute, async (c) => {
  const session = sessionOf(c);
  const { id } = c.req.valid("param");
  const others = await presenceOf(c.env.TICKET_PRESENCE, session.accountId, id).heartbeat(
    { userId: session.userId, name: session.name || session.email, state: c.req.valid("form").state },
    c.var.ctx.now,
  );
  return c.json({ others, heartbeat_ms: HEARTBEAT_MS }, 200);
});
