// The layering of src/ (docs/architecture.md, "Layers"), checked by `npm run lint:deps`, which
// `npm test` runs (tests/architecture/dependency-rules.test.ts). Type-only imports count: a type
// imported upwards ties two layers together as much as a value does.

const ADAPTERS = "^src/(http|routes|mcp|console|oauth)/";
/**
 * Where the whole graph is wired; they may import anything. The telemetry SDK's wiring is one: it
 * instruments the whole process (and redacts its spans as the request log does).
 */
const COMPOSITION_ROOTS = ["^src/(app|server|worker)[.]ts$", "^src/services/index[.]ts$", "^src/cli/", "^src/telemetry/(sdk|preload)[.]ts$"];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A circle has no lower end: none of its modules can be read, tested or changed without the others.",
      from: {},
      to: { circular: true },
    },
    {
      name: "adapters-on-top",
      severity: "error",
      comment:
        "Services hold the rules every adapter (REST, MCP, console) shares and throw DomainErrors that know no transport; " +
        "nothing beneath them, and nothing the worker runs, needs an adapter.",
      from: { path: "^src/", pathNot: [ADAPTERS, ...COMPOSITION_ROOTS] },
      to: { path: ADAPTERS },
    },
    {
      name: "domain-and-contracts-stand-alone",
      severity: "error",
      comment: "The domain's errors and the wire's schemas are shared by every layer, so they depend on none of them.",
      from: { path: "^src/(domain|contracts)/" },
      to: { path: ["^src/(operations|services|repositories|search|indexing|jobs|storage|db|embeddings|bootstrap|cli)/", ADAPTERS, ...COMPOSITION_ROOTS] },
    },
    {
      name: "repositories-behind-services",
      severity: "error",
      comment:
        "Adapters and operations reach the data through services. Repositories are used by services, jobs, the database file storage, " +
        "the background indexing (indexing/), other repositories and the composition roots; search/ lies below them, " +
        "building the statements and scores repositories run.",
      from: { path: "^src/", pathNot: ["^src/(services|jobs|storage|indexing|repositories)/", ...COMPOSITION_ROOTS] },
      to: { path: "^src/repositories/" },
    },
    {
      name: "repositories-below-their-users",
      severity: "error",
      comment: "Repositories hold statements, not rules: what they need from their users comes in as arguments.",
      from: { path: "^src/repositories/" },
      to: { path: "^src/(operations|services|jobs|storage|indexing)/" },
    },
    {
      name: "telemetry-sdk-only-when-on",
      severity: "error",
      comment:
        "With telemetry off no SDK module may load (docs/operations.md): src/telemetry/sdk.ts is required by preload.ts alone, " +
        "and only when TELEMETRY=on; everything else emits through @opentelemetry/api, whose calls are no-ops without an SDK.",
      from: { path: "^src/", pathNot: "^src/telemetry/preload[.]ts$" },
      to: { path: "^src/telemetry/sdk[.]ts$" },
    },
    {
      name: "opentelemetry-sdk-in-one-place",
      severity: "error",
      comment: "Only the SDK's wiring (src/telemetry/sdk.ts) imports the SDK, its exporters and instrumentations; the rest of src/ uses the API.",
      from: { path: "^src/", pathNot: "^src/telemetry/sdk[.]ts$" },
      to: { path: "node_modules/(@opentelemetry/(?!api/)|@prisma/instrumentation/)" },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules", "^src/generated/"] },
    exclude: { path: "^src/generated/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
