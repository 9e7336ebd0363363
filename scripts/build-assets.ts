/**
 * Copies Swagger UI (swagger-ui-dist), htmx (htmx.org) and the dashboard's own stylesheet and
 * script into the Worker's static assets, so that /docs and /dashboard are served from this
 * deployment with no CDN. Run before dev, test and deploy.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));
const publicDir = join(process.cwd(), ".generated", "public");

/** Each target folder under the public directory, and the files copied into it. */
const COPIES: Array<{ target: string; files: string[] }> = [
  {
    target: "docs-assets",
    files: ["swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png"].map((file) =>
      join(packageDir("swagger-ui-dist"), file),
    ),
  },
  {
    target: "dashboard-assets",
    files: [
      join(packageDir("htmx.org"), "dist", "htmx.min.js"),
      join(process.cwd(), "src", "ui", "assets", "app.css"),
      join(process.cwd(), "src", "ui", "assets", "app.js"),
      join(process.cwd(), "src", "ui", "assets", "favicon.svg"),
    ],
  },
];

export function buildAssets(): void {
  for (const { target, files } of COPIES) {
    mkdirSync(join(publicDir, target), { recursive: true });
    for (const file of files) copyFileSync(file, join(publicDir, target, basename(file)));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) buildAssets();
