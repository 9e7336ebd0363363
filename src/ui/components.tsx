import type { Child } from "hono/jsx";
import { CSRF_FIELD } from "./csrf-token";

/**
 * A moment, readable without script as UTC and turned into the viewer's local time by app.js
 * (which keeps the exact ISO instant in the tooltip).
 */
export function Time(props: { at: number | string | null | undefined }) {
  if (props.at === null || props.at === undefined) return <span class="muted">never</span>;
  const iso = new Date(props.at).toISOString();
  return <time datetime={iso}>{`${iso.slice(0, 16).replace("T", " ")} UTC`}</time>;
}

/** The hidden field every state-changing form carries. */
export function CsrfField(props: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={props.token} />;
}

/**
 * A form of one button that changes state: a POST carrying the CSRF token. With `confirm`, app.js
 * asks first (without script the POST goes through, as a plain form would).
 */
export function ActionButton(props: {
  action: string;
  label: string;
  csrfToken: string;
  confirm?: string;
  danger?: boolean;
  fields?: Record<string, string>;
}) {
  return (
    <form method="post" action={props.action} class="inline" data-confirm={props.confirm}>
      <CsrfField token={props.csrfToken} />
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={props.danger ? "danger" : undefined}>
        {props.label}
      </button>
    </form>
  );
}

/** A page's heading, with its main actions on the right. */
export function PageHeader(props: { title: string; children?: Child }) {
  return (
    <div class="page-header">
      <h1>{props.title}</h1>
      {props.children ? <div class="actions">{props.children}</div> : null}
    </div>
  );
}

/** A short confirmation after a redirect (`?done=`), or a problem to show above a form. */
export function Notice(props: { text?: string | undefined; kind?: "ok" | "error" }) {
  if (!props.text) return null;
  return (
    <p class={`notice ${props.kind ?? "ok"}`} role={props.kind === "error" ? "alert" : "status"}>
      {props.text}
    </p>
  );
}

export function Badge(props: { text: string; tone?: "good" | "bad" | "warn" | "neutral" }) {
  return <span class={`badge ${props.tone ?? "neutral"}`}>{props.text}</span>;
}

export function Empty(props: { text: string }) {
  return <p class="empty">{props.text}</p>;
}

/**
 * Previous and next links of an offset-paginated list, keeping the page's other query
 * parameters (its filters). `param` names the offset parameter, for a page with two lists.
 */
export function Pager(props: {
  path: string;
  query: Record<string, string | number | undefined>;
  limit: number;
  offset: number;
  total: number;
  param?: string;
}) {
  const { limit, offset, total } = props;
  const param = props.param ?? "offset";
  const href = (at: number) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(props.query)) {
      if (value !== undefined && value !== "" && name !== param) params.set(name, String(value));
    }
    if (at > 0) params.set(param, String(at));
    const text = params.toString();
    return text ? `${props.path}?${text}` : props.path;
  };
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + limit, total);
  return (
    <nav class="pager" aria-label="Pages">
      <span>
        {first}–{last} of {total}
      </span>
      {offset > 0 ? <a href={href(Math.max(0, offset - limit))}>Previous</a> : null}
      {offset + limit < total ? <a href={href(offset + limit)}>Next</a> : null}
    </nav>
  );
}

/** A labelled select whose first option means "any". */
export function FilterSelect(props: {
  label: string;
  name: string;
  value: string | undefined;
  options: ReadonlyArray<string | { value: string; label: string }>;
  any?: string;
}) {
  return (
    <label>
      {props.label}
      {/* The label wraps the options too; aria-label keeps the accessible name to the label's text. */}
      <select name={props.name} aria-label={props.label}>
        <option value="">{props.any ?? "Any"}</option>
        {props.options.map((option) => {
          const { value, label } = typeof option === "string" ? { value: option, label: option } : option;
          return (
            <option value={value} selected={value === props.value}>
              {label}
            </option>
          );
        })}
      </select>
    </label>
  );
}

/** A size for people: bytes, KB, MB or GB (binary units, one decimal); a dash when unknown. */
export function formatBytes(size: number | null): string {
  if (size === null) return "–";
  if (size < 1024) return `${size} B`;
  const [unit, scale] =
    size < 1_048_576 ? ["KB", 1024] : size < 1_073_741_824 ? ["MB", 1_048_576] : ["GB", 1_073_741_824];
  return `${(size / scale).toFixed(1)} ${unit}`;
}
