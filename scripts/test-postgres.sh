#!/usr/bin/env bash
# The PostgreSQL pass: the database-backed tests (and tests/postgres/) against a real PostgreSQL
# server with pgvector. Uses TEST_DATABASE_URL when it is set; otherwise starts a throwaway server
# with the shared tool (POSTGRES_TOOL, default ../shared/tools/postgres beside the repository)
# and stops it afterwards. Extra arguments go to Jest.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ -z "${TEST_DATABASE_URL:-}" ]; then
  tool=${POSTGRES_TOOL:-../shared/tools/postgres}
  [ -x "$tool" ] || { echo "test:postgres: $tool not found; set POSTGRES_TOOL or TEST_DATABASE_URL" >&2; exit 1; }
  dir=$(mktemp -d)
  trap '"$tool" stop "$dir"' EXIT
  line=$("$tool" start "$dir" | tail -n 1)
  case "$line" in
    DATABASE_URL=*) export TEST_DATABASE_URL=${line#DATABASE_URL=} ;;
    *) echo "test:postgres: the PostgreSQL server did not start" >&2; exit 1 ;;
  esac
fi

NODE_OPTIONS=--experimental-vm-modules npx jest "$@"
