/**
 * Import direction (issue 26): every import points down. Rooms, bottom to top:
 *
 *   base        src/env.ts, src/lib, src/db            types, helpers, the database
 *   services    src/auth, src/mail, src/webhooks       who calls; how mail is built and sent;
 *                                                      outgoing webhook delivery (features announce through it)
 *   page shell  src/ui                                 layout, components, assets, error pages and handler
 *   features    src/features/* (sign-in is src/features/sessions), src/inbound (receiving mail is a feature)
 *   dashboard   src/dashboard                          pages over the features
 *   root        src/app.ts, src/index.ts, src/jobs     composition: wires everything, imported by nobody below
 *
 * Features may import one another (no cycles); a room may import any room below it. Delivery
 * (emails, tracking, inbound reports) never imports campaigns: outcomes go through src/mail/delivery-outcomes.ts.
 * Type-only imports count: a type that must be shared sits in the lower room (Session in env.ts).
 */
const FEATURES = "^src/(features|inbound)/";
const ROOT = "^src/(app|index)[.]ts$|^src/jobs/";
const BASE_AND_SERVICES = "^src/(env[.]ts$|lib/|db/|auth/|mail/|webhooks/)";

module.exports = {
  forbidden: [
    {
      name: "below-features-imports-up",
      comment:
        "base, services and the page shell never import a feature, the dashboard or the composition root",
      severity: "error",
      from: { path: `${BASE_AND_SERVICES}|^src/ui/` },
      to: { path: `${FEATURES}|^src/dashboard/|${ROOT}` },
    },
    {
      name: "base-imports-page-shell",
      comment: "the page shell sits above base and services: they never import it",
      severity: "error",
      from: { path: BASE_AND_SERVICES },
      to: { path: "^src/ui/" },
    },
    {
      name: "feature-imports-dashboard",
      comment: "features sit below the dashboard; shared page parts live in src/ui",
      severity: "error",
      from: { path: FEATURES },
      to: { path: `^src/dashboard/|${ROOT}` },
    },
    {
      name: "dashboard-imports-root",
      comment: "only the composition root imports the dashboard's router",
      severity: "error",
      from: { path: "^src/dashboard/" },
      to: { path: ROOT },
    },
    {
      name: "delivery-imports-campaigns",
      comment:
        "emails, tracking and bounce reports announce delivery outcomes through src/mail/delivery-outcomes.ts; campaigns listen, never the other way",
      severity: "error",
      from: { path: "^src/(features/emails|features/tracking|inbound)/" },
      to: { path: "^src/features/campaigns/" },
    },
    {
      name: "no-circular",
      comment: "no two files import each other, directly or round a longer cycle",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
