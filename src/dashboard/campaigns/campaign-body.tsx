import { CONTACT_KEYS } from "../../features/campaigns/template-values";
import { type CampaignDraft, staticRows } from "./campaign-forms";
import type { Campaign } from "./campaign-list.page";
import type { TemplateChoice } from "./campaign-templates";

const VARIABLES =
  "Variables: {{first_name}}, {{name}}, {{email}}, {{name|fallback}} and {{unsubscribe_url}} (required in the HTML to send).";

const SOURCES = `Every other variable of the template takes each recipient's own value: the contact's ${CONTACT_KEYS.join(", ")} (by that key, any case), else the key in the contact's metadata, else the variable's fallback; a recipient still without one is skipped.`;

const BLANK_ROWS = 3;

/** A draft campaign's values as the editor shows them, its template's among them. */
export function editorValuesOf(campaign: Campaign): Partial<CampaignDraft> {
  const template = campaign.template;
  const statics = Object.entries(template?.variables ?? {});
  return {
    ...campaign,
    reply_to: campaign.reply_to ?? "",
    html: campaign.html ?? "",
    text: campaign.text ?? "",
    body: template ? "template" : "html",
    template_id: template?.id ?? "",
    template_version_id: template?.version_id ?? "",
    template_version_of: template?.version_id ? template.id : "",
    variable_key: statics.map(([key]) => key),
    variable_value: statics.map(([, value]) => String(value)),
  };
}

/**
 * The editor's body: its own HTML and text, or a template. Both fieldsets are always posted (the
 * form works without script); the `body` radio says which one the save uses.
 */
export function BodyFields(props: { values: Partial<CampaignDraft>; templates: TemplateChoice[] }) {
  const { values } = props;
  const body = values.body ?? (values.template_id?.trim() ? "template" : "html");
  return (
    <>
      <fieldset class="campaign-body">
        <legend>Body</legend>
        <label class="check">
          <input type="radio" name="body" value="html" checked={body === "html"} /> Write HTML
        </label>
        <label class="check">
          <input type="radio" name="body" value="template" checked={body === "template"} /> Use a template
        </label>
      </fieldset>
      <fieldset class="campaign-body" data-body="html">
        <legend>Write HTML</legend>
        <label>
          HTML
          <textarea name="html" rows={12}>
            {values.html ?? ""}
          </textarea>
          <small>{VARIABLES}</small>
        </label>
        <label>
          Text <span class="muted">(optional; the unsubscribe link is appended when it has none)</span>
          <textarea name="text" rows={6}>
            {values.text ?? ""}
          </textarea>
        </label>
      </fieldset>
      <TemplateFields values={values} templates={props.templates} />
    </>
  );
}

function TemplateFields(props: { values: Partial<CampaignDraft>; templates: TemplateChoice[] }) {
  const { values } = props;
  const chosen = values.template_id ?? "";
  const rows = [...staticRows(values), ...Array.from({ length: BLANK_ROWS }, () => ({ key: "", value: "" }))];
  return (
    <fieldset class="campaign-body template-variables" data-body="template">
      <legend>Use a template</legend>
      <label>
        Template
        <select name="template_id">
          <option value="">Choose a published template</option>
          {props.templates.map((t) => (
            <option value={t.id} selected={t.id === chosen}>
              {t.name}
            </option>
          ))}
        </select>
        <small>
          Its published version (in its layout, if it has one) is sent; the campaign's subject is used.{" "}
          <a href="/dashboard/templates">Templates</a>
        </small>
      </label>
      {values.template_version_id ? (
        <>
          <input type="hidden" name="template_version_id" value={values.template_version_id} />
          <input type="hidden" name="template_version_of" value={values.template_version_of ?? ""} />
        </>
      ) : null}
      <table>
        <thead>
          <tr>
            <th>Static variable</th>
            <th>Value for every recipient</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr>
              <td>
                <input name="variable_key" value={row.key} aria-label={`Static variable ${i + 1} key`} />
              </td>
              <td>
                <input
                  name="variable_value"
                  value={row.value}
                  aria-label={`Static variable ${i + 1} value`}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <small>{SOURCES}</small>
    </fieldset>
  );
}
