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
/** Pushes a turn: the two sides take turns, so that drift (a checkpoint, autovacuum, the machine) falls on both. */
const PUSHES_A_TURN = 20;

/** The p50 of `pushes` pushes on each side, in turns of PUSHES_A_TURN, after PUSH_WARMUP each. */
async function pushP50s(sides: WriteTarget[], pushes: number): Promise<number[]> {
  const latencies: number[][] = sides.map(() => []);
  const auths = await Promise.all(sides.map((side) => side.app.authFor(side.workspaceId)));
  // Numbered past the imports' artifacts, so that no two writes of a side repeat a text; both sides push the same texts.
  const push = (side: number, first: number, count: number) =>
    posts(sides[side]!.app.base, auths[side]!, "/api/v1/artifacts", (i) => benchArtifact(1_000_000 + first + i), count, 201);
  for (let side = 0; side < sides.length; side++) await push(side, 0, PUSH_WARMUP);
  for (let done = 0; done < pushes; done += PUSHES_A_TURN) {
    for (let side = 0; side < sides.length; side++) {
      latencies[side]!.push(...(await push(side, PUSH_WARMUP + done, Math.min(PUSHES_A_TURN, pushes - done))).all);
    }
  }
  return latencies.map((each) => percentile(each, 0.5));
}

/**
 * The median time of `imports` imports of `artifacts` validated artifacts on each side, the sides
 * taking turns, validation of the document included as the route does it.
 */
async function importMedians(sides: WriteTarget[], artifacts: number, imports: number): Promise<number[]> {
  const elapsed: number[][] = sides.map(() => []);
  for (let turn = 0; turn < imports; turn++) {
    for (let side = 0; side < sides.length; side++) {
      const first = turn * artifacts;
      const started = performance.now();
      const document = ImportDocumentSchema.parse({
        artifacts: Array.from({ length: artifacts }, (_, n) => ({ ...benchArtifact(first + n), status: "validated" })),
      });
      await sides[side]!.app.services.imports.importDocument(sides[side]!.workspaceId, document);
      elapsed[side]!.push(performance.now() - started);
    }
  }
  return elapsed.map((each) => percentile(each, 0.5));
}

export async function measureWrites(
  baseline: WriteTarget,
  big: WriteTarget,
  settings: { pushes: number; importArtifacts: number; imports: number },
  targets: Targets,
): Promise<string> {
  const [basePush, bigPush] = (await pushP50s([baseline, big], settings.pushes)) as [number, number];
  const [baseImport, bigImport] = (await importMedians([baseline, big], settings.importArtifacts, settings.imports)) as [number, number];
  const rate = (elapsedMs: number) => `${seconds(elapsedMs)} (${((settings.importArtifacts / elapsedMs) * 1000).toFixed(0)} artifacts/s)`;
  const rows = [
    [`push p50 (${settings.pushes} drafts, one connection, the sides in turns of ${PUSHES_A_TURN})`, ms(basePush), ms(bigPush), ratio(bigPush / basePush), "≤ 1.2×", targets.check("push p50", bigPush / basePush <= 1.2)],
    [
      `import of ${thousands(settings.importArtifacts)} validated artifacts (median of ${settings.imports}, the sides in turns)`,
      rate(baseImport), rate(bigImport), ratio(bigImport / baseImport), "≤ 1.2×", targets.check("import", bigImport / baseImport <= 1.2),
    ],
  ];
  return `### Writes: ${baseline.name} alone vs ${big.name} in the big database\n\n${table(["write", "baseline", "big database", "ratio", "target", "✔/✘"], rows)}`;
}
