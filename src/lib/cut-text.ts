/** The first `limit` characters of `text`, one fewer when the last would split a surrogate pair. */
export function cutAt(text: string, limit: number): string {
  const last = text.charCodeAt(limit - 1);
  const endsInsidePair = last >= 0xd800 && last <= 0xdbff;
  return text.slice(0, endsInsidePair ? limit - 1 : limit);
}
