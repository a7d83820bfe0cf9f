/** `1 second`, `2 seconds`: a count with its unit in the number it takes in English. */
export function countText(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
