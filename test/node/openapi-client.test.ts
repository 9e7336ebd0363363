import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";

/** The compiler the project's own type checks run (TypeScript 7, `npm run typecheck`). */
const TSC = resolve(import.meta.dirname, "../../node_modules/typescript7/bin/tsc");

/**
 * Code a client would write against the generated types. The `@ts-expect-error` lines make the
 * check two-sided: were the types `any` or missing, the compiler would report them as unused.
 */
const USAGE = `
import type { components, operations, paths } from "./schema";

type TicketPage = paths["/v1/tickets"]["get"]["responses"][200]["content"]["application/json"];
export const subjects = (page: TicketPage): string[] => page.data.map((ticket) => ticket.subject);
export const total = (page: TicketPage): number => page.pagination.total;

type SendEmail = NonNullable<paths["/v1/emails"]["post"]["requestBody"]>["content"]["application/json"];
export const email: SendEmail = { from: "ada@acme.test", to: ["bob@acme.test"], subject: "Hello", text: "Hi" };
// @ts-expect-error: to is required (from and subject may come from a template)
export const noRecipient: SendEmail = { from: "ada@acme.test", subject: "Hello", text: "Hi" };

export type GetTicket = operations["getTicket"]["parameters"]["path"];
export const ticketPath: GetTicket = { id: "tkt_01JD3Z6X8Y9ABCDEFGHJKMNPQR" };
export type RemoveSuppression = paths["/v1/suppressions/{email}"]["delete"];
export const error: components["schemas"]["Error"] = { error: "Invalid API key", code: "invalid_api_key", request_id: "req_1" };

// @ts-expect-error: pages are not in the API's document
export type Dashboard = paths["/dashboard"];
// @ts-expect-error: the suppression alias is served but not described
export type Alias = paths["/v1/emails/suppressions/{email}"];
`;

describe("a TypeScript client generated from the API description", () => {
  it("type-checks, with the paths and operations a client uses", { timeout: 180_000 }, async () => {
    const res = await createApp().request("https://support.acme.test/v1/openapi.json");
    expect(res.status).toBe(200);
    const schema = astToString(await openapiTS(await res.text()));
    expect(schema).toContain("listTickets: {");

    const dir = await mkdtemp(join(tmpdir(), "openapi-client-"));
    try {
      await writeFile(join(dir, "schema.ts"), schema);
      await writeFile(join(dir, "usage.ts"), USAGE);
      await writeFile(
        join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            noUnusedLocals: false,
            target: "ES2022",
            module: "ESNext",
            moduleResolution: "Bundler",
            skipLibCheck: true,
            types: [],
          },
          files: ["schema.ts", "usage.ts"],
        }),
      );
      // Its own process: the native compiler checks this program in a fraction of the JavaScript
      // API's time. Every problem is a line of its output, and any makes it exit non-zero.
      const tsc = spawnSync(process.execPath, [TSC, "-p", dir, "--pretty", "false"], { encoding: "utf8" });
      expect(`${tsc.stdout}${tsc.stderr}`.trim()).toBe("");
      expect(tsc.status).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
