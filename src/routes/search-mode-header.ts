import type { ResponseContract } from "../http/route";
import { SEARCH_MODES, type SearchMode } from "../search/search-mode";

/**
 * How a search ranked, on every answer of a search that embeds its query. A header, not a field:
 * the contract fixes these bodies, and a header is what a partner's logs and proxies show anyway.
 */
export const SEARCH_MODE_HEADER = "X-Search-Mode";

export const searchModeHeaderContract: NonNullable<ResponseContract["headers"]> = {
  [SEARCH_MODE_HEADER]: {
    description:
      "`hybrid`: ranked by meaning and words. `lexical`: by words alone, because the query's meaning was not computed within the server's budget for it (1.5 s by default); the same request later may rank better.",
    schema: { type: "string", enum: [...SEARCH_MODES] },
  },
};

export const searchModeHeaders = (result: { searchMode: SearchMode }) => ({ [SEARCH_MODE_HEADER]: result.searchMode });
