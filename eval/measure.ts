import type { Services } from "../src/services";
import { columnsOf, evaluate, type Column, type EvalReport } from "./harness";
import { importJudgedSet, type ImportedSet, type JudgedSet } from "./judged-set";

/** A judged set imported into its own workspace of the evaluation database. */
export interface ImportedRun {
  set: JudgedSet;
  imported: ImportedSet;
  /** Import and embedding of its workspace. */
  indexedMs: number;
}

export async function importRuns(services: Services, sets: JudgedSet[]): Promise<ImportedRun[]> {
  const runs: ImportedRun[] = [];
  for (const set of sets) {
    const started = Date.now();
    const imported = await importJudgedSet(services, set);
    runs.push({ set, imported, indexedMs: Date.now() - started });
  }
  return runs;
}

/** Runs every judged query of every set; each set's report, and its columns (halves) in set order. */
export async function measure(services: Services, runs: ImportedRun[]): Promise<{ reports: Array<{ set: string; report: EvalReport }>; columns: Column[] }> {
  const reports = [];
  for (const { set, imported } of runs) reports.push({ set: set.name, report: await evaluate(services, imported, set) });
  return { reports, columns: reports.flatMap(({ set, report }) => columnsOf(set, report)) };
}
