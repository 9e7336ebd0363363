import type { DraftPreview } from "../../features/templates/preview";

export const PREVIEW_ID = "template-preview";

const keys = (list: string[]) => list.map((key) => `{{${key}}}`).join(", ");

/**
 * The editor's preview: what a send would refuse, then the email. The HTML is shown in an iframe
 * by `srcdoc` with an empty `sandbox`: a unique origin where nothing runs (no script, no form, no
 * navigation of the dashboard); the srcdoc document keeps the page's policy, so it loads nothing
 * from elsewhere but images.
 */
export function TemplatePreview(props: { preview: DraftPreview }) {
  const { preview } = props;
  return (
    <div id={PREVIEW_ID} class="template-preview" aria-live="polite">
      {preview.problems.length > 0 ? (
        <div class="notice error" role="alert" aria-label="Markup errors">
          <p>The markup would not publish:</p>
          <ul>
            {preview.problems.map((p) => (
              <li>
                <code>{p.field}</code> line {p.line}, column {p.column}: {p.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {preview.layoutProblem ? (
        <p class="notice error" role="alert" data-preview="layout">
          {preview.layoutProblem}
        </p>
      ) : null}
      {preview.missing.length > 0 ? (
        <p class="notice warn" data-preview="missing">
          Missing (no value, no fallback; a send would be refused): {keys(preview.missing)}
        </p>
      ) : null}
      {preview.unused.length > 0 ? (
        <p class="notice warn" data-preview="unused">
          Unused (a value given for a variable not declared): {keys(preview.unused)}
        </p>
      ) : null}
      {preview.mistyped.length > 0 ? (
        <p class="notice warn" data-preview="mistyped">
          Wrong type: {preview.mistyped.map((m) => `${m.key} must be a ${m.expected}`).join(", ")}
        </p>
      ) : null}
      {preview.rendered ? (
        <>
          <p class="preview-subject">
            <span class="muted">Subject:</span> {preview.rendered.subject ?? "(none)"}
          </p>
          <iframe
            class="preview-frame"
            title="Email preview"
            sandbox=""
            srcdoc={preview.rendered.html}
          ></iframe>
          {preview.rendered.text !== null ? (
            <pre class="preview-text" data-preview="text">
              {preview.rendered.text}
            </pre>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
