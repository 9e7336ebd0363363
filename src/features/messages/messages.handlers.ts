import { createRouter } from "../../lib/router";
import { guardFor } from "../tickets/ticket-version";
import { compose } from "./compose.service";
import { attachmentContent, listAttachments, listMessages, messageRaw } from "./messages.read";
import {
  attachmentContentRoute,
  composeRoute,
  createMessageRoute,
  deleteDraftRoute,
  getMessageRoute,
  listAttachmentsRoute,
  listMessagesRoute,
  messageRawRoute,
  sendDraftRoute,
  updateDraftRoute,
} from "./messages.routes";
import { addMessage, deleteDraft, sendDraft, showMessage, updateDraft } from "./messages.service";

export const messagesRouter = createRouter()
  .openapi(composeRoute, async (c) =>
    c.json(await compose(c.var.ctx, c.req.valid("json"), c.req.valid("header")["idempotency-key"]), 201),
  )
  .openapi(listMessagesRoute, async (c) => {
    const { limit, offset, created_after } = c.req.valid("query");
    const after = created_after ? Date.parse(created_after) : undefined;
    return c.json(await listMessages(c.var.ctx, c.req.valid("param").id, after, { limit, offset }), 200);
  })
  .openapi(createMessageRoute, async (c) => {
    const { id } = c.req.valid("param");
    const headers = c.req.valid("header");
    const guard = guardFor(c.var.ctx, id, headers["if-match"]);
    const options = { idempotencyKey: headers["idempotency-key"], guard };
    return c.json(await addMessage(c.var.ctx, id, c.req.valid("json"), options), 201, guard.headers());
  })
  .openapi(getMessageRoute, async (c) => c.json(await showMessage(c.var.ctx, c.req.valid("param").id), 200))
  .openapi(updateDraftRoute, async (c) =>
    c.json(await updateDraft(c.var.ctx, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(deleteDraftRoute, async (c) => c.json(await deleteDraft(c.var.ctx, c.req.valid("param").id), 200))
  .openapi(sendDraftRoute, async (c) => {
    const body = c.req.valid("json");
    return c.json(await sendDraft(c.var.ctx, c.req.valid("param").id, body.status_after_send), 200);
  })
  .openapi(messageRawRoute, async (c) => {
    const raw = await messageRaw(c.var.ctx, c.req.valid("param").id);
    return c.body(raw.body, 200, {
      "Content-Type": "message/rfc822",
      "Content-Length": String(raw.size),
      "X-Content-Type-Options": "nosniff",
    });
  })
  .openapi(listAttachmentsRoute, async (c) =>
    c.json(await listAttachments(c.var.ctx, c.req.valid("param").id), 200),
  )
  .openapi(attachmentContentRoute, async (c) => {
    const { id, att_id } = c.req.valid("param");
    const file = await attachmentContent(c.var.ctx, id, att_id);
    return c.body(file.body, 200, {
      "Content-Type": file.contentType,
      "Content-Length": String(file.size),
      "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      "X-Content-Type-Options": "nosniff",
    });
  });
