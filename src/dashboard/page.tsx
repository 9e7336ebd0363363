import type { Context } from "hono";
import type { Child } from "hono/jsx";
import type { AppEnv, Session } from "../env";
import { DashboardLayout, type NavName } from "../ui/layout";

/** The signed-in person on a dashboard route (the router's middleware guarantees one). */
export const sessionOf = (c: Context<AppEnv>) => c.var.session as Session;

/** Renders a dashboard page inside the layout, for the signed-in person. */
export function renderPage(
  c: Context<AppEnv>,
  page: { title: string; nav?: NavName; status?: 200 | 400 | 404 | 409 },
  children: Child,
) {
  return c.html(
    <DashboardLayout title={page.title} session={sessionOf(c)} csrfToken={c.var.csrfToken} nav={page.nav}>
      {children}
    </DashboardLayout>,
    page.status ?? 200,
  );
}
