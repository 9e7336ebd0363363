import type { Campaign } from "./campaign-list.page";
import type { CampaignVersions } from "./campaign-templates";
import type { TemplatePreview } from "./preview";

export interface TemplateShown {
  found: CampaignVersions | null;
  preview: TemplatePreview | null;
  subject: string;
}

const templateLink = (id: string) => `/dashboard/templates/${id}`;

/** The variables the sample lacks: each a reason some recipients would be skipped. */
function Missing(props: { keys: string[] }) {
  if (props.keys.length === 0) return null;
  return (
    <div class="notice warn" data-preview="missing">
      <p>The sample recipient has no value for these (shown as written):</p>
      <ul>
        {props.keys.map((key) => (
          <li>
            <code>{`{{${key}}}`}</code>: recipients without a value for {key} are skipped
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A template campaign's content: which template, version and layout it sends, its static values,
 * and the email a sample recipient (Ada Lovelace) would get, in a sandboxed frame (`srcdoc` with an
 * empty `sandbox`: nothing runs, nothing reaches the dashboard).
 */
export function TemplatePanel(props: { campaign: Campaign; shown: TemplateShown }) {
  const { campaign, shown } = props;
  const ref = campaign.template;
  if (!ref) return null;
  const { found, preview } = shown;
  const statics = Object.entries(ref.variables);
  return (
    <section class="panel" id="campaign-template">
      <h2>Template</h2>
      {found ? null : (
        <p class="notice error" role="alert">
          Template {ref.id} {ref.version_id ? `(version ${ref.version_id}) ` : ""}no longer exists: choose
          another.
        </p>
      )}
      <dl class="facts">
        <dt>Template</dt>
        <dd>{found ? <a href={templateLink(found.template.id)}>{found.template.name}</a> : ref.id}</dd>
        <dt>Version</dt>
        <dd>
          {found ? <code>{found.version.id}</code> : "–"}{" "}
          {found && found.version.publishedAt === null ? (
            <span class="muted">(a draft: publish it before sending)</span>
          ) : campaign.status === "draft" && !ref.version_id ? (
            <span class="muted">(published; a send uses the version published then)</span>
          ) : null}
        </dd>
        <dt>Layout</dt>
        <dd>
          {found?.layoutId ? <a href={templateLink(found.layoutId)}>{found.layoutId}</a> : "–"}
          {found?.layoutId && !found.layout ? (
            <span class="muted"> (not published: shown without it)</span>
          ) : null}
        </dd>
        <dt>Static values</dt>
        <dd>{statics.length > 0 ? statics.map(([key, value]) => `${key} = ${value}`).join(", ") : "–"}</dd>
      </dl>
      {found && !preview ? (
        <p class="notice warn">The template's markup does not parse: fix it in the template's editor.</p>
      ) : null}
      {preview ? (
        <>
          <Missing keys={preview.missing} />
          <p class="preview-subject">
            <span class="muted">Subject:</span> {shown.subject}
          </p>
          <iframe class="preview-frame" title="Email preview" sandbox="" srcdoc={preview.html}></iframe>
          {preview.text !== null ? (
            <pre class="preview-text" data-preview="text">
              {preview.text}
            </pre>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
