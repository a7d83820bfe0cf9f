import { z } from "zod";
import { StorableTimestamp } from "../contracts/common";
import { invalid } from "../domain/errors";
import type { FeedbackPosition } from "../repositories/artifact.repository";

/** What a cursor pins: whose listing it belongs to, with which filters, and where the last page ended. */
export interface CursorScope {
  keyId: string;
  audience: "mine" | "workspace";
  status?: string;
}

const CursorSchema = z.object({
  v: z.literal(1),
  k: z.string(),
  a: z.enum(["mine", "workspace"]),
  s: z.string().nullable(),
  t: StorableTimestamp,
  // Ids are newId()'s `prefix_base62`; anything else cannot name a row (and a NUL cannot be sent to Postgres).
  i: z.string().regex(/^[A-Za-z0-9_]{1,64}$/),
});

export function encodeCursor(scope: CursorScope, position: FeedbackPosition): string {
  const payload = { v: 1, k: scope.keyId, a: scope.audience, s: scope.status ?? null, t: position.createdAt.getTime(), i: position.id };
  return Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
}

/**
 * The position a cursor points after. The position is keyset (createdAt, id), so pushes arriving
 * while a client pages land before its first page and never shift the pages still to come.
 */
export function decodeCursor(cursor: string, scope: CursorScope): FeedbackPosition {
  let payload: z.infer<typeof CursorSchema>;
  try {
    payload = CursorSchema.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
  } catch {
    throw invalid("query parameter cursor: is not a cursor issued by GET /api/v1/feedback");
  }
  if (payload.k !== scope.keyId || payload.a !== scope.audience || payload.s !== (scope.status ?? null)) {
    throw invalid(
      "query parameter cursor: was issued for another API key or other filters; repeat the same status and audience, or start without a cursor",
    );
  }
  return { createdAt: new Date(payload.t), id: payload.i };
}
