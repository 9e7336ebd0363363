import { z } from "@hono/zod-openapi";
import { maxJsonBytes, singleLine } from "../../lib/input";
import { MAX_LIMIT } from "../../lib/pagination";
import { VARIABLE_KEY } from "./markup";

/** What one version row holds at most: with names and variables, well under D1's 2 MB row. */
export const MAX_HTML_BYTES = 1_000_000;
export const MAX_TEXT_BYTES = 500_000;
export const MAX_VARIABLES = 50;
const MAX_FALLBACK_CHARS = 2_000;

export const SYNTAX =
  "Syntax: `{{KEY}}` inserts a variable's value HTML-escaped, `{{{KEY}}}` inserts it as it is (in `subject` and `text` both insert it as it is). Keys are letters, digits and `_` (not starting with a digit, up to 50). Nothing else of Mustache is allowed: sections, partials, comments and delimiter changes are refused when published.";

export const LIMITS = `\`html\` at most ${MAX_HTML_BYTES} bytes and \`text\` at most ${MAX_TEXT_BYTES} bytes as JSON (UTF-8; a quote, backslash or line break counts 2), at most ${MAX_VARIABLES} variables, a fallback string at most ${MAX_FALLBACK_CHARS} characters: one version stays far below D1's 2 MB row.`;

const Address = z.string().min(3).max(320);
const Addresses = z.union([Address, z.array(Address).max(50)]);

const Alias = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, "letters, digits, _ . and - only, up to 100")
  .refine((alias) => !alias.startsWith("tpl_"), "must not start with tpl_ (ids do)")
  .openapi({ description: "Unique in the workspace; usable wherever the id is.", example: "order-receipt" });

const Variable = z
  .object({
    key: z.string().regex(VARIABLE_KEY, "letters, digits and _ only, not starting with a digit, up to 50"),
    type: z.enum(["string", "number"]),
    fallback_value: z
      .union([z.string().max(MAX_FALLBACK_CHARS), z.number()])
      .nullable()
      .optional()
      .openapi({ description: "Used when a send gives no value; null: the send must give one." }),
  })
  .strict()
  .refine(
    (v) => v.fallback_value === undefined || v.fallback_value === null || typeof v.fallback_value === v.type,
    { message: "fallback_value must be of the variable's type", path: ["fallback_value"] },
  );

const Variables = z
  .array(Variable)
  .max(MAX_VARIABLES)
  .refine((list) => new Set(list.map((v) => v.key)).size === list.length, "must not repeat a key");

const Html = z.string().min(1).superRefine(maxJsonBytes(MAX_HTML_BYTES));
const Text = z.string().superRefine(maxJsonBytes(MAX_TEXT_BYTES));
const Subject = z.string().min(1).max(998);

const LayoutRef = z.string().min(1).max(100).openapi({
  description:
    "The layout (a template of `type` layout; its id or alias) this template is sent inside: its published version at send time. null: none. Kept as the layout's id in each version.",
});

const ContentFields = {
  layout_id: LayoutRef.nullable().optional(),
  subject: Subject.nullable().optional(),
  text: Text.nullable().optional(),
  alias: Alias.nullable().optional(),
  from: Address.nullable().optional().openapi({ description: "The sender a send uses when it names none." }),
  reply_to: Addresses.nullable().optional(),
  variables: Variables.optional(),
};

export const CreateTemplateBodySchema = z
  .object({
    name: singleLine(200),
    html: Html,
    type: z.enum(["template", "layout"]).optional().openapi({
      description:
        "`template` (default), or `layout`: a frame whose html (and text, if any) holds the content slot `{{{@content}}}` once; no subject, from, reply_to or layout_id. Fixed at creation.",
    }),
    ...ContentFields,
  })
  .strict()
  .openapi("CreateTemplateRequest");

export const UpdateTemplateBodySchema = z
  .object({ name: singleLine(200).optional(), html: Html.optional(), ...ContentFields })
  .strict()
  .openapi("UpdateTemplateRequest");

export type CreateTemplateInput = z.infer<typeof CreateTemplateBodySchema>;
export type UpdateTemplateInput = z.infer<typeof UpdateTemplateBodySchema>;
export type TemplateVariableInput = z.infer<typeof Variable>;

const TemplateVariableSchema = z.object({
  key: z.string(),
  type: z.enum(["string", "number"]),
  fallback_value: z.union([z.string(), z.number()]).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

const Status = z.enum(["draft", "published"]);

export const TemplateSchema = z
  .object({
    object: z.literal("template"),
    id: z.string().openapi({ example: "tpl_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    current_version_id: z.string().openapi({ description: "The version shown here: the draft, if any." }),
    alias: z.string().nullable(),
    name: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    status: Status.openapi({ description: "`published` once a version was published." }),
    published_at: z.string().nullable(),
    from: z.string().nullable(),
    subject: z.string().nullable(),
    reply_to: z.array(z.string()).nullable(),
    html: z.string(),
    text: z.string().nullable(),
    variables: z.array(TemplateVariableSchema),
    has_unpublished_versions: z
      .boolean()
      .openapi({ description: "The current version is a draft not published yet." }),
    type: z.literal("layout").optional().openapi({
      description: "Present on a layout only: a template's object keeps exactly Resend's fields.",
    }),
    layout_id: z.string().optional().openapi({
      description: "The current version's layout (an id); absent without one, as in Resend's object.",
    }),
  })
  .openapi("Template");

export const TemplateRefSchema = z
  .object({ object: z.literal("template"), id: z.string() })
  .openapi("TemplateRef");

export const TemplateDeletedSchema = z
  .object({ object: z.literal("template"), id: z.string(), deleted: z.literal(true) })
  .openapi("TemplateDeleted");

const TemplateListItem = TemplateSchema.pick({
  id: true,
  name: true,
  status: true,
  published_at: true,
  created_at: true,
  updated_at: true,
  alias: true,
});

/** Resend's list shape: newest first, `after`/`before` an id of the previous page. */
const cursorList = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ object: z.literal("list"), data: z.array(item), has_more: z.boolean() }).openapi(name);

export const TemplateListSchema = cursorList(TemplateListItem, "TemplateList");

export const TemplateVersionSchema = z
  .object({
    object: z.literal("template_version"),
    id: z.string().openapi({ example: "tpv_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    template_id: z.string(),
    status: Status,
    name: z.string(),
    subject: z.string().nullable(),
    from: z.string().nullable(),
    published_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("TemplateVersion");

export const TemplateVersionDetailSchema = TemplateVersionSchema.extend({
  layout_id: z.string().nullable(),
  reply_to: z.array(z.string()).nullable(),
  html: z.string(),
  text: z.string().nullable(),
  variables: z.array(TemplateVariableSchema),
}).openapi("TemplateVersionDetail");

export const TemplateVersionListSchema = cursorList(TemplateVersionSchema, "TemplateVersionList");

const cursorFields = {
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(20),
  after: z.string().max(64).optional().openapi({ description: "An id: the items after it (older)." }),
  before: z.string().max(64).optional().openapi({ description: "An id: the items before it (newer)." }),
};
const oneCursor = [
  (q: { after?: string | undefined; before?: string | undefined }) => !(q.after && q.before),
  "give `after` or `before`, not both",
] as const;

export const CursorQuerySchema = z.object(cursorFields).refine(...oneCursor);

export type CursorQuery = z.infer<typeof CursorQuerySchema>;

export const TemplateListQuerySchema = z
  .object({
    ...cursorFields,
    type: z
      .enum(["template", "layout"])
      .default("template")
      .openapi({ description: "`template` (the default: Resend's list stays templates only) or `layout`." }),
  })
  .refine(...oneCursor);

export type TemplateListQuery = z.infer<typeof TemplateListQuerySchema>;

export const TemplateParamsSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "id", in: "path" }, description: "The id or the alias." }),
});

export const VersionParamsSchema = TemplateParamsSchema.extend({
  version_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "version_id", in: "path" } }),
});

const Values = z
  .record(z.string().max(100), z.union([z.string(), z.number(), z.boolean(), z.null()]))
  .superRefine(maxJsonBytes(MAX_HTML_BYTES))
  .openapi({
    description:
      "Values by key: a string for a `string` variable, a number for a `number` one; the template's variables and its layout's.",
  });

export const RenderBodySchema = z
  .object({
    variables: Values.optional(),
    version_id: z.string().max(64).optional().openapi({
      description: "A version of this template (draft or published); default the current version.",
    }),
  })
  .strict()
  .openapi("RenderTemplateRequest");

export const RenderedSchema = z
  .object({
    object: z.literal("rendered_template"),
    template_id: z.string(),
    version_id: z.string(),
    layout: z.object({ id: z.string(), version_id: z.string() }).nullable().openapi({
      description: "The layout the html and text were put in (its published version); null without one.",
    }),
    subject: z.string().nullable(),
    html: z.string(),
    text: z.string().nullable(),
    missing: z.array(z.string()).openapi({
      description:
        "Variables without a value or a fallback (shown as `{{KEY}}` in the preview): a send would be refused.",
    }),
    unused: z
      .array(z.string())
      .openapi({ description: "Keys given that the template does not declare: a send would be refused." }),
  })
  .openapi("RenderedTemplate");

/** `template` in POST /v1/emails and /batch. */
export const SendTemplateSchema = z
  .object({
    id: z.string().min(1).max(100).openapi({ description: "The template's id or alias." }),
    variables: Values.optional(),
    version_id: z.string().max(64).optional().openapi({
      description: "A published version of the template; default its published version.",
    }),
  })
  .strict()
  .openapi("SendTemplate");

export type SendTemplateInput = z.infer<typeof SendTemplateSchema>;
export type VariableValues = NonNullable<SendTemplateInput["variables"]>;
