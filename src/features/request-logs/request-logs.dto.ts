import { iso } from "../../lib/time";
import { requestIdFromHex } from "./request-id-bytes";
import type { RequestLogRow } from "./request-logs.repo";

export function toRequestLog(row: RequestLogRow) {
  return {
    id: requestIdFromHex(row.requestIdHex),
    method: row.method,
    path: row.path,
    status: row.status,
    duration_ms: row.durationMs,
    key_id: row.keyId,
    key_prefix: row.keyPrefix,
    ip: row.ip,
    user_agent: row.userAgent,
    error_code: row.errorCode,
    created_at: iso(row.createdAt),
  };
}
