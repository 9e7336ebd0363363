import { expect } from "vitest";
import { dashboardGet, type SignedIn } from "./dashboard-helpers";

/** A dashboard page's HTML, asserting it answered 200. */
export const html = async (path: string, who: SignedIn) => {
  const res = await dashboardGet(path, who);
  expect(res.status).toBe(200);
  return res.text();
};

/** The sidebar's views as [name, count, href, current]. */
export function sidebar(page: string) {
  const nav = page.slice(
    page.indexOf('<nav class="views panel"'),
    page.indexOf("</nav>", page.indexOf('<nav class="views')),
  );
  return [
    ...nav.matchAll(
      /<a class="view-link" href="([^"]*)"( aria-current="page")? data-view="[^"]+"><span class="view-name">([^<]*)<\/span>(?:<small[^>]*>[^<]*<\/small>)?<span class="count">([^<]*)<\/span>/g,
    ),
  ].map((m) => [m[3], m[4], m[1]?.replaceAll("&amp;", "&"), Boolean(m[2])]);
}
