/**
 * Polls until `condition` answers something other than false/undefined/null and returns it.
 * Tests wait for what they need rather than for a fixed time; the ceiling is generous because a
 * loaded 2-core machine runs everything several times slower, and only a broken build reaches it.
 */
export async function waitFor<T>(condition: () => T | Promise<T>, options: { what: string; ceilingMs?: number; everyMs?: number }): Promise<Exclude<T, false | null | undefined>> {
  const ceilingMs = options.ceilingMs ?? WAIT_CEILING_MS;
  const started = Date.now();
  for (;;) {
    const value = await condition();
    if (value !== false && value !== null && value !== undefined) return value as Exclude<T, false | null | undefined>;
    if (Date.now() - started > ceilingMs) throw new Error(`gave up after ${ceilingMs / 1000} s waiting for ${options.what}`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 25));
  }
}

export const WAIT_CEILING_MS = 60_000;
