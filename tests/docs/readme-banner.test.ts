import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startupBanner } from "../../src/bootstrap/banner";
import { setUpFirstRun } from "../../src/bootstrap/first-run";
import { loadOrCreateLocalAdminToken } from "../../src/bootstrap/local-files";
import { loadConfig } from "../../src/config";
import { describeTelemetry } from "../../src/telemetry/telemetry-summary";
import { createTestApp, type TestApp } from "../support/test-app";

// The README's "Quick start" shows what the first `npm run dev` prints, with `…` where each run
// differs (ids, secrets, the absolute path of the data directory).
const README = readFileSync(path.join(__dirname, "../../README.md"), "utf8");

function readmeBanner(): string[] {
  const quickStart = README.slice(README.indexOf("## Quick start"));
  const block = /```\n(Workspace Intelligence API listening on[\s\S]*?)```/.exec(quickStart);
  if (!block) throw new Error("no banner block in the README's Quick start");
  return block[1]!.replace(/\n+$/, "").split("\n");
}

/** A README line as a pattern: its text literally, each `…` one run of non-blank characters. */
const patternOf = (line: string) => new RegExp(`^${line.split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\S+")}$`);

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  t = await createTestApp();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "wsi-readme-banner-"));
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the README's sample banner", () => {
  it("matches, line by line, the banner of a first run with the default settings", async () => {
    const config = loadConfig({});
    const firstRun = await setUpFirstRun(t.services);
    expect(firstRun).toBeDefined();
    // The default data directory, where a fresh clone keeps it, under a temporary parent.
    const ownDataDir = path.join(dataDir, config.dataDir);
    mkdirSync(ownDataDir, { recursive: true });
    const banner = startupBanner({
      baseUrl: `http://localhost:${config.port}`,
      database: `embedded Postgres in ${config.dataDir}`,
      localAdminToken: loadOrCreateLocalAdminToken(ownDataDir),
      firstRun,
      telemetry: describeTelemetry(config.telemetry, {}),
    });
    const printed = banner.replace(/^\n+|\n+$/g, "").split("\n");
    const documented = readmeBanner();
    for (let i = 0; i < Math.max(printed.length, documented.length); i++) {
      expect({ line: i + 1, printed: printed[i] }).toEqual({ line: i + 1, printed: expect.stringMatching(patternOf(documented[i] ?? "(the README's block has ended)")) });
    }
  });
});
