import type { Child } from "hono/jsx";

/**
 * The shell of every server-rendered page: no script, no inline style, nothing from elsewhere
 * (see `pageSecurity`), so the strict content security policy holds. Hono JSX escapes all text.
 */
export function Layout(props: { title: string; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{props.title}</title>
      </head>
      <body>
        <main>{props.children}</main>
      </body>
    </html>
  );
}
