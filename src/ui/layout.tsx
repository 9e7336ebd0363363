import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import { hasRole } from "../auth/roles";
import type { Session } from "../env";
import { CSRF_HEADER } from "./csrf-token";

/** Without it browsers render in quirks mode (forms gain margins, sizes drift). */
const DOCTYPE = raw("<!doctype html>");

/** The dashboard's own files, copied into the Worker's static assets by scripts/build-assets.ts. */
export const ASSETS = "/dashboard-assets";

/**
 * The shell of the public pages (sign-in, invitations, the development mailbox): a stylesheet of
 * this origin and no script at all, so their content security policy can forbid scripts outright.
 * Hono JSX escapes all text. `wide` is for pages that show a thread (the public ticket page).
 */
export function Layout(props: { title: string; wide?: boolean; children: Child }) {
  return (
    <>
      {DOCTYPE}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="robots" content="noindex" />
          <title>{props.title}</title>
          <link rel="stylesheet" href={`${ASSETS}/app.css`} />
          <link rel="icon" href={`${ASSETS}/favicon.svg`} type="image/svg+xml" />
        </head>
        <body class="public">
          <main class={props.wide ? "card wide" : "card narrow"}>{props.children}</main>
        </body>
      </html>
    </>
  );
}

/** The navigation, in this order and with exactly these names; admins and owners see every entry. */
export const NAV = [
  { name: "Overview", href: "/dashboard" },
  { name: "Tickets", href: "/dashboard/tickets" },
  { name: "Inboxes", href: "/dashboard/inboxes" },
  { name: "Contacts", href: "/dashboard/contacts" },
  { name: "Campaigns", href: "/dashboard/campaigns" },
  { name: "Templates", href: "/dashboard/templates" },
  { name: "Automations", href: "/dashboard/automations" },
  { name: "Changelog", href: "/dashboard/changelog" },
  { name: "Surveys", href: "/dashboard/surveys" },
  { name: "API keys", href: "/dashboard/keys", role: "admin" },
  { name: "Request logs", href: "/dashboard/request-logs" },
  { name: "SMTP logs", href: "/dashboard/smtp-logs" },
  { name: "Events", href: "/dashboard/events" },
  { name: "Webhooks", href: "/dashboard/webhooks" },
  { name: "Deliverability", href: "/dashboard/deliverability" },
  { name: "Team", href: "/dashboard/team" },
] as const;

export type NavName = (typeof NAV)[number]["name"];

/**
 * htmx settings that keep the strict content security policy whole: no inline indicator styles,
 * no eval, no scripts out of swapped HTML.
 */
const HTMX_CONFIG = JSON.stringify({
  includeIndicatorStyles: false,
  allowEval: false,
  allowScriptTags: false,
  historyCacheSize: 0,
});

export interface PageProps {
  title: string;
  session: Session;
  /** The session's CSRF token: htmx sends it as a header on every request it makes. */
  csrfToken: string;
  /** Which navigation entry is this page's. */
  nav?: NavName | undefined;
  children: Child;
}

/** Every signed-in page: the navigation, who is signed in, a sign-out button, then the page. */
export function DashboardLayout(props: PageProps) {
  const { session } = props;
  return (
    <>
      {DOCTYPE}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="robots" content="noindex" />
          <meta name="htmx-config" content={HTMX_CONFIG} />
          <title>{`${props.title} · ${session.workspace}`}</title>
          <link rel="stylesheet" href={`${ASSETS}/app.css`} />
          <link rel="icon" href={`${ASSETS}/favicon.svg`} type="image/svg+xml" />
          <script src={`${ASSETS}/htmx.min.js`} defer />
          <script src={`${ASSETS}/app.js`} defer />
        </head>
        <body hx-headers={JSON.stringify({ [CSRF_HEADER]: props.csrfToken })}>
          <header class="topbar">
            <a class="brand" href="/dashboard">
              {session.workspace}
            </a>
            <search class="topbar-search">
              <form method="get" action="/dashboard/tickets">
                <input
                  type="search"
                  name="q"
                  aria-label="Search tickets"
                  placeholder="Search tickets"
                  minlength={3}
                  maxlength={500}
                />
              </form>
            </search>
            <span class="who">
              {session.email} <span class="badge">{session.role}</span>
            </span>
            <form method="post" action="/logout">
              <button type="submit" class="link">
                Sign out
              </button>
            </form>
          </header>
          <div class="frame">
            <nav aria-label="Dashboard">
              <ul>
                {NAV.filter((item) => !("role" in item) || hasRole(session, item.role)).map((item) => (
                  <li>
                    <a href={item.href} aria-current={item.name === props.nav ? "page" : undefined}>
                      {item.name}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
            <main id="main">{props.children}</main>
          </div>
        </body>
      </html>
    </>
  );
}
