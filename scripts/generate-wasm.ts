import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import wabtModule from "wabt";

/**
 * Compiles src/lib/int8-rows.wat (the WebAssembly text of the kernel) into
 * src/lib/int8-rows-kernel.ts, its bytes as base64, with wabt (the WebAssembly project's own
 * toolkit). tests/lib/int8-rows.test.ts fails when the committed bytes are not the source's.
 */
const SOURCE = path.join(__dirname, "..", "src", "lib", "int8-rows.wat");
const TARGET = path.join(__dirname, "..", "src", "lib", "int8-rows-kernel.ts");

/** The module compiled from int8-rows.wat, as the text of int8-rows-kernel.ts. */
export async function int8RowsKernelSource(): Promise<string> {
  const wabt = await wabtModule();
  const module = wabt.parseWat("int8-rows.wat", readFileSync(SOURCE, "utf8"), { simd: true });
  try {
    module.validate();
    const { buffer } = module.toBinary({});
    return [
      "// Generated from int8-rows.wat by `npm run wasm:generate`. Do not edit.",
      "export const INT8_ROWS_KERNEL =",
      `  "${Buffer.from(buffer).toString("base64")}";`,
      "",
    ].join("\n");
  } finally {
    module.destroy();
  }
}

if (require.main === module) {
  int8RowsKernelSource().then(
    (source) => {
      writeFileSync(TARGET, source);
      console.log(`wrote ${path.relative(process.cwd(), TARGET)}`);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
