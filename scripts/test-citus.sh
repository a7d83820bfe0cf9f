#!/usr/bin/env bash
# The Citus pass: the database-backed tests (and tests/postgres/) against a Citus cluster, a
# coordinator and two workers (scripts/citus-cluster.sh, over ../shared/tools/citus), each test
# file on a database of its own distributed by `npm run migrate`'s runner. Uses
# TEST_CITUS_DATABASE_URL (a coordinator whose database has the workers registered) when it is set;
# otherwise starts a throwaway cluster and stops it afterwards, whatever the tests did. Extra
# arguments go to Jest.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ -n "${TEST_CITUS_DATABASE_URL:-}" ]; then
  export TEST_DATABASE_URL=$TEST_CITUS_DATABASE_URL
else
  dir=$(mktemp -d)
  trap 'scripts/citus-cluster.sh stop "$dir" >/dev/null 2>&1' EXIT
  line=$(scripts/citus-cluster.sh start "$dir" | tail -n 1)
  case "$line" in
    DATABASE_URL=*) export TEST_DATABASE_URL=${line#DATABASE_URL=} ;;
    *) echo "test:citus: the Citus cluster did not start" >&2; exit 1 ;;
  esac
fi

WSI_TEST_CITUS=1 NODE_OPTIONS=--experimental-vm-modules npx jest "$@"
