#!/usr/bin/env node
// Generates the Prisma client at install time, offline. `prisma generate` does not use the native
// schema engine, but the CLI tries to download it unless PRISMA_SCHEMA_ENGINE_BINARY names an
// existing file; any file will do for generate, so we point it at the running node binary.
const { spawnSync } = require("node:child_process");
const path = require("node:path");

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
  CHECKPOINT_DISABLE: "1",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
};
const cli = require.resolve("prisma/build/index.js");
const result = spawnSync(process.execPath, [cli, "generate"], {
  cwd: path.resolve(__dirname, ".."),
  env,
  stdio: "inherit",
});
process.exit(result.status ?? 1);
