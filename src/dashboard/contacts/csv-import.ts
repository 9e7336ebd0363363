import {
  type AddContactGroupMembersInput,
  MAX_MEMBERS_PER_CALL,
  MemberByEmail,
} from "../../features/contact-groups/contact-groups.schemas";

/** A line of the CSV and what is wrong with it. */
export interface LineProblem {
  line: number;
  message: string;
}

export type CsvImport = { members: AddContactGroupMembersInput } | { problems: LineProblem[] };

/** One line's fields: commas separate, double quotes enclose a field (`""` is a quote inside one). */
function fieldsOf(line: string): string[] | null {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted && char === '"' && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (char === '"' && (quoted || field.trim() === "")) {
      quoted = !quoted;
      if (quoted) field = "";
    } else if (char === "," && !quoted) {
      fields.push(field);
      field = "";
    } else field += char;
  }
  if (quoted) return null;
  fields.push(field);
  return fields.map((value) => value.trim());
}

const isHeader = (fields: string[]) => fields[0]?.toLowerCase() === "email";

/**
 * A pasted CSV of `email,name` read as the members of one POST /v1/contact-groups/{id}/members:
 * blank lines are skipped, a first line starting `email` is a header, the name is optional. Every
 * row is checked by the API's own schema; any problem is reported with its line number and then
 * nothing is added, so an import is never half done.
 */
export function readMembersCsv(csv: string): CsvImport {
  const problems: LineProblem[] = [];
  const rows: Array<{ line: number; email: string; name: string }> = [];
  const lines = csv.split(/\r\n|\n|\r/);
  for (const [index, text] of lines.entries()) {
    const line = index + 1;
    if (text.trim() === "") continue;
    const fields = fieldsOf(text);
    if (!fields) problems.push({ line, message: "a quote is not closed" });
    else if (rows.length > 0 || problems.length > 0 || !isHeader(fields)) {
      const [email = "", name = "", ...rest] = fields;
      if (rest.some((value) => value !== "")) {
        problems.push({ line, message: "more than two columns (expected email,name)" });
      } else rows.push({ line, email, name });
    }
  }
  if (rows.length === 0 && problems.length === 0) {
    return { problems: [{ line: 1, message: "no rows: paste lines of email,name" }] };
  }
  if (rows.length > MAX_MEMBERS_PER_CALL) {
    return {
      problems: [
        {
          line: rows[MAX_MEMBERS_PER_CALL]?.line ?? 1,
          message: `over ${MAX_MEMBERS_PER_CALL} rows: import at most ${MAX_MEMBERS_PER_CALL} at a time`,
        },
      ],
    };
  }
  const members: AddContactGroupMembersInput["members"] = [];
  for (const row of rows) {
    const parsed = MemberByEmail.safeParse({ email: row.email, ...(row.name ? { name: row.name } : {}) });
    if (parsed.success) members.push(parsed.data);
    for (const issue of parsed.error?.issues ?? []) {
      problems.push({ line: row.line, message: `${issue.path.join(".")}: ${issue.message}` });
    }
  }
  if (problems.length > 0) return { problems: problems.sort((a, b) => a.line - b.line) };
  return { members: { members } };
}
