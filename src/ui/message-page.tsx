import { Layout } from "./layout";

/** A public page that only says something: not found, too many posts, an error. */
export function PublicMessagePage(props: { title: string; text: string }) {
  return (
    <Layout title={props.title}>
      <h1>{props.title}</h1>
      <p>{props.text}</p>
    </Layout>
  );
}
