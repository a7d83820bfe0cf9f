import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { spoolText } from "../../src/lib/text-spool";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "wsi-spool-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function* piecesOf(...pieces: string[]) {
  yield* pieces;
}

async function readAll(text: AsyncIterable<string>): Promise<string> {
  let all = "";
  for await (const piece of text) all += piece;
  return all;
}

describe("spoolText", () => {
  it("gives back exactly the text written, multi-byte characters across read boundaries included, with its length in bytes", async () => {
    // 3-byte and 4-byte characters, far past one read of 64 KiB, so that reads end inside characters.
    const pieces = Array.from({ length: 40 }, (_, n) => `${n}:${"€😀é".repeat(1_000 + n)}\n`);
    const spooled = await spoolText(piecesOf(...pieces), dir);
    expect(spooled.bytes).toBe(Buffer.byteLength(pieces.join("")));
    expect(await readAll(spooled)).toBe(pieces.join(""));
  });

  it("leaves no file behind, not even while the text waits to be read", async () => {
    const spooled = await spoolText(piecesOf("{", '"a":1', "}"), dir);
    expect(readdirSync(dir)).toEqual([]);
    expect(await readAll(spooled)).toBe('{"a":1}');
  });

  it("passes on the failure of the pieces, and leaves nothing behind", async () => {
    async function* failing() {
      yield "partial";
      throw new Error("the database went away");
    }
    await expect(spoolText(failing(), dir)).rejects.toThrow("the database went away");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("gives back an empty text as nothing", async () => {
    const spooled = await spoolText(piecesOf(), dir);
    expect(spooled.bytes).toBe(0);
    expect(await readAll(spooled)).toBe("");
  });
});
