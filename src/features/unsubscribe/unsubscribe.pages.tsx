import { Layout } from "../../ui/layout";
import { PublicMessagePage } from "../../ui/message-page";
import { PAGE_SOURCE } from "./unsubscribe.schemas";

/** The link's page: a GET (a link scanner's too) changes nothing; the button's POST unsubscribes. */
export function UnsubscribePage(props: { email: string; action: string; alreadyUnsubscribed: boolean }) {
  return (
    <Layout title="Unsubscribe">
      <h1>Unsubscribe</h1>
      {props.alreadyUnsubscribed ? (
        <p>{props.email} is already unsubscribed and gets no more of these emails.</p>
      ) : (
        <>
          <p>{props.email} will get no more of these emails.</p>
          <form method="post" action={props.action}>
            <input type="hidden" name="source" value={PAGE_SOURCE} />
            <button type="submit">Unsubscribe</button>
          </form>
        </>
      )}
    </Layout>
  );
}

export const UnsubscribedPage = () => (
  <PublicMessagePage title="You are unsubscribed" text="You will get no more of these emails." />
);

export const UnsubscribeNotFoundPage = () => (
  <PublicMessagePage
    title="Link not found"
    text="This unsubscribe link does not work. Check that you copied the whole address."
  />
);
