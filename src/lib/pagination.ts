import { z } from "@hono/zod-openapi";

/**
 * Every list shape of the spec's list-endpoint table, as query schemas (for `createRoute`) and
 * envelope builders (for handlers). A `limit` outside 1..100 is a 400, never silently clamped.
 */
export const MAX_LIMIT = 100;

const limitParam = (fallback: 20 | 50) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_LIMIT)
    .default(fallback)
    .openapi({ description: `Page size, 1 to ${MAX_LIMIT}.`, example: fallback });

const offsetParam = z.coerce
  .number()
  .int()
  .min(0)
  .default(0)
  .openapi({ description: "Number of matching items to skip.", example: 0 });

/** `limit` (default 50 or 20) and `offset` (default 0). */
export const offsetQuery = (fallback: 20 | 50 = 50) =>
  z.object({ limit: limitParam(fallback), offset: offsetParam });

/** `page` (default 1) and `limit` (default 50). */
export const pageQuery = () =>
  z.object({
    page: z.coerce
      .number()
      .int()
      .min(1)
      .default(1)
      .openapi({ description: "1-based page number.", example: 1 }),
    limit: limitParam(50),
  });

export type OffsetParams = { limit: number; offset: number };
export type PageParams = { page: number; limit: number };

/** The row offset that a page-based request starts at. */
export const pageOffset = ({ page, limit }: PageParams) => (page - 1) * limit;

// Envelope builders, one per shape.

export const standardList = <T>(data: T[], total: number, { limit, offset }: OffsetParams) => ({
  data,
  pagination: { limit, offset, total },
});

export const pagedList = <T>(data: T[], total: number, { page, limit }: PageParams) => ({
  data,
  pagination: { page, limit, total, pages: Math.ceil(total / limit) },
});

export const namedList = <K extends string, T>(name: K, items: T[], total: number, p: OffsetParams) =>
  ({ [name]: items, pagination: { total, limit: p.limit, offset: p.offset } }) as Record<K, T[]> & {
    pagination: { total: number; limit: number; offset: number };
  };

export const countedList = <T>(data: T[]) => ({ data, count: data.length });

export const namedCountedList = <K extends string, T>(name: K, items: T[]) =>
  ({ [name]: items, count: items.length }) as Record<K, T[]> & { count: number };

export const metaList = <T>(data: T[]) => ({ data, meta: { total: data.length } });

export const flatList = <T>(data: T[], total: number, { limit, offset }: OffsetParams) => ({
  data,
  total,
  limit,
  offset,
});

export const countedPage = <T>(data: T[], total: number, { limit, offset }: OffsetParams) => ({
  data,
  count: total,
  limit,
  offset,
});

// Response schemas for the OpenAPI document, mirroring the builders above.

const offsetPagination = z.object({
  limit: z.number().int(),
  offset: z.number().int(),
  total: z.number().int(),
});

export const standardListSchema = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ data: z.array(item), pagination: offsetPagination }).openapi(name);

export const pagedListSchema = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      data: z.array(item),
      pagination: z.object({
        page: z.number().int(),
        limit: z.number().int(),
        total: z.number().int(),
        pages: z.number().int(),
      }),
    })
    .openapi(name);

export const namedListSchema = <T extends z.ZodType>(key: string, item: T, name: string) =>
  z.object({ [key]: z.array(item), pagination: offsetPagination }).openapi(name);

export const countedListSchema = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ data: z.array(item), count: z.number().int() }).openapi(name);

export const namedCountedListSchema = <T extends z.ZodType>(key: string, item: T, name: string) =>
  z.object({ [key]: z.array(item), count: z.number().int() }).openapi(name);

export const metaListSchema = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ data: z.array(item), meta: z.object({ total: z.number().int() }) }).openapi(name);

export const flatListSchema = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      data: z.array(item),
      total: z.number().int(),
      limit: z.number().int(),
      offset: z.number().int(),
    })
    .openapi(name);

export const countedPageSchema = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      data: z.array(item),
      count: z.number().int(),
      limit: z.number().int(),
      offset: z.number().int(),
    })
    .openapi(name);
