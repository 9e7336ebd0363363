import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { joinVariables, layoutNotPublished, renderInLayout } from "./layouts";
import { newRenderer, type Renderer } from "./markup";
import { cached, cacheKey, forget, guardSql, remember, type Usable } from "./send-cache";
import { type TemplateRow, templateAndVersionQueries, type VersionRow } from "./templates.repo";
import type { SendTemplateInput } from "./templates.schemas";
import { templateNotFound, versionNotFound } from "./templates.service";
import {
  checkValues,
  renderVersion,
  valueProblems,
  variablesOf,
  variablesRefused,
  viewOf,
} from "./variables";

/** What a send may name: a template, and its own fields that take precedence over the template's. */
export interface Templated {
  template?: SendTemplateInput | undefined;
  from?: string | undefined;
  subject?: string | undefined;
  reply_to?: string | string[] | undefined;
  html?: string | undefined;
  text?: string | undefined;
}

/** A send with its template filled in, and the version (and layout version) it was built from. */
export interface Filled<T> {
  email: T & { html?: string; text?: string };
  template: { id: string; versionId: string; layout?: { id: string; versionId: string } } | null;
}

type Found = { template: TemplateRow; version: VersionRow | null; layout: VersionRow | null };

const lookupKey = (t: SendTemplateInput) => `${t.id}\u0000${t.version_id ?? ""}`;

/**
 * The reads of a send's templates, for the caller to put in the batch it reads with anyway (its
 * idempotency key): three single-table queries per distinct template and version named (the
 * template, the version, the published version of the layout the version names), however many
 * emails name them. `fill` takes those queries' answers, in order, and keeps what is usable in the
 * isolate's cache (send-cache.ts) for `fillFromCache`.
 */
export function templateReads<T extends Templated>(db: Db, accountId: string, emails: T[]) {
  const refs = distinctRefs(emails);
  const queries = refs.flatMap((t) =>
    templateAndVersionQueries(db, accountId, t.id, t.version_id ? { id: t.version_id } : "published"),
  );
  const fill = (answers: unknown[], pathOf: (index: number) => string): Array<Filled<T>> => {
    const found = new Map(
      refs.map((t, i) => {
        const template = (answers[3 * i] as TemplateRow[])[0];
        const version = (answers[3 * i + 1] as VersionRow[])[0] ?? null;
        const layout = (answers[3 * i + 2] as VersionRow[])[0] ?? null;
        return [lookupKey(t), template ? { template, version, layout } : undefined];
      }),
    );
    const filledEmails = fillFrom(emails, found, pathOf);
    for (const t of refs) {
      const row = found.get(lookupKey(t));
      if (row?.version && row.template.type !== "layout") remember(cacheKey(accountId, t), row as Usable);
    }
    return filledEmails;
  };
  return { queries, fill };
}

/** At most this many distinct templates are sent from the cache: each adds a guard to the accepting statement. */
const MAX_CACHED_REFS = 5;

/**
 * The send filled from the isolate's cache, with no read: null unless every template it names was
 * read (and usable) before. `build` fills the emails (and throws what the kept versions refuse);
 * `guard` is the SQL the accepting batch must find true (send-cache.ts).
 */
export function fillFromCache<T extends Templated>(
  accountId: string,
  emails: T[],
  pathOf: (index: number) => string,
): { build: () => Array<Filled<T>>; guard: SQL; forget: () => void } | null {
  const refs = distinctRefs(emails);
  if (refs.length === 0 || refs.length > MAX_CACHED_REFS) return null;
  const found = new Map<string, Found>();
  for (const t of refs) {
    const hit = cached(cacheKey(accountId, t));
    if (!hit) return null;
    found.set(lookupKey(t), hit);
  }
  const guards = refs.map((t) => guardSql(accountId, t, found.get(lookupKey(t)) as Usable));
  return {
    build: () => fillFrom(emails, found, pathOf),
    guard: sql.join(guards, sql` AND `),
    forget: () => {
      for (const t of refs) forget(cacheKey(accountId, t));
    },
  };
}

const distinctRefs = (emails: Templated[]) => [
  ...new Map(emails.flatMap((e) => (e.template ? [[lookupKey(e.template), e.template]] : []))).values(),
];

/** Every email filled from the templates found (422 naming each value refused, in every email). */
function fillFrom<T extends Templated>(
  emails: T[],
  found: Map<string, Found | undefined>,
  pathOf: (index: number) => string,
): Array<Filled<T>> {
  const details = emails.flatMap((email, i) => {
    if (!email.template) return [];
    const { version, layout } = usable(email.template, found.get(lookupKey(email.template)));
    return valueProblems(
      checkValues(declaredOf(version, layout), email.template.variables),
      `${pathOf(i)}template.variables`,
    );
  });
  if (details.length > 0) throw variablesRefused(details);
  const renderer = newRenderer();
  return emails.map((email) => {
    if (!email.template) return { email, template: null };
    const { template, version, layout } = usable(email.template, found.get(lookupKey(email.template)));
    return {
      email: filled(email, version, layout, email.template, renderer),
      template: {
        id: template.id,
        versionId: version.id,
        ...(layout ? { layout: { id: layout.templateId, versionId: layout.id } } : {}),
      },
    };
  });
}

const declaredOf = (version: VersionRow, layout: VersionRow | null) =>
  joinVariables(variablesOf(version), layout ? variablesOf(layout) : null);

/** The template, published version and its layout's a send names, or why it cannot be sent (404, 422). */
function usable(ref: SendTemplateInput, row: Found | undefined) {
  if (!row) throw templateNotFound(ref.id);
  if (row.template.type === "layout") {
    throw new AppError(
      422,
      "template_is_layout",
      "Template is a layout",
      `Template ${ref.id} is a layout: send a template that names it (layout_id) instead.`,
    );
  }
  if (!row.version) {
    if (ref.version_id) throw versionNotFound(ref.id, ref.version_id);
    throw new AppError(
      422,
      "template_not_published",
      "Template not published",
      `Template ${ref.id} has no published version: publish it (POST /v1/templates/{id}/publish) or name a version.`,
    );
  }
  if (row.version.publishedAt === null) throw versionUnpublished(ref.id, row.version.id);
  if (row.version.layoutId && !row.layout) throw layoutNotPublished(ref.id, row.version.layoutId);
  return { template: row.template, version: row.version, layout: row.layout };
}

/** The send's own fields first; the template's rendered ones for the rest. */
function filled<T extends Templated>(
  email: T,
  version: VersionRow,
  layout: VersionRow | null,
  ref: SendTemplateInput,
  renderer: Renderer,
) {
  // A published version (and layout) declares every variable it uses, and the values were
  // checked: each has one.
  const view = viewOf(declaredOf(version, layout), ref.variables ?? {}, [], () => "");
  const rendered = renderInLayout(renderVersion(version, view, renderer), layout, view, renderer);
  const replyTo = JSON.parse(version.replyTo) as string[];
  const { template: _template, ...own } = email;
  return {
    ...own,
    from: email.from ?? version.from ?? undefined,
    subject: email.subject ?? rendered.subject ?? undefined,
    reply_to: email.reply_to ?? (replyTo.length > 0 ? replyTo : undefined),
    html: rendered.html,
    ...(rendered.text === null ? {} : { text: rendered.text }),
  } as T & { html: string; text?: string };
}

const versionUnpublished = (ref: string, versionId: string) =>
  new AppError(
    422,
    "template_version_not_published",
    "Template version not published",
    `Version ${versionId} of template ${ref} is a draft: a send uses published versions only (preview a draft with POST /v1/templates/{id}/render).`,
  );
