import type { Context } from "hono";
import type { AppEnv } from "../env";
import type { AppError } from "../lib/errors";
import { DashboardLayout, Layout } from "./layout";

const TITLES: Record<number, string> = {
  400: "That did not work",
  403: "Not allowed",
  404: "Not found",
  405: "Not allowed here",
  409: "Conflict",
  413: "Too large",
  422: "That did not work",
  429: "Slow down",
};

/** Under /dashboard the error answers are pages, not JSON: the same status, a readable reason. */
export function renderDashboardError(c: Context<AppEnv>, error: AppError) {
  const title = TITLES[error.status] ?? "Something went wrong";
  const details = (error.extras.details ?? []) as Array<{ path: string; message: string }>;
  const body = (
    <>
      <h1>{title}</h1>
      <p role="alert">{error.detail ?? error.error}</p>
      {details.length > 0 ? (
        <ul>
          {details.map((d) => (
            <li>
              {d.path ? <code>{d.path}</code> : null} {d.message}
            </li>
          ))}
        </ul>
      ) : null}
      <p>
        <a href="/dashboard">Back to the dashboard</a> · request <code>{c.get("requestId")}</code>
      </p>
    </>
  );
  const session = c.get("session");
  const csrfToken = c.get("csrfToken");
  return c.html(
    session && csrfToken ? (
      <DashboardLayout title={title} session={session} csrfToken={csrfToken}>
        {body}
      </DashboardLayout>
    ) : (
      <Layout title={title}>{body}</Layout>
    ),
    error.status,
  );
}
