import { Layout } from "../../ui/layout";

/** The invitation: a GET (a mail scanner's too) changes nothing; the form's POST accepts it. */
export function InvitationPage(props: { workspace: string; email: string; role: string; action: string }) {
  return (
    <Layout title="Invitation">
      <h1>Join {props.workspace}</h1>
      <p>
        {props.email} is invited as {props.role}.
      </p>
      <form method="post" action={props.action}>
        <label>
          Your name <input type="text" name="name" maxlength={200} autocomplete="name" />
        </label>
        <button type="submit">Accept and sign in</button>
      </form>
    </Layout>
  );
}
