import { createMiddleware } from "hono/factory";
import type { AppEnv, Session } from "../env";
import { forbidden } from "../lib/errors";

const RANK = { agent: 0, admin: 1, owner: 2 } as const;

/** Whether the signed-in person's role reaches `role` (owner > admin > agent). */
export const hasRole = (session: Session | undefined, role: keyof typeof RANK) =>
  session !== undefined && RANK[session.role] >= RANK[role];

/** Admins and owners only: an agent gets the 403 page. */
export const requireRole = (role: "admin" | "owner") =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (!hasRole(c.var.session, role)) {
      throw forbidden(
        "role_required",
        `This page is for ${role === "owner" ? "owners" : "admins and owners"}; you are signed in as ${c.var.session?.role ?? "nobody"}.`,
      );
    }
    await next();
  });
