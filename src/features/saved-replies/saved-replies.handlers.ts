import { standardList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import {
  createSavedReplyRoute,
  deleteSavedReplyRoute,
  getSavedReplyRoute,
  listSavedRepliesRoute,
  previewSavedReplyRoute,
  updateSavedReplyRoute,
} from "./saved-replies.routes";
import {
  createSavedReply,
  getSavedReply,
  listSavedReplies,
  patchSavedReply,
  removeSavedReply,
} from "./saved-replies.service";
import { previewSavedReply } from "./use";

export const savedRepliesRouter = createRouter()
  .openapi(listSavedRepliesRoute, async (c) => {
    const { limit, offset, inbox_id } = c.req.valid("query");
    const { replies, total } = await listSavedReplies(c.var.ctx, inbox_id, { limit, offset });
    return c.json(standardList(replies, total, { limit, offset }), 200);
  })
  .openapi(createSavedReplyRoute, async (c) => {
    const idempotencyKey = c.req.valid("header")["idempotency-key"];
    return c.json(await createSavedReply(c.var.ctx, c.req.valid("json"), { idempotencyKey }), 201);
  })
  .openapi(getSavedReplyRoute, async (c) =>
    c.json(await getSavedReply(c.var.ctx, c.req.valid("param").id), 200),
  )
  .openapi(updateSavedReplyRoute, async (c) =>
    c.json(await patchSavedReply(c.var.ctx, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(deleteSavedReplyRoute, async (c) =>
    c.json(await removeSavedReply(c.var.ctx, c.req.valid("param").id), 200),
  )
  .openapi(previewSavedReplyRoute, async (c) =>
    c.json(await previewSavedReply(c.var.ctx, c.req.valid("param").id, c.req.valid("json").ticket_id), 200),
  );
