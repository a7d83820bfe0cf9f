/** A member of a streamed JSON object: a value written at once, or an array written item by item. */
export type JsonMember = { key: string; value: unknown } | { key: string; items: AsyncIterable<unknown> };

/** Pieces of text are gathered up to about this many characters before they are handed on. */
const PIECE_CHARS = 64 * 1024;

/**
 * The JSON text of an object whose arrays are read while it is written: only the item being
 * written (and at most PIECE_CHARS of text) is held at once, whatever the arrays' lengths.
 */
export async function* jsonObjectText(members: JsonMember[]): AsyncGenerator<string> {
  let pending = "{";
  for (const [index, member] of members.entries()) {
    pending += `${index === 0 ? "" : ","}${JSON.stringify(member.key)}:`;
    if ("value" in member) {
      pending += JSON.stringify(member.value ?? null);
    } else {
      pending += "[";
      let first = true;
      for await (const item of member.items) {
        pending += (first ? "" : ",") + JSON.stringify(item);
        first = false;
        if (pending.length >= PIECE_CHARS) {
          yield pending;
          pending = "";
        }
      }
      pending += "]";
    }
  }
  yield `${pending}}`;
}

/** Each item of `items`, mapped. */
export async function* mapItems<T, U>(items: AsyncIterable<T>, map: (item: T) => U): AsyncGenerator<U> {
  for await (const item of items) yield map(item);
}
