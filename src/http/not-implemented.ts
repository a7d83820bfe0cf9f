import { ApiError } from "./api-error";

/** Answer of an endpoint that is routed, authenticated and documented but not built yet. */
export function notImplemented(operation: string): never {
  throw new ApiError("not_implemented", `${operation} is not implemented yet on this server`);
}
