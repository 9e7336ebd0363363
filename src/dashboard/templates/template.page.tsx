import type { LayoutChoice, SeenVersion } from "../../features/templates/editor";
import type { DraftPreview } from "../../features/templates/preview";
import type { listVersions } from "../../features/templates/templates.service";
import { ActionButton, Badge, Notice, PageHeader, Time } from "../../ui/components";
import { type Problem, ProblemNotice } from "../inboxes/form-problem";
import { TemplateEditor } from "./template-editor";
import type { Template, TemplateValues } from "./template-forms";

type Versions = Awaited<ReturnType<typeof listVersions>>;

const DONE: Record<string, string> = {
  created: "Draft saved.",
  saved: "Draft saved.",
  published: "Published: sends now use this version.",
  restored: "Version restored into the draft: publish it to send it.",
  duplicated: "Copy made.",
  tested: "Test email sent to you.",
};

export interface TemplatePageProps {
  template: Template;
  seen: SeenVersion;
  versions: Versions;
  values: TemplateValues;
  preview: DraftPreview;
  layouts: LayoutChoice[];
  canManage: boolean;
  csrfToken: string;
  selfEmail: string;
  done?: string | undefined;
  problem?: Problem | undefined;
}

function Actions(props: TemplatePageProps) {
  const { template, csrfToken, seen } = props;
  const base = `/dashboard/templates/${template.id}`;
  const seenFields = { version_id: seen.versionId, revision: String(seen.revision) };
  return (
    <section class="panel">
      <h2>Actions</h2>
      {template.has_unpublished_versions ? (
        <ActionButton action={`${base}/publish`} label="Publish" csrfToken={csrfToken} fields={seenFields} />
      ) : null}
      <ActionButton action={`${base}/duplicate`} label="Duplicate" csrfToken={csrfToken} />
      <ActionButton
        action={`${base}/delete`}
        label="Delete"
        csrfToken={csrfToken}
        confirm="Delete this template and its versions? Sends naming it will be refused."
        danger
      />
      <p class="muted">
        Publish acts on the saved draft: save your edits first. A test goes to you ({props.selfEmail}) only.
      </p>
    </section>
  );
}

function VersionList(props: TemplatePageProps) {
  const { template, versions, csrfToken, seen } = props;
  const seenFields = { version_id: seen.versionId, revision: String(seen.revision) };
  return (
    <section class="panel">
      <h2>Versions</h2>
      <table aria-label="Versions">
        <thead>
          <tr>
            <th>Version</th>
            <th>Status</th>
            <th>Subject</th>
            <th>Published</th>
            <th>Saved</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          {versions.data.map((v) => (
            <tr data-version={v.id}>
              <td>
                <code>{v.id}</code>
                {v.id === template.current_version_id ? <span class="muted"> (current)</span> : null}
              </td>
              <td>
                <Badge text={v.status} tone={v.status === "published" ? "good" : "neutral"} />
              </td>
              <td>{v.subject ?? "–"}</td>
              <td>
                <Time at={v.published_at} />
              </td>
              <td>
                <Time at={v.updated_at} />
              </td>
              <td>
                {props.canManage && v.id !== template.current_version_id ? (
                  <ActionButton
                    action={`/dashboard/templates/${template.id}/versions/${v.id}/restore`}
                    label="Restore"
                    csrfToken={csrfToken}
                    fields={seenFields}
                  />
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {versions.has_more ? (
        <p class="muted">Older versions: GET /v1/templates/{template.id}/versions.</p>
      ) : null}
    </section>
  );
}

export function TemplatePage(props: TemplatePageProps) {
  const { template } = props;
  return (
    <>
      <p class="crumbs">
        {template.type === "layout" ? (
          <a href="/dashboard/templates?type=layout">Layouts</a>
        ) : (
          <a href="/dashboard/templates">Templates</a>
        )}
      </p>
      <PageHeader title={template.name}>
        {template.type === "layout" ? <Badge text="layout" tone="neutral" /> : null}
        <Badge text={template.status} tone={template.status === "published" ? "good" : "neutral"} />
        {template.has_unpublished_versions ? <Badge text="unpublished changes" tone="warn" /> : null}
      </PageHeader>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <ProblemNotice problem={props.problem} />
      <dl class="facts">
        <dt>Id</dt>
        <dd>
          <code>{template.id}</code>
        </dd>
        <dt>Alias</dt>
        <dd>{template.alias ? <code>{template.alias}</code> : "–"}</dd>
        <dt>Last published</dt>
        <dd>
          <Time at={template.published_at} />
        </dd>
      </dl>
      {props.canManage ? <Actions {...props} /> : null}
      <TemplateEditor
        action={`/dashboard/templates/${template.id}`}
        csrfToken={props.csrfToken}
        values={props.values}
        preview={props.preview}
        canEdit={props.canManage}
        layouts={props.layouts}
        seen={props.seen}
        testAction={`/dashboard/templates/${template.id}/test`}
      />
      <VersionList {...props} />
    </>
  );
}

export function NewTemplatePage(props: {
  csrfToken: string;
  values: Partial<TemplateValues>;
  preview: DraftPreview;
  layouts: LayoutChoice[];
  problem?: Problem | undefined;
}) {
  const isLayout = props.values.type === "layout";
  return (
    <>
      <p class="crumbs">
        <a href="/dashboard/templates">Templates</a>
      </p>
      <PageHeader title={isLayout ? "New layout" : "New template"} />
      <nav class="tabs" aria-label="What to create">
        <a href="/dashboard/templates/new" aria-current={isLayout ? undefined : "page"}>
          Template
        </a>
        <a href="/dashboard/templates/new?type=layout" aria-current={isLayout ? "page" : undefined}>
          Layout
        </a>
      </nav>
      <p class="muted">
        {isLayout
          ? "A layout is the frame (header, footer, unsubscribe block) that templates naming it are sent inside."
          : "A template is an email sent by its id or alias, inside a layout if it names one."}
      </p>
      <ProblemNotice problem={props.problem} />
      <TemplateEditor
        action="/dashboard/templates"
        csrfToken={props.csrfToken}
        values={props.values}
        preview={props.preview}
        layouts={props.layouts}
        canEdit
      />
    </>
  );
}
