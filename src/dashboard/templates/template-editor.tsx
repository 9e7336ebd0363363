import type { LayoutChoice } from "../../features/templates/editor";
import type { DraftPreview } from "../../features/templates/preview";
import { CsrfField } from "../../ui/components";
import { type TemplateValues, variableRows } from "./template-forms";
import { LayoutField, SLOT_HINT } from "./template-layout-field";
import { PREVIEW_ID, TemplatePreview } from "./template-preview";

/** Blank variable rows under the declared ones: a new variable is typed into one and saved. */
const BLANK_ROWS = 3;

const SYNTAX_HINT =
  "{{KEY}} inserts a variable's value HTML-escaped, {{{KEY}}} as it is. Keys: letters, digits and _.";

function VariableRows(props: { values: Partial<TemplateValues>; readOnly: boolean }) {
  const rows = [
    ...variableRows(props.values),
    ...Array.from({ length: props.readOnly ? 0 : BLANK_ROWS }, () => ({
      key: "",
      type: "string",
      fallback: "",
      value: "",
    })),
  ];
  return (
    <fieldset class="template-variables">
      <legend>Variables</legend>
      <table>
        <thead>
          <tr>
            <th>Key</th>
            <th>Type</th>
            <th>Fallback</th>
            <th>Preview value</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr>
              <td>
                <input name="var_key" value={row.key} aria-label={`Variable ${i + 1} key`} maxlength={50} />
              </td>
              <td>
                <select name="var_type" aria-label={`Variable ${i + 1} type`}>
                  <option value="string" selected={row.type !== "number"}>
                    string
                  </option>
                  <option value="number" selected={row.type === "number"}>
                    number
                  </option>
                </select>
              </td>
              <td>
                <input name="var_fallback" value={row.fallback} aria-label={`Variable ${i + 1} fallback`} />
              </td>
              <td>
                <input name="var_value" value={row.value} aria-label={`Variable ${i + 1} preview value`} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <small>
        A variable without a fallback must be given by every send. The preview values are never saved: they
        fill the preview and the test you send yourself.
      </small>
    </fieldset>
  );
}

/**
 * The editor: one form whose typing htmx posts (debounced; a newer request replaces one still
 * running) to the preview route, which answers the preview panel. Its submit buttons save (the
 * form's action) or send a test (`formaction`); without script both still work. A layout's
 * editor (`values.type`) has no subject, from, reply-to or layout, and a hint about its slot.
 */
export function TemplateEditor(props: {
  action: string;
  csrfToken: string;
  values: Partial<TemplateValues>;
  preview: DraftPreview;
  canEdit: boolean;
  seen?: { versionId: string; revision: number } | undefined;
  testAction?: string | undefined;
  layouts: LayoutChoice[];
}) {
  const { values } = props;
  const isLayout = values.type === "layout";
  return (
    <div class="template-editor">
      <form
        method="post"
        action={props.action}
        class="stack"
        hx-post="/dashboard/templates/preview"
        hx-trigger="input delay:400ms, change delay:400ms"
        hx-target={`#${PREVIEW_ID}`}
        hx-swap="outerHTML"
        hx-sync="this:replace"
      >
        <CsrfField token={props.csrfToken} />
        <input type="hidden" name="type" value={isLayout ? "layout" : "template"} />
        {props.seen ? (
          <>
            <input type="hidden" name="version_id" value={props.seen.versionId} />
            <input type="hidden" name="revision" value={String(props.seen.revision)} />
          </>
        ) : null}
        <label>
          Name
          <input name="name" maxlength={200} value={values.name ?? ""} />
        </label>
        <label>
          Alias <span class="muted">(optional; usable wherever the id is)</span>
          <input name="alias" value={values.alias ?? ""} placeholder="order-receipt" />
        </label>
        {isLayout ? null : (
          <>
            <label>
              Subject
              <input name="subject" value={values.subject ?? ""} />
            </label>
            <label>
              From <span class="muted">(optional; a send may give its own)</span>
              <input name="from" value={values.from ?? ""} placeholder="Acme <orders@acme.com>" />
            </label>
            <label>
              Reply-To <span class="muted">(optional; commas between addresses)</span>
              <input name="reply_to" value={values.reply_to ?? ""} />
            </label>
            <LayoutField layouts={props.layouts} selected={values.layout_id ?? ""} />
          </>
        )}
        <label>
          HTML
          <textarea name="html" rows={16} spellcheck={false}>
            {values.html ?? ""}
          </textarea>
          <small>{SYNTAX_HINT}</small>
          {isLayout ? <small data-hint="slot">{SLOT_HINT}</small> : null}
        </label>
        <label>
          Text <span class="muted">(optional)</span>
          <textarea name="text" rows={6}>
            {values.text ?? ""}
          </textarea>
        </label>
        <VariableRows values={values} readOnly={!props.canEdit} />
        {props.canEdit ? (
          <div class="actions">
            <button type="submit">Save draft</button>
            {props.testAction && !isLayout ? (
              <button type="submit" formaction={props.testAction} formnovalidate>
                Send a test to me
              </button>
            ) : null}
          </div>
        ) : null}
      </form>
      <section class="panel template-preview-panel">
        <h2>Preview</h2>
        <TemplatePreview preview={props.preview} />
      </section>
    </div>
  );
}
