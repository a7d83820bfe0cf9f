import { randomUUID } from "node:crypto";
import { open, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** Pieces of the spooled text are read back about this many bytes at a time. */
const PIECE_BYTES = 64 * 1024;

/** Text written out in full, to be read back once, at the reader's own pace. */
export interface SpooledText extends AsyncIterable<string> {
  /** Its length in UTF-8 bytes. */
  readonly bytes: number;
}

/**
 * Writes every piece to a temporary file and hands the text back for reading once: the writer
 * runs at its own pace and is done when this resolves, however slowly the reader then reads.
 * The file loses its name as soon as it is open, so nothing is left behind whatever happens
 * (its space is freed when it has been read, or abandoned).
 */
export async function spoolText(pieces: AsyncIterable<string>, dir = tmpdir()): Promise<SpooledText> {
  const file = path.join(dir, `spool-${randomUUID()}`);
  const handle = await open(file, "wx+");
  let bytes = 0;
  try {
    await unlink(file);
    for await (const piece of pieces) {
      const buffer = Buffer.from(piece, "utf8");
      for (let written = 0; written < buffer.length; ) {
        const { bytesWritten } = await handle.write(buffer, written, buffer.length - written, bytes + written);
        written += bytesWritten;
      }
      bytes += buffer.length;
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  return {
    bytes,
    async *[Symbol.asyncIterator]() {
      // Decoded as UTF-8 across piece boundaries; the handle closes with the stream, read to the end or not.
      yield* handle.createReadStream({ start: 0, encoding: "utf8", highWaterMark: PIECE_BYTES }) as AsyncIterable<string>;
    },
  };
}
