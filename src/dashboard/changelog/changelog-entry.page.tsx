import { ActionButton, Notice, PageHeader, Time } from "../../ui/components";
import { type Problem, ProblemNotice } from "../inboxes/form-problem";
import { EntryEditor, type Preview, PreviewSection } from "./changelog-editor";
import { type EntryDraft, minuteOf } from "./changelog-forms";
import { type Entry, StatusBadge } from "./changelog-list.page";

const DONE: Record<string, string> = { created: "Entry created.", saved: "Entry saved." };

export interface EntryPageProps {
  entry: Entry;
  accountId: string;
  canManage: boolean;
  csrfToken: string;
  done?: string | undefined;
  problem?: Problem | undefined;
  /** The editor's values when they come back unsaved (a refusal or a preview). */
  draft?: EntryDraft | undefined;
  preview?: Preview;
}

function Facts(props: { entry: Entry; accountId: string }) {
  const { entry } = props;
  return (
    <section class="panel">
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={entry.status} />
        </dd>
        <dt>Category</dt>
        <dd>{entry.category}</dd>
        <dt>Published at</dt>
        <dd>{entry.published_at ? <Time at={entry.published_at} /> : "–"}</dd>
        <dt>Created</dt>
        <dd>
          <Time at={entry.created_at} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <Time at={entry.updated_at} />
        </dd>
      </dl>
      {entry.status === "published" ? (
        <p>
          <a href={`/changelog/${props.accountId}#${entry.id}`}>View on the public page</a>
        </p>
      ) : null}
    </section>
  );
}

function Editor(props: EntryPageProps) {
  const { entry } = props;
  const base = `/dashboard/changelog/${entry.id}`;
  const saved = { ...entry, published_at: minuteOf(entry.published_at) };
  return (
    <section class="panel">
      <h2>Edit</h2>
      <EntryEditor
        action={base}
        previewAction={`${base}/preview`}
        csrfToken={props.csrfToken}
        values={props.draft ?? saved}
        currentStatus={entry.status}
        submit="Save"
      />
    </section>
  );
}

export function EntryPage(props: EntryPageProps) {
  const { entry } = props;
  const preview = props.preview ?? { html: entry.body_html, note: "The body as saved." };
  return (
    <>
      <p class="crumbs">
        <a href="/dashboard/changelog">Changelog</a>
      </p>
      <PageHeader title={entry.title}>
        {props.canManage ? (
          <ActionButton
            action={`/dashboard/changelog/${entry.id}/delete`}
            label="Delete"
            csrfToken={props.csrfToken}
            confirm="Delete this entry? A published entry leaves the public page and the feed."
            danger
          />
        ) : null}
      </PageHeader>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <ProblemNotice problem={props.problem} />
      <Facts entry={entry} accountId={props.accountId} />
      {props.canManage ? <Editor {...props} /> : null}
      <PreviewSection preview={preview} />
    </>
  );
}
