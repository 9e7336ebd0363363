import { z } from "@hono/zod-openapi";
import { isValidAddress } from "./address";

/** An email address as a workspace stores it: trimmed, lowercase, one that mail can reach. */
export const emailAddress = (description: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .max(254)
    .refine(isValidAddress, "must be an email address such as ada@example.com")
    .openapi({ description, example: "ada@example.com" });
