import { raw } from "hono/html";
import { listSavedReplies } from "../../features/saved-replies/saved-replies.service";
import { previewSavedReply } from "../../features/saved-replies/use";
import type { TicketContext } from "../../features/tickets/ticket-context";
import { AppError } from "../../lib/errors";

/** What a picker offers: the most a select stays usable with; the newest first. */
const OFFERED = 100;

export interface SavedReplyChoice {
  replies: { id: string; name: string }[];
  chosen?: {
    id: string;
    text: string;
    html: string;
    actions: Awaited<ReturnType<typeof previewSavedReply>>["actions"];
  };
  problem?: string;
}

/**
 * The ticket's saved replies (its inbox's and the unscoped ones) and, when one is chosen, its
 * preview for this ticket as the signed-in user writes it; a reply that cannot render here (a
 * missing value, another inbox) is said, not inserted.
 */
export async function savedReplyChoice(
  ctx: TicketContext,
  ticket: { id: string; inbox_id: string },
  chosenId: string | undefined,
  userId: string,
): Promise<SavedReplyChoice> {
  const { replies } = await listSavedReplies(ctx, ticket.inbox_id, { limit: OFFERED, offset: 0 });
  const offered = replies.map((r) => ({ id: r.id, name: r.name }));
  if (!chosenId) return { replies: offered };
  try {
    const preview = await previewSavedReply(ctx, chosenId, ticket.id, userId);
    const chosen = {
      id: chosenId,
      text: preview.body_text,
      html: preview.body_html,
      actions: preview.actions,
    };
    return { replies: offered, chosen };
  } catch (error) {
    if (error instanceof AppError && (error.status === 422 || error.status === 404))
      return { replies: offered, problem: error.detail ?? error.error };
    throw error;
  }
}

/** The rendered text, compared as a form sends it back (CRLF line ends, trailing space trimmed). */
export const sameText = (a: string, b: string) =>
  a.replace(/\r\n?/g, "\n").trim() === b.replace(/\r\n?/g, "\n").trim();

function actionsText(actions: NonNullable<SavedReplyChoice["chosen"]>["actions"]) {
  const parts = [
    actions.status ? `status ${actions.status}` : null,
    actions.add_tags?.length ? `tags ${actions.add_tags.join(", ")}` : null,
    actions.assignee_id !== undefined ? (actions.assignee_id ? "assign" : "unassign") : null,
  ].filter(Boolean);
  return parts.length > 0 ? `Also sets: ${parts.join("; ")}.` : null;
}

/** Rows the list shows at once; more scroll. */
const LIST_ROWS = 6;
const LIST_ID = "saved-reply-list";

/**
 * A filter box and a native list (a select with `size`) with Insert: the page comes back with
 * the reply rendered for this ticket in the message box, its preview and the changes it makes.
 * Without script the list alone works (arrows, type-ahead, Insert); app.js shows the filter box,
 * which narrows the list by name as one types (Enter inserts the first match, ArrowDown moves
 * into the list, and Enter there inserts the highlighted one).
 */
export function SavedReplyPicker(props: { ticketId: string; choice: SavedReplyChoice }) {
  const { choice } = props;
  if (choice.replies.length === 0) return null;
  return (
    <div class="saved-reply-picker">
      <form method="get" action={`/dashboard/tickets/${props.ticketId}`} aria-label="Saved replies">
        {/* Shown by app.js, which makes it narrow the list; without script it would do nothing. */}
        <label hidden>
          Find a saved reply
          <input
            type="search"
            autocomplete="off"
            placeholder="Type part of a name"
            aria-controls={LIST_ID}
            data-filters={LIST_ID}
          />
        </label>
        <label>
          Saved reply
          <select
            id={LIST_ID}
            name="saved_reply"
            size={Math.min(Math.max(choice.replies.length, 2), LIST_ROWS)}
            required
            data-enter-submits
          >
            {choice.replies.map((r) => (
              <option value={r.id} selected={r.id === choice.chosen?.id}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <small class="muted" aria-live="polite" data-filter-count={LIST_ID} />
        <div>
          <button type="submit" class="secondary">
            Insert
          </button>
        </div>
      </form>
      {choice.problem ? (
        <p class="notice error" role="alert">
          {choice.problem}
        </p>
      ) : null}
      {choice.chosen ? (
        <section class="saved-reply-preview" aria-label="Preview">
          <h3>Preview</h3>
          {/* Sanitized when rendered (GitHub's allow-list), as every saved reply's HTML is. */}
          <div class="message-html">{raw(choice.chosen.html)}</div>
          {actionsText(choice.chosen.actions) ? (
            <p class="muted">{actionsText(choice.chosen.actions)}</p>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
