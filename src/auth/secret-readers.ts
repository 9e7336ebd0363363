import type { Context } from "hono";
import type { AppEnv } from "../env";
import { permits } from "./permissions";
import { principalOf } from "./principal";

/**
 * Whether the calling key may read signing secrets in an answer. Only the level that writes a
 * resource may read its secrets, so a read key never receives one: email event webhooks are
 * written by admin keys alone; inbox webhooks and automations by write keys, which may replace any
 * secret of theirs anyway (and keep one only by sending it back), so seeing it grants them nothing.
 */
export const readsSecrets = (c: Context<AppEnv>, writers: "write" | "admin") =>
  permits(principalOf(c).permission, writers);
