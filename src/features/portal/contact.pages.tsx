import { Layout } from "../../ui/layout";
import { FieldError, Honeypot } from "./portal.components";
import type { PublicInbox } from "./portal.repo";
import type { FormValues } from "./portal.schemas";

type Field = keyof FormValues;
export type FieldErrors = Partial<Record<Field, string>>;

/** The form, empty or as it was posted with what to fix beside each refused field. */
export function ContactPage(props: { inbox: PublicInbox; values?: FormValues; errors?: FieldErrors }) {
  const values = props.values ?? {};
  const errors = props.errors ?? {};
  const invalid = (field: Field) => (errors[field] ? "true" : undefined);
  return (
    <Layout title={`Contact ${props.inbox.name}`}>
      <p class="muted">{props.inbox.name}</p>
      <h1>Contact us</h1>
      <p>Tell us what you need. We answer by email, and you can follow the conversation on its own page.</p>
      {Object.keys(errors).length > 0 ? (
        <p class="notice error" role="alert">
          Please check the fields marked below.
        </p>
      ) : null}
      <form method="post" action={`/portal/inboxes/${props.inbox.id}/new`} class="stack">
        <label>
          Your name
          <input
            name="name"
            required
            maxlength={200}
            autocomplete="name"
            value={values.name}
            aria-invalid={invalid("name")}
          />
          <FieldError text={errors.name} />
        </label>
        <label>
          Email
          <input
            type="email"
            name="email"
            required
            maxlength={254}
            autocomplete="email"
            value={values.email}
            aria-invalid={invalid("email")}
          />
          <FieldError text={errors.email} />
        </label>
        <label>
          Subject
          <input
            name="subject"
            required
            maxlength={998}
            value={values.subject}
            aria-invalid={invalid("subject")}
          />
          <FieldError text={errors.subject} />
        </label>
        <label>
          Message
          <textarea name="message" required rows={8} aria-invalid={invalid("message")}>
            {values.message ?? ""}
          </textarea>
          <FieldError text={errors.message} />
        </label>
        <Honeypot />
        <p>
          <button type="submit">Send</button>
        </p>
      </form>
    </Layout>
  );
}

/**
 * The answer to every accepted post, the same whatever happened (a filled honeypot, a blocked
 * address). It never shows the ticket's link: whoever posted may have typed someone else's address,
 * so the link goes only to that address, in the inbox's acknowledgement (contact-ack.ts).
 */
export function ThankYouPage() {
  return (
    <Layout title="Thank you">
      <h1>Thank you</h1>
      <p>We have your message and will answer by email.</p>
      <p>
        <strong>Check your email:</strong> we have sent you a link to follow the conversation and reply on its
        page.
      </p>
    </Layout>
  );
}
