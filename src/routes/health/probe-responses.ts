import { ErrorSchema } from "../../contracts/common";
import type { ResponseContract } from "../../http/route";

/** What every request can be answered before its route runs, probes included (src/http/percent-encoding.ts). */
export const MALFORMED_QUERY: ResponseContract = {
  description: "The query string has invalid percent-encoding (probes take no parameters; send none).",
  schema: ErrorSchema,
  example: { error: "Query string contains invalid percent-encoding", code: "bad_request" },
};
