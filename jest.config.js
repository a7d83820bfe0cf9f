/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  transform: {
    // Dynamic import() is left native so that ESM-only packages load through Node (vm modules).
    "^.+\\.(t|j)s$": ["@swc/jest", { jsc: { target: "es2022" }, module: { type: "commonjs", ignoreDynamic: true } }],
  },
  // sanitize-html's HTML parser and its helpers ship as ES modules only; compile them for Jest.
  transformIgnorePatterns: ["/node_modules/(?!(htmlparser2|domhandler|domutils|dom-serializer|domelementtype|entities)/)"],
  globalSetup: "<rootDir>/tests/support/global-setup.ts",
  globalTeardown: "<rootDir>/tests/support/global-teardown.ts",
  // Most of a file's time is the embedded Postgres; two workers match the two cores.
  maxWorkers: 2,
  testTimeout: 30000,
};
