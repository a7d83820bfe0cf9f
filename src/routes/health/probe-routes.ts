import type { Route } from "../../http/route";
import { getHealthRoute } from "./get-health";
import { getLivenessRoute } from "./get-liveness";
import { getReadinessRoute } from "./get-readiness";

/** What platforms probe: liveness, readiness, and /healthz as existing probes know it. Public and never rate limited. */
export const PROBE_ROUTES: readonly Route[] = [getLivenessRoute, getReadinessRoute, getHealthRoute];
