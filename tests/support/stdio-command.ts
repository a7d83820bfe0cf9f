import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

const ROOT = path.resolve(__dirname, "../..");

/**
 * The stdio command compiled to JavaScript, as `npm run build` makes `dist/mcp/stdio.js`, so tests
 * start it the way the README configures it: `node <file>`, with no npm and no tsx in front that
 * could print to stdout. Only the command's own imports are compiled (type checking is the type
 * check's job), into node_modules/.cache so that its packages resolve as they do from dist/.
 */
export async function compileStdioCommand(): Promise<{ file: string; remove(): Promise<void> }> {
  const dir = path.join(ROOT, "node_modules", ".cache", `wsi-stdio-command-${process.pid}`);
  await mkdir(dir, { recursive: true });
  const tsconfig = path.join(dir, "tsconfig.json");
  await writeFile(
    tsconfig,
    JSON.stringify({
      extends: path.join(ROOT, "tsconfig.build.json"),
      compilerOptions: { outDir: path.join(dir, "out"), rootDir: path.join(ROOT, "src"), noCheck: true, sourceMap: false },
      files: [path.join(ROOT, "src", "mcp", "stdio.ts")],
      include: [],
    }),
  );
  await promisify(execFile)(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", tsconfig], { timeout: 150_000 });
  return { file: path.join(dir, "out", "mcp", "stdio.js"), remove: () => rm(dir, { recursive: true, force: true }) };
}
