import { iso, isoOrNull } from "../../lib/time";
import type { EnrollmentRow, EnrollmentStepRow } from "./enrollments.repo";

const json = (text: string | null) => (text ? (JSON.parse(text) as Record<string, unknown>) : null);

export function toHistoryEntry(row: EnrollmentStepRow) {
  return {
    step_id: row.stepId,
    type: row.stepType,
    status: row.status,
    at: iso(row.startedAt),
    finished_at: isoOrNull(row.finishedAt),
    error: row.error,
    detail: json(row.detail),
  };
}

/** The public enrolment; `history` only where it was read (GET /v1/enrollments/{id}, a new one). */
export function toEnrollment(row: EnrollmentRow, history?: EnrollmentStepRow[]) {
  return {
    id: row.id,
    automation_id: row.automationId,
    customer_id: row.customerId,
    status: row.status,
    current_step: row.currentStep,
    next_run_at: isoOrNull(row.nextRunAt),
    trigger_type: row.triggerType,
    trigger_data: json(row.triggerData) ?? {},
    note: row.note,
    ...(history ? { history: history.map(toHistoryEntry) } : {}),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    finished_at: isoOrNull(row.finishedAt),
  };
}
