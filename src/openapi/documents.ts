import { OPERATION_IDS, operationKey } from "./operation-ids";
import { API_TAGS } from "./tags";

type Operation = { operationId?: string; security?: Array<Record<string, string[]>> } & Record<
  string,
  unknown
>;
type PathItem = Record<string, Operation>;
export type OpenApiDocument = {
  openapi: string;
  info: Record<string, unknown>;
  servers?: unknown[];
  tags?: Array<{ name: string; description: string }>;
  paths: Record<string, PathItem>;
  components?: Record<string, Record<string, unknown> | undefined>;
} & Record<string, unknown>;

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/**
 * No licence is granted: the package is private and the repository has no LICENSE file, so the
 * document says so rather than implying one (SPDX's `LicenseRef-` form names a licence of our own).
 */
export const API_LICENSE = { name: "Proprietary: all rights reserved", identifier: "LicenseRef-Proprietary" };

const SITE_INFO = {
  title: "Support and Email Service: pages and operator routes",
  description:
    "The routes this Worker serves outside the API: dashboard and portal pages, sign-in, tracking and unsubscribe links, and the operator, relay and development routes. The API is described at /v1/openapi.json.",
};

export const isApiPath = (path: string) => path.startsWith("/v1/");

/**
 * The app's routes make one document; it is published as two. /v1/openapi.json is the API that
 * clients and SDK generators read: /v1 only, each operation named. The rest (dashboard and portal
 * pages, tracking links, sign-in, operator, relay and development routes) is a second document, so
 * that every route stays described without pages showing up as API operations.
 */
export function splitDocument(generated: object): { api: OpenApiDocument; site: OpenApiDocument } {
  // The generator's own types have no index signatures; only the fields named above are read.
  const full = generated as OpenApiDocument;
  const apiPaths = Object.fromEntries(Object.entries(full.paths).filter(([path]) => isApiPath(path)));
  const sitePaths = Object.fromEntries(Object.entries(full.paths).filter(([path]) => !isApiPath(path)));
  const api = withoutUnusedComponents({
    ...full,
    info: { ...full.info, license: API_LICENSE },
    tags: API_TAGS.filter((tag) => usesTag(apiPaths, tag.name)),
    paths: withOperationIds(apiPaths),
  });
  const site = withoutUnusedComponents({ ...full, info: { ...full.info, ...SITE_INFO }, paths: sitePaths });
  return { api, site };
}

function operations(paths: Record<string, PathItem>) {
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );
}

const usesTag = (paths: Record<string, PathItem>, name: string) =>
  operations(paths).some(({ operation }) => (operation.tags as string[] | undefined)?.includes(name));

/** Each operation gets its name from OPERATION_IDS; one the table lacks is left without (a test fails). */
function withOperationIds(paths: Record<string, PathItem>): Record<string, PathItem> {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => {
          const operationId = HTTP_METHODS.has(method)
            ? OPERATION_IDS[operationKey(method, path)]
            : undefined;
          // First, so that a reader of the JSON sees the name before the details.
          return [method, operationId ? { operationId, ...operation } : operation];
        }),
      ),
    ]),
  );
}

/**
 * Keeps the components the paths reach (following `$ref`s through schemas) and the security
 * schemes their operations name: a page's schema has no place in the API document, nor the API's
 * in the pages'.
 */
function withoutUnusedComponents(doc: OpenApiDocument): OpenApiDocument {
  const components = doc.components ?? {};
  const reached = new Set<string>();
  const visit = (value: unknown): void => {
    // Arrays too: their entries are their items.
    if (!value || typeof value !== "object") return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string" && inner.startsWith("#/components/")) {
        if (reached.has(inner)) continue;
        reached.add(inner);
        const [, , section = "", name = ""] = inner.split("/");
        visit(components[section]?.[decodePointer(name)]);
      } else visit(inner);
    }
  };
  visit(doc.paths);
  const schemes = new Set(
    operations(doc.paths).flatMap(({ operation }) => (operation.security ?? []).flatMap(Object.keys)),
  );
  const kept = Object.fromEntries(
    Object.entries(components)
      .map(([section, entries]) => [
        section,
        Object.fromEntries(
          Object.entries(entries ?? {}).filter(([name]) =>
            section === "securitySchemes"
              ? schemes.has(name)
              : reached.has(`#/components/${section}/${encodePointer(name)}`),
          ),
        ),
      ])
      .filter(([, entries]) => Object.keys(entries as object).length > 0),
  );
  return { ...doc, components: kept };
}

const decodePointer = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");
const encodePointer = (name: string) => name.replace(/~/g, "~0").replace(/\//g, "~1");
