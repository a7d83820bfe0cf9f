import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { killStartedProcesses, spawnTracked } from "../support/child-processes";

// scripts/admin.js is what `npm run admin` runs: plain Node, so that a command starts without tsx.
const { needsBuild } = require("../../scripts/admin.js") as { needsBuild: (root: string) => boolean };
const ROOT = path.resolve(__dirname, "../..");

/** A checkout in miniature: one source, the build's settings, and (optionally) a compiled CLI, with these modification times (s). */
function checkout(times: { source: number; settings: number; compiled?: number }): string {
  const root = mkdtempSync(path.join(tmpdir(), "wsi-admin-launcher-"));
  const file = (relative: string, at: number) => {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), "");
    utimesSync(path.join(root, relative), at, at);
  };
  file("src/cli/admin.ts", times.source);
  file("tsconfig.build.json", times.settings);
  if (times.compiled !== undefined) file("dist/cli/admin.js", times.compiled);
  return root;
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnTracked(process.execPath, ["scripts/admin.js", ...args], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += String(chunk)));
  child.stderr!.on("data", (chunk) => (stderr += String(chunk)));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

afterAll(killStartedProcesses);

describe("npm run admin builds only when the compiled CLI is missing or stale", () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));
  const at = (times: Parameters<typeof checkout>[0]) => {
    const root = checkout(times);
    roots.push(root);
    return root;
  };

  it("builds when dist/ has no compiled CLI", () => {
    expect(needsBuild(at({ source: 1_000, settings: 1_000 }))).toBe(true);
  });

  it("builds when a source changed after the build", () => {
    expect(needsBuild(at({ source: 2_000, settings: 1_000, compiled: 1_500 }))).toBe(true);
  });

  it("builds when the build's settings changed after the build", () => {
    expect(needsBuild(at({ source: 1_000, settings: 2_000, compiled: 1_500 }))).toBe(true);
  });

  it("runs the compiled CLI as it is when it is newer than every source", () => {
    expect(needsBuild(at({ source: 1_000, settings: 1_000, compiled: 1_500 }))).toBe(false);
  });
});

describe("npm run admin from the compiled build", () => {
  it("prints the help on stdout, any build's progress on stderr only", async () => {
    const first = await run(["--help"]);
    expect(first).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: npm run admin -- <command> \[options\]\n/) });
    expect(first.stdout).not.toMatch(/Building|Built in/);
  }, 300_000);

  it("refuses workspace:delete without --yes in one sentence and the command's one usage line", async () => {
    const refused = await run(["workspace:delete", "--workspace", "ws_doomed"]);
    expect(refused).toEqual({
      code: 1,
      stdout: "",
      stderr: expect.stringMatching(
        /(^|\n)workspace:delete deletes workspace ws_doomed and everything in it, for good; add --yes to go ahead\nUsage: npm run admin -- workspace:delete --workspace ID --yes\n$/,
      ),
    });
  }, 300_000);
});
