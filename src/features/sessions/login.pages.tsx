import type { Session } from "../../env";
import { Layout } from "../../ui/layout";

export function LoginPage(props: { session?: Session | undefined; error?: string | undefined }) {
  if (props.session) {
    return (
      <Layout title="Signed in">
        <h1>Signed in</h1>
        <p>
          You are signed in to {props.session.workspace} as {props.session.email} ({props.session.role}).
        </p>
        <p>
          <a href="/dashboard">Open the dashboard</a>
        </p>
        <form method="post" action="/logout">
          <button type="submit">Sign out</button>
        </form>
      </Layout>
    );
  }
  return (
    <Layout title="Sign in">
      <h1>Sign in</h1>
      {props.error ? <p role="alert">{props.error}</p> : null}
      <form method="post" action="/login">
        <label>
          Email <input type="email" name="email" required autocomplete="email" maxlength={254} />
        </label>
        <button type="submit">Email me a sign-in link</button>
      </form>
    </Layout>
  );
}

/** The same page whether or not the address belongs to anyone. */
export function LinkSentPage() {
  return (
    <Layout title="Check your email">
      <h1>Check your email</h1>
      <p>
        If this address belongs to a user, a sign-in link is on its way. It works once, within 15 minutes.
      </p>
    </Layout>
  );
}

/** What a link shows: a GET (a mail scanner's too) consumes nothing; the button's POST signs in. */
export function ConfirmSignInPage(props: { workspace: string; email: string; action: string }) {
  return (
    <Layout title="Sign in">
      <h1>Sign in to {props.workspace}</h1>
      <p>as {props.email}</p>
      <form method="post" action={props.action}>
        <button type="submit">Sign in</button>
      </form>
    </Layout>
  );
}

export function MessagePage(props: { title: string; text: string }) {
  return (
    <Layout title={props.title}>
      <h1>{props.title}</h1>
      <p>{props.text}</p>
      <p>
        <a href="/login">Sign in</a>
      </p>
    </Layout>
  );
}
