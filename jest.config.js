// The PostgreSQL pass (TEST_DATABASE_URL set, see .ci/run) runs the database-backed files against
// a real server, plus tests/postgres/ which needs one. It leaves out files with no database
// (config, embeddings, the layering check) and those about the embedded engine itself: its
// migrations and data-dir lock (tests/db/migrations.test.ts; tests/postgres/migrate.test.ts covers
// the runner on a server) and the dev server process with its first-run setup
// (tests/server/server-process.test.ts), its vectors held in the process
// (tests/search/artifact-vectors-in-process.test.ts), and the telemetry tests, which start that same embedded
// server process (tests/telemetry/).
// The Citus pass (scripts/test-citus.sh) is a PostgreSQL pass on a Citus coordinator that also runs
// tests/citus/, and leaves out three files about plain PostgreSQL alone: hash partitions by workspace
// (the single-server alternative to Citus, docs/deployment.md §6), the keys_carry_workspace
// migration over a database of the older schema, which Citus could never have distributed, and the
// database stopped under the service (tests/postgres/database-outage.test.ts), which starts a plain
// server of its own.
const postgresPass = Boolean(process.env.TEST_DATABASE_URL);
const citusPass = Boolean(process.env.WSI_TEST_CITUS);
const ignored = postgresPass
  ? [...(citusPass ? ["/tests/search/partitioned-tables\\.test\\.ts$", "/tests/db/keys-carry-workspace-migration\\.test\\.ts$", "/tests/postgres/database-outage\\.test\\.ts$"] : ["/tests/citus/"]), "/tests/config\\.test\\.ts$", "/tests/embeddings/", "/tests/architecture/", "/tests/db/migrations\\.test\\.ts$", "/tests/server/server-process\\.test\\.ts$", "/tests/search/artifact-vectors-in-process\\.test\\.ts$", "/tests/telemetry/"]
  : ["/tests/postgres/", "/tests/citus/"];

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", ...ignored],
  transform: {
    // Dynamic import() is left native so that ESM-only packages load through Node (vm modules).
    "^.+\\.(t|j)s$": ["@swc/jest", { jsc: { target: "es2022" }, module: { type: "commonjs", ignoreDynamic: true } }],
  },
  // sanitize-html's HTML parser and its helpers ship as ES modules only; compile them for Jest.
  // They may sit nested under sanitize-html/node_modules, so the whole path is checked.
  transformIgnorePatterns: ["^(?!.*/node_modules/(htmlparser2|domhandler|domutils|dom-serializer|domelementtype|entities)/).*/node_modules/"],
  globalSetup: "<rootDir>/tests/support/global-setup.ts",
  globalTeardown: "<rootDir>/tests/support/global-teardown.ts",
  // Most of a file's time is the embedded Postgres; two workers match the two cores.
  maxWorkers: 2,
  // A worker keeps what every file it ran left in its heap (≈1.5 GB heap, 2.5 GB resident by the end
  // of a full run), and tearing that down at exit outlasts the 500 ms Jest allows a worker to end
  // in, which it reports as a worker "failed to exit gracefully" though nothing was left open.
  // Replaced between files past this size, a worker stays small enough to end at once.
  workerIdleMemoryLimit: "1GB",
  // A ceiling, not an expectation: tests wait for conditions, and a loaded 2-core machine (CI may
  // share it) runs a file's setup several times slower than an idle one.
  testTimeout: 180_000,
};
