/**
 * The memory pgvector's IVFFlat build asks `maintenance_work_mem` for before its k-means, by its
 * own arithmetic (pgvector src/ivfbuild.c InitBuildState and ComputeCenters, src/ivfkmeans.c
 * ElkanKmeans): the centres, a sample of 50 rows a list (10,000 at least), and per sample and
 * centre one float of Elkan's lower bounds. The last term grows with the square of the lists and
 * is most of it: 800 lists of 512-dimension half vectors need 168 MB, 4,000 lists about 3.5 GB.
 * A build whose figure exceeds the setting fails ("memory required is … MB").
 */

const FLOAT = 4;
const INT = 4;
/** sizeof(VectorArrayData) on a 64-bit server. */
const VECTOR_ARRAY_HEADER = 24;
/** What the build samples: 50 rows a list, at least 10,000 (pgvector's ComputeCenters). */
const SAMPLES_PER_LIST = 50;
const MIN_SAMPLES = 10_000;

const maxAlign = (size: number) => Math.ceil(size / 8) * 8;
/** A halfvec of `dimensions`: its 4-byte length, 2-byte dimensions, 2 unused, 2 bytes a value. */
const halfvecSize = (dimensions: number) => 8 + 2 * dimensions;
const vectorArray = (length: number, itemSize: number) => VECTOR_ARRAY_HEADER + length * maxAlign(itemSize);

/** Bytes an IVFFlat build of `lists` lists over half vectors of `dimensions` checks against `maintenance_work_mem`. */
export function ivfflatBuildBytes(lists: number, dimensions: number): number {
  const item = halfvecSize(dimensions);
  const samples = Math.max(MIN_SAMPLES, lists * SAMPLES_PER_LIST);
  return (
    vectorArray(lists, item) + // the centres
    vectorArray(samples, item) + // the sample
    vectorArray(lists, item) + // the new centres of each k-means round
    FLOAT * lists * dimensions + // their sums
    INT * lists + // rows per centre
    INT * samples + // each sample's closest centre
    FLOAT * samples * lists + // the lower bounds
    FLOAT * samples + // the upper bounds
    FLOAT * lists + // half the distance to the closest other centre
    FLOAT * lists * lists + // half the distances between centres
    FLOAT * lists // how far each centre moved
  );
}

/** The same in whole kB, the unit of `maintenance_work_mem`, which the build compares in whole kB. */
export function ivfflatBuildKb(lists: number, dimensions: number): number {
  return Math.ceil(ivfflatBuildBytes(lists, dimensions) / 1024) + 1;
}

/**
 * The most lists, up to `wanted`, whose build fits in `availableKb`; 0 when not even one list fits
 * (the 10,000-row sample alone needs about 10 MB at 512 dimensions).
 */
export function listsThatFit(wanted: number, dimensions: number, availableKb: number): number {
  if (ivfflatBuildKb(wanted, dimensions) <= availableKb) return wanted;
  let fits = 0;
  let over = wanted;
  while (over - fits > 1) {
    const middle = Math.floor((fits + over) / 2);
    if (middle >= 1 && ivfflatBuildKb(middle, dimensions) <= availableKb) fits = middle;
    else over = middle;
  }
  return fits;
}
