import type { Child } from "hono/jsx";
import { Badge } from "../../ui/components";

/**
 * A GET form of filters with its "Filter" button, and "Clear" once any filter is set. Plain GET:
 * the filtered page has its own address, to bookmark or share.
 */
export function FilterForm(props: { action: string; active: boolean; children: Child }) {
  return (
    <form class="filters" method="get" action={props.action}>
      {props.children}
      <button type="submit">Filter</button>
      {props.active ? (
        <a class="clear" href={props.action}>
          Clear
        </a>
      ) : null}
    </form>
  );
}

/** An HTTP status: 2xx good, 3xx plain, 4xx a warning, 5xx bad. */
export function HttpStatus(props: { code: number | null }) {
  if (props.code === null) return <span class="muted">none</span>;
  const { code } = props;
  const tone = code >= 500 ? "bad" : code >= 400 ? "warn" : code >= 300 ? "neutral" : "good";
  return <Badge text={String(code)} tone={tone} />;
}

export const milliseconds = (ms: number | null) => (ms === null ? "–" : `${ms.toLocaleString("en")} ms`);

/** A key by its prefix (the token's first characters: not a secret), or "none". */
export function KeyPrefix(props: { prefix: string | null }) {
  return props.prefix ? <code>{props.prefix}…</code> : <span class="muted">none</span>;
}

/** A field of a detail view whose value may be absent. */
export function Fact(props: { term: string; children?: Child; empty?: boolean }) {
  return (
    <>
      <dt>{props.term}</dt>
      <dd>{props.empty ? <span class="muted">none</span> : props.children}</dd>
    </>
  );
}

/** The "back to the list" line above a detail view. */
export function BackLink(props: { href: string; text: string }) {
  return (
    <p class="back">
      <a href={props.href}>← {props.text}</a>
    </p>
  );
}
