/**
 * The message for an agent run that failed. fetch reports an unreachable service as a bare
 * "fetch failed" with the reason hidden in `cause`, which tells a newcomer neither where the agent
 * looked nor how to point it elsewhere. Duck-typed: fetch's errors come from another realm than
 * the caller's TypeError under some runners.
 */
export function describeFailure(error: unknown, baseUrl: string): string {
  const failure = error as { name?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } } | null;
  if (typeof failure?.message !== "string") return String(error);
  if (failure.name !== "TypeError" || failure.message !== "fetch failed") return failure.message;
  const cause = failure.cause;
  const reason = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : "no answer";
  return `Could not reach the service at ${baseUrl} (${reason}). Start it with npm run dev, or set BASE_URL to where it runs.`;
}
