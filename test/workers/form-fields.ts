import { Parser } from "htmlparser2";

/**
 * The fields a browser would post from the form of `html` whose action is `action`: inputs (a
 * checkbox only when checked; buttons left out, as a browser posts only the one pressed), each
 * select's selected option (else its first), textareas. A page's round trip through its own form
 * is what a user's Save does.
 */
export function formFieldsOf(html: string, action: string): Record<string, string> {
  const fields: Record<string, string> = {};
  let inForm = false;
  let select: { name: string; first: string | null; chosen: string | null } | null = null;
  let option: { value: string | null; selected: boolean; text: string } | null = null;
  let textarea: { name: string; text: string } | null = null;
  const parser = new Parser(
    {
      onopentag(tag, attrs) {
        if (tag === "form") inForm = attrs.action === action;
        if (!inForm) return;
        if (tag === "input" && attrs.name && !["submit", "button"].includes(attrs.type ?? "")) {
          if (attrs.type === "checkbox" && attrs.checked === undefined) return;
          fields[attrs.name] = attrs.value ?? (attrs.type === "checkbox" ? "on" : "");
        } else if (tag === "select" && attrs.name) {
          select = { name: attrs.name, first: null, chosen: null };
        } else if (tag === "option" && select) {
          option = { value: attrs.value ?? null, selected: attrs.selected !== undefined, text: "" };
        } else if (tag === "textarea" && attrs.name) {
          textarea = { name: attrs.name, text: "" };
        }
      },
      ontext(text) {
        if (option) option.text += text;
        if (textarea) textarea.text += text;
      },
      onclosetag(tag) {
        if (tag === "form") inForm = false;
        if (tag === "option" && option && select) {
          const value = option.value ?? option.text;
          select.first ??= value;
          if (option.selected) select.chosen = value;
          option = null;
        } else if (tag === "select" && select) {
          fields[select.name] = select.chosen ?? select.first ?? "";
          select = null;
        } else if (tag === "textarea" && textarea) {
          // A browser drops one newline right after <textarea>.
          fields[textarea.name] = textarea.text.replace(/^\r?\n/, "");
          textarea = null;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return fields;
}
