// The WebAssembly globals src/lib/int8-rows.ts uses, as Node 20 and later provide them:
// TypeScript declares them only in its DOM and worker libraries, and @types/node 22 not at all.
declare namespace WebAssembly {
  class Module {
    constructor(bytes: ArrayBufferView | ArrayBuffer);
  }
  class Memory {
    /** `initial` and `maximum` in pages of 64 KiB. */
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
}
