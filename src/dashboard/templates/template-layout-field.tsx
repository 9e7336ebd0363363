import type { LayoutChoice } from "../../features/templates/editor";

/** Under a layout's HTML: where the template goes. */
export const SLOT_HINT =
  "Write {{{@content}}} once where each template's content goes (in the text too, if the layout has one). The preview shows a placeholder block there. A layout has no subject, from or reply-to: the template sent inside it gives them.";

/**
 * A template's layout: the workspace's layouts, published or not, and "No layout". One without a
 * published version is marked: a template naming it can be saved but not published (422). A layout
 * named that the list does not hold (beyond its first page) stays selectable, so a save keeps it.
 */
export function LayoutField(props: { layouts: LayoutChoice[]; selected: string }) {
  const { layouts, selected } = props;
  const listed = selected === "" || layouts.some((l) => l.id === selected);
  return (
    <label>
      Layout <span class="muted">(the frame this template is sent inside)</span>
      <select name="layout_id">
        <option value="" selected={selected === ""}>
          No layout
        </option>
        {layouts.map((l) => (
          <option value={l.id} selected={l.id === selected}>
            {l.published ? l.name : `${l.name} (not published)`}
          </option>
        ))}
        {listed ? null : (
          <option value={selected} selected>
            {selected}
          </option>
        )}
      </select>
      <small>
        A layout not published yet frames no send: publish it before this template. New layouts:{" "}
        <a href="/dashboard/templates/new?type=layout">New layout</a>.
      </small>
    </label>
  );
}
