#!/usr/bin/env bash
# Lints the served OpenAPI document (built in-process from the routes, no server) with Redocly's
# recommended rules (warnings count: recommended-strict) and Spectral's spectral:oas rules
# (--fail-severity=warn). Both run offline; Redocly's telemetry and update check are off.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
tsx scripts/write-openapi.ts "$dir/openapi.json"
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true redocly lint --extends recommended-strict "$dir/openapi.json"
spectral lint --ruleset .spectral.yaml --fail-severity=warn "$dir/openapi.json"
