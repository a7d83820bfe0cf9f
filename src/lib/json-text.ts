/**
 * A JSON value held as the text it was stored as (a `json` column keeps the text it was sent),
 * parsed only when a reader needs the value: an answer that passes it on as it is splices the text
 * (src/http/json-answer.ts) instead of parsing it and writing it again.
 */
export class JsonText {
  #value: unknown;
  #parsed = false;

  constructor(readonly text: string) {}

  value(): unknown {
    if (!this.#parsed) {
      this.#value = JSON.parse(this.text);
      this.#parsed = true;
    }
    return this.#value;
  }

  /** Anything that writes JSON without knowing this class (JSON.stringify, the MCP transport) writes the value. */
  toJSON(): unknown {
    return this.value();
  }
}
