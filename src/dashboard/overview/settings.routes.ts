import { z } from "@hono/zod-openapi";
import { dashboardRoute, formBody } from "../routes";

/** The settings form as a browser posts it: text fields, and checkboxes present only when ticked. */
export const SettingsFormSchema = z.object({
  name: z.string().max(1000),
  ticket_prefix: z.string().max(100),
  request_log_retention: z.string().max(100),
  /** A number of days; PATCH's `email_retention` is the same days written `Nd`. */
  email_retention_days: z.string().max(100),
  default_track_opens: z.literal("on").optional(),
  default_track_clicks: z.literal("on").optional(),
});

export const saveSettingsRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/settings",
  summary: "Save workspace settings",
  description:
    "The Overview's settings form: name, ticket prefix, request-log retention, email retention (days, shown with the plan's maximum) and the tracking defaults, validated and saved exactly as PATCH /v1/accounts/{id} does (an unticked box is false; more days than the plan keeps is a 422 page). The email retention is saved only when it differs from the retention in force the form showed, so saving other settings never pins a workspace that follows its plan's maximum, nor trips over a retention a plan change down has capped. Redirects to the Overview.",
  request: { body: formBody(SettingsFormSchema) },
  role: "admin",
  success: 303,
});
