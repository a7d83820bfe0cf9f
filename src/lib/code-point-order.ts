/**
 * Orders by Unicode code points: the byte order of UTF-8, which the embedded engine's C collation
 * gives. A managed server's collation (often en_US: case-insensitive first, punctuation ignored)
 * would list the same names and paths in another order, so lists of them are sorted here.
 */
export function byCodePoints<T>(key: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => compareCodePoints(key(a), key(b));
}

export function compareCodePoints(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = left[i]!.codePointAt(0)! - right[i]!.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}
