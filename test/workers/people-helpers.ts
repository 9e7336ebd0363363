import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { call, callJson, eventually } from "./helpers";

type Summary = { id: string; from: string; to: string[]; status: string; subject: string };

/** A distinct client address per call, so the per-IP sign-in limit of one test never meets another's. */
export const uniqueIp = () => `10.${rand()}.${rand()}.${rand()}`;
const rand = () => Math.floor(Math.random() * 250);

/** The sent system email to `to` in the workspace, and the MIME the capture transport kept. */
export async function sentSystemEmail(ws: { token: string }, to: string) {
  const summary = await eventually(async () => {
    const list = await callJson<{ data: Summary[] }>("GET", "/v1/emails", { token: ws.token });
    return list.body.data.find((e) => e.to.includes(to) && e.status === "sent");
  });
  const object = await env.FILES.get(`emails/${summary.id}/message.eml`);
  expect(object).not.toBeNull();
  return { summary, raw: (await object?.text()) ?? "" };
}

/** The token of the first `/<kind>/<token>` link in a message (the text part is plain ASCII). */
export function linkTokenIn(raw: string, kind: "invitations" | "login"): string {
  const match = new RegExp(`/${kind}/([A-Za-z0-9_-]{43})`).exec(raw.replace(/=\r\n/g, ""));
  expect(match, `a /${kind}/ link in the message`).not.toBeNull();
  return match?.[1] ?? "";
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** A same-origin form post, as the page's own form makes. */
export function postForm(
  path: string,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  return call("POST", path, {
    rawBody: form(fields),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: "http://localhost",
      "CF-Connecting-IP": uniqueIp(),
      ...headers,
    },
  });
}

export const acceptInvitationPage = (token: string, fields: Record<string, string> = {}) =>
  postForm(`/invitations/${token}`, fields);

/** The `name=value` of a Set-Cookie answer, for the next request's Cookie header. */
export const cookieOf = (res: Response) => (res.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
