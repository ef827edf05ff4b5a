// Import rules of the house (decision 26): layers import downward only, and no folder imports a
// folder that imports it back. `npm run lint` runs them; every rule is an error and none is
// switched off for a file.
//
// Layers, top to bottom:
//   routes, components, root  →  web (request layer)  →  feature folders (domain)
//   →  adapters (db, mail, media, observability)  →  config, content  →  lib
// app/services.server.ts composes everything and is imported only by the request layer and server/.

/** Folders that hold the shop's domain: they see adapters, config and lib, never what is above. */
const DOMAIN =
  "^app/(auth|campaigns|cart|catalogue|demo|drops-desk|invoices|jobs|orders|payments|rate-limits|reports|returns|settings|waitlist)/";
/** What only the request layer and the pages may import. */
const ABOVE_DOMAIN =
  "^app/(routes|components|web)/|^app/(services\\.server|root|entry\\.server|routes)\\.tsx?$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-folder-cycle",
      comment: "A folder may not import a folder that imports it back (at any depth of folders).",
      severity: "error",
      scope: "folder",
      from: { path: "^(app|server)/" },
      to: { circular: true },
    },
    {
      name: "no-module-cycle",
      comment: "Modules import each other in no circle either.",
      severity: "error",
      from: { path: "^(app|server)/" },
      to: { circular: true },
    },
    {
      name: "lib-is-pure",
      comment: "app/lib holds pure helpers: it imports nothing else of the app.",
      severity: "error",
      from: { path: "^app/lib/" },
      to: { path: "^app/", pathNot: "^app/lib/" },
    },
    {
      name: "config-is-low",
      comment: "Configuration and fixed content import only pure helpers: shared types live low.",
      severity: "error",
      from: { path: "^app/(config|content)/" },
      to: { path: "^app/", pathNot: "^app/(config|content|lib)/" },
    },
    {
      name: "db-imports-no-feature",
      comment: "The database layer (handle, schema, migrations) knows no feature.",
      severity: "error",
      from: { path: "^app/db/" },
      to: { path: "^app/", pathNot: "^app/(db|config|lib)/" },
    },
    {
      name: "adapters-import-no-feature",
      comment: "Mail and media are adapters below every feature.",
      severity: "error",
      from: { path: "^app/(mail|media)/" },
      to: { path: "^app/", pathNot: "^app/(mail|media|db|config|content|lib)/" },
    },
    {
      name: "observability-is-an-adapter",
      comment:
        "The shop's metrics (app/observability) sit beside the adapters: they see config and lib only, " +
        "and the features, the request layer and server/ record through them.",
      severity: "error",
      from: { path: "^app/observability/" },
      to: { path: "^app/", pathNot: "^app/(observability|config|lib)/" },
    },
    {
      name: "domain-stays-below-the-request",
      comment: "Feature folders never import routes, components, the request layer or the composition root.",
      severity: "error",
      from: { path: DOMAIN },
      to: { path: ABOVE_DOMAIN },
    },
    {
      name: "request-layer-below-pages",
      comment: "The request layer serves the routes and server/: it imports no route or component.",
      severity: "error",
      from: { path: "^app/web/" },
      to: { path: "^app/(routes|components)/|^app/root\\.tsx$" },
    },
    {
      name: "server-only-stays-on-the-server",
      comment:
        "A .server module is never imported by code that reaches the browser: components, client " +
        "helpers and the shared modules of any folder. Route modules may (their loaders and actions " +
        "are removed from the browser's bundle), and so may other .server modules and tests.",
      severity: "error",
      from: {
        path: "^app/",
        pathNot: [
          "\\.server\\.tsx?$",
          "^app/routes/",
          "^app/routes\\.ts$",
          "^app/root\\.tsx$",
          "\\.test\\.tsx?$",
        ],
      },
      // A type-only import is erased before the browser's bundle is made.
      to: { path: "\\.server\\.tsx?$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "server-imports-no-page",
      comment: "server/ reaches the app through the request layer and the composition root, not pages.",
      severity: "error",
      from: { path: "^server/" },
      to: { path: "^app/(routes|components)/" },
    },
    {
      name: "not-to-unresolvable",
      comment: "An import that resolves to nothing is a mistake.",
      severity: "error",
      from: {},
      // React Router's generated route types and its virtual build module are made at build time.
      to: { couldNotResolve: true, pathNot: ["^\\./\\+types/", "^virtual:react-router/"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(build|\\.react-router|node_modules|data|\\.tmp)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
  },
};
