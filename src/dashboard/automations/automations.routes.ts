import { dashboardRoute, formBody } from "../routes";
import {
  AutomationListQuery,
  AutomationPath,
  DoneQuery,
  EditorForm,
  EnrollmentListQuery,
  EnrollmentPath,
} from "./automation-forms";

const EDITOR =
  "The editor's buttons post the whole form with `op`: `add:{type}`, `remove:{n}`, `up:{n}` and `down:{n}` re-render the editor with that change to its steps and save nothing (so it works without script); `save` (also Enter in a field) sends it. Each step keeps its `id` in a hidden field, so an edit keeps the ids of the steps kept; webhook headers are read one `Name: value` per line, payload and metadata as JSON objects. The values then go through the API's body schema and service, so every rule and message is the API's: a refusal re-renders the editor with the API's reason and the values sent (400).";

const move = (action: "activate" | "pause", summary: string, api: string) =>
  dashboardRoute({
    method: "post",
    path: `/dashboard/automations/{id}/${action}`,
    summary,
    description: `As POST /v1/automations/{id}/${action} (${api}); what the API refuses shows its reason on the automation's page. Redirects (303) to the automation.`,
    request: { params: AutomationPath },
    role: "admin",
    success: 303,
  });

export const automationListRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/automations",
  summary: "Automations",
  description:
    "The workspace's automations, newest first: name, status, trigger, number of steps, active enrolments (a link to them), created; paginated by `offset` and `limit` (default 20). Everyone signed in sees it; New automation is for admins and owners.",
  request: { query: AutomationListQuery },
});

export const newAutomationRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/automations/new",
  summary: "New automation form",
  description:
    "The editor, empty: name, trigger (API call, a group joined, a ticket of an inbox resolved), re-entry and steps.",
  role: "admin",
});

export const createAutomationRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/automations",
  summary: "Create an automation (editor)",
  description: `As POST /v1/automations (\`createAutomation\`): a draft; redirects (303) to it. ${EDITOR}`,
  request: { body: formBody(EditorForm) },
  role: "admin",
  success: 303,
});

export const automationRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/automations/{id}",
  summary: "Automation",
  description:
    "An automation: status, trigger, re-entry, a Show secret button (its `whsec_` secret, as inbox webhook secrets), the buttons its status allows (Activate from draft or paused, Pause when active, Delete unless active) and the step editor. Agents see the steps read-only and no secret.",
  request: { params: AutomationPath, query: DoneQuery },
});

export const saveAutomationRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/automations/{id}",
  summary: "Edit an automation (editor)",
  description: `As PATCH /v1/automations/{id} (\`updateAutomation\`) with name, trigger, allow_reentry and steps, in any status (an active one's enrolments follow the new steps from the next one they reach); redirects (303) to it. ${EDITOR}`,
  request: { params: AutomationPath, body: formBody(EditorForm) },
  role: "admin",
  success: 303,
});

export const activateAutomationRoute = move("activate", "Activate an automation", "draft or paused → active");
export const pauseAutomationRoute = move("pause", "Pause an automation", "active → paused");

export const deleteAutomationRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/automations/{id}/delete",
  summary: "Delete an automation",
  description:
    "After the page's confirmation: as DELETE /v1/automations/{id} (an active one is refused with the API's 400, shown on its page). Redirects (303) to the list.",
  request: { params: AutomationPath },
  role: "admin",
  success: 303,
});

export const automationSecretRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/automations/{id}/secret",
  summary: "Show an automation's secret",
  description:
    "The automation's `whsec_` secret in clear, as GET /v1/automations/{id} answers it to write and admin keys (read keys get `null`). A POST with the CSRF token, so that no link, prefetch or cached page carries it: from htmx (`HX-Request`) the secret alone, swapped in place of the button; without script, a page showing it. Changes nothing.",
  request: { params: AutomationPath },
  role: "admin",
});

export const enrollmentListRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/automations/{id}/enrollments",
  summary: "Automation enrolments",
  description:
    "The automation's enrolments, newest first: customer, status, current step, next run, enrolled; filter by status; paginated by `offset` and `limit` (default 20).",
  request: { params: AutomationPath, query: EnrollmentListQuery },
});

export const enrollmentRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/enrollments/{id}",
  summary: "Enrolment",
  description:
    "An enrolment: customer, status, trigger data, current step, next run, why it ended, and its history: each step reached with its status, start and end, error and detail (an email's id, a webhook's status and duration). Admins and owners get Cancel enrolment while it is active.",
  request: { params: EnrollmentPath, query: DoneQuery },
});

export const cancelEnrollmentRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/enrollments/{id}/cancel",
  summary: "Cancel an enrolment",
  description:
    "After the page's confirmation: as POST /v1/enrollments/{id}/cancel (a finished one is refused with the API's 409, shown on its page). Redirects (303) to the enrolment.",
  request: { params: EnrollmentPath },
  role: "admin",
  success: 303,
});
