import { AsyncLocalStorage } from "node:async_hooks";

const scope = new AsyncLocalStorage<string>();

/**
 * Runs `next` (and everything it starts) on behalf of one workspace, so that the pool can refuse
 * its statements at once when the Citus node holding it is away (cluster-nodes.ts) instead of
 * letting them wait on that node with one of the connections every workspace shares.
 */
export function onBehalfOf<T>(workspaceId: string, next: () => T): T {
  return scope.run(workspaceId, next);
}

/** The workspace the current request works for, when an authenticated request named one. */
export function currentWorkspace(): string | undefined {
  return scope.getStore();
}
