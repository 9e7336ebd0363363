import { Layout } from "../../ui/layout";
import { PublicMessagePage } from "../../ui/message-page";
import { MAX_COMMENT_LENGTH } from "./survey-page.schemas";

export interface RatingView {
  question: string;
  rating: number;
  /** The highest rating of the survey's scale (5 or 10). */
  top: number;
  action: string;
  comment: string | null;
}

function RatingForm(props: RatingView & { button: string }) {
  return (
    <form method="post" action={props.action} class="stack">
      <label>
        Comment (optional)
        <textarea name="comment" rows={5} maxlength={MAX_COMMENT_LENGTH}>
          {props.comment ?? ""}
        </textarea>
      </label>
      <p>
        <button type="submit">{props.button}</button>
      </p>
    </form>
  );
}

/**
 * What a rating link opens: the choice and a button that records it. Opening it (a mail scanner's
 * prefetch too) records nothing.
 */
export function SurveyRatingPage(props: RatingView & { answered: boolean }) {
  return (
    <Layout title="Rate our answer">
      <h1>{props.question}</h1>
      <p>
        Your rating: <strong>{props.rating}</strong> out of {props.top}.
      </p>
      {props.answered ? <p class="muted">This replaces the answer you gave before.</p> : null}
      <RatingForm {...props} button="Send my rating" />
    </Layout>
  );
}

/** After a post: thanks, and the comment form again for adding or changing one. */
export function SurveyThanksPage(props: RatingView) {
  return (
    <Layout title="Thank you">
      <h1>Thank you</h1>
      <p>
        We recorded your rating: <strong>{props.rating}</strong> out of {props.top}.
      </p>
      <p>You can add or change a comment below. Your answer can be changed for 14 days.</p>
      <RatingForm {...props} button="Save comment" />
    </Layout>
  );
}

export const SurveyClosedPage = () => (
  <PublicMessagePage
    title="This answer can no longer be changed"
    text="Answers can be changed for 14 days after they are given. Yours is kept as it was. Thank you."
  />
);

export const SurveyNotFoundPage = () => (
  <PublicMessagePage
    title="Link not found"
    text="This survey link does not work. Check that you copied the whole address."
  />
);
