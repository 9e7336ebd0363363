import { requireRole } from "../auth/roles";
import { formBody, htmlPage, page } from "../features/sessions/login.routes";

export { formBody, htmlPage };

type PageSpec = Parameters<typeof page>[0];

/** What a dashboard route states; the tag, security and error answers are added here. */
type DashboardSpec = Omit<PageSpec, "tags" | "responses" | "security"> & {
  /** Who may use it: everyone signed in (the default), or admins and owners. */
  role?: "admin";
  /** What a success answers: the page (200, the default) or a redirect (303) to the result. */
  success?: 200 | 303;
};

/**
 * A dashboard page or form action, in the OpenAPI document like every route. The pages answer
 * HTML: without a session a redirect to /login, above the person's role a 403 page, another
 * workspace's id a 404 page, invalid input a 400 page. `role: "admin"` is documented and enforced
 * (`requireRole`, before the input is read).
 */
export function dashboardRoute<R extends DashboardSpec>(spec: R) {
  const { role, success, ...rest } = spec;
  const roleText = role === "admin" ? " Admins and owners only (agents get the 403 page)." : "";
  const route = page({
    ...rest,
    tags: ["Dashboard"],
    description: `${rest.description ?? ""}${roleText}`,
    responses: {
      ...(success === 303
        ? {
            303: {
              description:
                "Done: redirects (303) to the page that shows the result, or to /login without a session.",
            },
          }
        : {
            200: htmlPage("The page."),
            303: { description: "No session: redirects (303) to /login." },
          }),
      400: htmlPage("Invalid input."),
      403: htmlPage(
        "Above the person's role, or a form without this session's CSRF token or from another origin.",
      ),
      404: htmlPage("Not found in this workspace."),
    },
  });
  return { ...route, security: [{ sessionCookie: [] }], middleware: role ? [requireRole(role)] : [] };
}
