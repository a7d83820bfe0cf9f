/** `count` distinct words of `width` letters from `alphabet`: the worst case for a tsvector. */
export function distinctWords(count: number, from = 0, alphabet = "abcdefghijklmnopqrstuvwxyz", width = 4): string {
  const words: string[] = [];
  for (let i = from; i < from + count; i++) {
    let rest = i;
    let word = "";
    for (let j = 0; j < width; j++) {
      word += alphabet[rest % alphabet.length];
      rest = Math.floor(rest / alphabet.length);
    }
    words.push(word);
  }
  return words.join(" ");
}
