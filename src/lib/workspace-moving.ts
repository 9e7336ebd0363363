import { AppError } from "./errors";

/**
 * While an operator moves a workspace to another shard (features/workspace-moves), its writes are
 * refused for a moment: a write request gets 503 `workspace_moving` with `Retry-After`, nothing of
 * it written; reads go on from the shard being left. Queue messages are retried later, inbound mail
 * gets a temporary failure (the sending server retries), Workflow steps retry.
 */
export const MOVING_CODE = "workspace_moving";
/** Seconds a refused write should wait: an isolate learns the end of a freeze within 10 s. */
export const MOVING_RETRY_SECONDS = 10;

export const workspaceMoving = () =>
  new AppError(
    503,
    MOVING_CODE,
    "Workspace moving",
    "This workspace is being moved to another database and takes no writes for a moment; nothing was written. Retry after the Retry-After seconds.",
    {},
    { "Retry-After": String(MOVING_RETRY_SECONDS) },
  );

/** Whether a request may write: anything but a read. */
export const isWriteMethod = (method: string) => !["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase());
