import { readFileSync } from "node:fs";

// Where a V8 heap goes: a heap snapshot's objects summed by constructor (self sizes, counts), or,
// given two snapshots of one process, what grew between them. A tool for docs/deployment.md's
// "Footprint": take a snapshot of a running process with `node --heapsnapshot-signal=SIGUSR2 …`
// and `kill -USR2 <pid>` (it lands in the process's working directory), then
//
//   npx tsx bench/heap-summary.ts Heap.<…>.heapsnapshot [a later one of the same process]
//
// A snapshot covers one isolate: the main thread's, not a worker thread's (a model thread), nor
// WebAssembly memory, nor what native code allocates outside the heap.

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] }; node_count: number };
  nodes: number[];
  strings: string[];
}

type Summary = Map<string, { bytes: number; count: number }>;

/** Self sizes summed by constructor ("(string)", "(code)", "(closure)"… for what has none). */
export function summarize(file: string): { summary: Summary; total: number } {
  const heap = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((field) => fields.indexOf(field)) as [number, number, number];
  const summary: Summary = new Map();
  let total = 0;
  for (let at = 0; at < heap.nodes.length; at += fields.length) {
    const type = types[heap.nodes[at + typeAt]!]!;
    const name = heap.strings[heap.nodes[at + nameAt]!]!;
    const size = heap.nodes[at + sizeAt]!;
    const key = type === "object" || type === "native" ? name : type.includes("string") ? "(string)" : type === "array" ? `(array${name ? ` ${name}` : ""})` : `(${type})`;
    const entry = summary.get(key) ?? { bytes: 0, count: 0 };
    entry.bytes += size;
    entry.count += 1;
    summary.set(key, entry);
    total += size;
  }
  return { summary, total };
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

function main(): void {
  const [first, second] = process.argv.slice(2);
  if (!first) throw new Error("usage: npx tsx bench/heap-summary.ts <snapshot> [<later snapshot of the same process>]");
  const before = summarize(first);
  const after = second ? summarize(second) : undefined;
  const rows = [...(after ?? before).summary.entries()].map(([name, entry]) => {
    const earlier = after ? (before.summary.get(name) ?? { bytes: 0, count: 0 }) : { bytes: 0, count: 0 };
    return { name, bytes: entry.bytes - earlier.bytes, count: entry.count - earlier.count, total: entry.bytes };
  });
  rows.sort((a, b) => b.bytes - a.bytes);
  console.log(after ? `heap ${mb(before.total)} → ${mb(after.total)}; what grew, by constructor:` : `heap ${mb(before.total)}, by constructor:`);
  console.log("| constructor | self size | objects |");
  console.log("| --- | --- | --- |");
  for (const row of rows.slice(0, Number(process.env.TOP ?? 25))) console.log(`| ${row.name.slice(0, 80)} | ${mb(row.bytes)} | ${row.count} |`);
}

if (require.main === module) main();
