import type { Context } from "hono";
import type { AppEnv } from "../env";
import type { AppError } from "../lib/errors";
import { PublicMessagePage } from "./message-page";

/** What a refused public post is told; the 429 answer also says when to try again (Retry-After). */
export const TOO_MANY_POSTS = "Too many messages in a short time. Wait 15 minutes and try again.";
export const RETRY_AFTER_SECONDS = "900";

/**
 * What a customer reads for each error. Never the error's own detail: it may name a workspace,
 * an account id or a customer's address, and these pages are public.
 */
const PAGES: Record<number, { title: string; text: string }> = {
  400: { title: "That did not work", text: "The form could not be read. Go back and try again." },
  403: {
    title: "Form not accepted",
    text: "This form must be sent from its own page. Go back, reload the page and try again.",
  },
  404: { title: "Not found", text: "This page does not exist. Check that you copied the whole address." },
  413: { title: "Too large", text: "The form is too large. Shorten your message and try again." },
  415: { title: "That did not work", text: "The form could not be read. Go back and try again." },
  429: { title: "Slow down", text: TOO_MANY_POSTS },
};
const FALLBACK = {
  title: "Something went wrong",
  text: "Something went wrong on our side. Try again in a few minutes.",
};

/** Under /portal, /u (unsubscribe links), /s (survey links) and /changelog the error answers are pages, not JSON: the same status, a plain reason. */
export function renderPortalError(c: Context<AppEnv>, error: AppError) {
  const page = PAGES[error.status] ?? FALLBACK;
  if (error.status === 429) c.header("Retry-After", RETRY_AFTER_SECONDS);
  return c.html(<PublicMessagePage title={page.title} text={page.text} />, error.status);
}

export const isPortalPath = (path: string) =>
  path.startsWith("/portal/") ||
  path.startsWith("/u/") ||
  path.startsWith("/s/") ||
  path.startsWith("/changelog/");
