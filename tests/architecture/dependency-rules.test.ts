import { execFile } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

/** `npm run lint:deps`: its exit status and what it printed. */
function lintDependencies(): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    execFile("npm", ["run", "--silent", "lint:deps"], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" } }, (error, stdout, stderr) => {
      resolve({ status: error ? Number(error.code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

describe("the layering of src/", () => {
  it("keeps every rule of .dependency-cruiser.cjs: no circle, adapters on top, repositories behind services", async () => {
    const { status, output } = await lintDependencies();
    // The output names each violation when there is one.
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining("no dependency violations found") });
  });
});
