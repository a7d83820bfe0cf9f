import { ImportDocumentSchema } from "../../src/contracts/import";
import { benchArtifact } from "../pipeline-bench";
import { percentile, posts, type BenchApp } from "./measure";
import { ms, ratio, seconds, table, thousands, type Targets } from "./report";

// Writes on a small database and on the big one: pushes of a draft through the API, and the
// admin import of validated artifacts (the service the admin route calls, as the pipeline bench
// imports: one document, one transaction).

export interface WriteTarget {
  name: string;
  app: BenchApp;
  workspaceId: string;
}

const PUSH_WARMUP = 10;

async function pushP50(target: WriteTarget, pushes: number): Promise<number> {
  const auth = await target.app.authFor(target.workspaceId);
  // Numbered past the imports' artifacts, so that no two writes repeat a text.
  await posts(target.app.base, auth, "/api/v1/artifacts", (i) => benchArtifact(1_000_000 + i), PUSH_WARMUP, 201);
  return (await posts(target.app.base, auth, "/api/v1/artifacts", (i) => benchArtifact(1_000_000 + PUSH_WARMUP + i), pushes, 201)).p50;
}

/** The median time of `imports` imports of `artifacts` validated artifacts, validation of the document included as the route does it. */
async function importMs(target: WriteTarget, artifacts: number, imports: number): Promise<number> {
  const elapsed: number[] = [];
  for (let round = 0; round < imports; round++) {
    const started = performance.now();
    const document = ImportDocumentSchema.parse({
      artifacts: Array.from({ length: artifacts }, (_, n) => ({ ...benchArtifact(round * artifacts + n), status: "validated" })),
    });
    await target.app.services.imports.importDocument(target.workspaceId, document);
    elapsed.push(performance.now() - started);
  }
  return percentile(elapsed, 0.5);
}

export async function measureWrites(
  baseline: WriteTarget,
  big: WriteTarget,
  settings: { pushes: number; importArtifacts: number; imports: number },
  targets: Targets,
): Promise<string> {
  const [basePush, bigPush] = [await pushP50(baseline, settings.pushes), await pushP50(big, settings.pushes)];
  const [baseImport, bigImport] = [
    await importMs(baseline, settings.importArtifacts, settings.imports),
    await importMs(big, settings.importArtifacts, settings.imports),
  ];
  const rate = (elapsedMs: number) => `${seconds(elapsedMs)} (${((settings.importArtifacts / elapsedMs) * 1000).toFixed(0)} artifacts/s)`;
  const rows = [
    [`push p50 (${settings.pushes} drafts, one connection)`, ms(basePush), ms(bigPush), ratio(bigPush / basePush), "≤ 1.2×", targets.check("push p50", bigPush / basePush <= 1.2)],
    [
      `import of ${thousands(settings.importArtifacts)} validated artifacts (median of ${settings.imports})`,
      rate(baseImport), rate(bigImport), ratio(bigImport / baseImport), "≤ 1.2×", targets.check("import", bigImport / baseImport <= 1.2),
    ],
  ];
  return `### Writes: ${baseline.name} alone vs ${big.name} in the big database\n\n${table(["write", "baseline", "big database", "ratio", "target", "✔/✘"], rows)}`;
}
