#!/usr/bin/env node
// `npm run admin`: runs the admin CLI from the compiled build, which starts in a fraction of the
// time tsx takes to compile src/ on every call. The build is made (npm run build) when dist/ is
// missing or older than a file of src/, so a fresh clone needs nothing beyond npm install; a build
// that fails (src/ mid-edit) falls back to running the sources through tsx.
const { spawnSync } = require("node:child_process");
const { readdirSync, statSync } = require("node:fs");
const path = require("node:path");

const compiledCli = (root) => path.join(root, "dist", "cli", "admin.js");

/** The modification time of `file` in ms, 0 when it does not exist. */
function modifiedAt(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** The newest modification time under `dir`, in ms: a stat per file, a few milliseconds for src/. */
function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, modifiedAt(path.join(entry.parentPath, entry.name)));
  }
  return newest;
}

/** Whether the compiled CLI is missing, or older than a source or the build's settings. */
function needsBuild(root) {
  const built = modifiedAt(compiledCli(root));
  return built === 0 || built < Math.max(newestUnder(path.join(root, "src")), modifiedAt(path.join(root, "tsconfig.build.json")));
}

function main(root, args) {
  if (needsBuild(root)) {
    const first = modifiedAt(compiledCli(root)) === 0;
    const started = Date.now();
    process.stderr.write(first ? "Building dist/ once (npm run build)…\n" : "src/ changed since the last build: building dist/ again (npm run build)…\n");
    // The build's output goes to stderr: stdout is the command's JSON answer, which scripts read.
    const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ["npm", []];
    const built = spawnSync(npm[0], [...npm[1], "run", "--silent", "build"], { cwd: root, stdio: ["ignore", process.stderr, "inherit"] });
    if (built.status !== 0) {
      process.stderr.write("The build failed (see above); running the sources through tsx instead.\n");
      const tsx = spawnSync(process.execPath, [require.resolve("tsx/cli"), path.join("src", "cli", "admin.ts"), ...args], { cwd: root, stdio: "inherit" });
      process.exit(tsx.status ?? 1);
    }
    process.stderr.write(`Built in ${Math.round((Date.now() - started) / 1000)} s; later commands start at once.\n`);
  }
  require(compiledCli(root));
}

if (require.main === module) main(path.resolve(__dirname, ".."), process.argv.slice(2));

module.exports = { needsBuild };
