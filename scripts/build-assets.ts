/**
 * Copies Swagger UI from the swagger-ui-dist package into the Worker's static assets, so that
 * /docs is served from this deployment with no CDN. Run before dev, test and deploy.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const source = dirname(require.resolve("swagger-ui-dist/package.json"));
const target = join(process.cwd(), ".generated", "public", "docs-assets");

export function buildAssets(): void {
  mkdirSync(target, { recursive: true });
  for (const file of ["swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png"]) {
    copyFileSync(join(source, file), join(target, file));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) buildAssets();
