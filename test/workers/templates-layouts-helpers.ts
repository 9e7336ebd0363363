import { callJson } from "./helpers";

/** A layout: a header and footer around the content slot, with a variable of its own that has no fallback. */
export const FRAME = {
  name: "Frame",
  alias: "frame",
  type: "layout",
  html: '<header>{{COMPANY}}</header>\n<main>{{{@content}}}</main>\n<footer><a href="{{{UNSUBSCRIBE_URL}}}">unsubscribe</a></footer>',
  text: "{{{@content}}}\n--\n{{COMPANY}}: {{UNSUBSCRIBE_URL}}",
  variables: [
    { key: "COMPANY", type: "string", fallback_value: "Acme & Co" },
    { key: "UNSUBSCRIBE_URL", type: "string" },
  ],
};

export const publish = (token: string, id: string) =>
  callJson("POST", `/v1/templates/${id}/publish`, { token });
