#!/usr/bin/env bash
# A throwaway Citus cluster for the Citus test pass and the benches: `start DIR` / `stop DIR`, as
# ../shared/tools/citus (CITUS_TOOL for another copy of that tool), whose last line of `start` is
# DATABASE_URL=… of the coordinator.
#
# The tool builds Citus from its vendored source, in which two directory links
# (src/backend/{distributed,columnar}/safeclib -> vendor/safestringlib/safeclib) may arrive as
# plain files holding the link's target: the build then succeeds but leaves safestringlib out, and
# no server loads the library ("undefined symbol: strcpy_s"). This runs the tool from a copy with
# those links made again, and removes a library installed broken that way so that it is rebuilt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=${CITUS_TOOL:-$here/../../shared/tools/citus}
[ -x "$tool" ] || { echo "citus-cluster: $tool not found; set CITUS_TOOL" >&2; exit 1; }
shared=$(cd "$(dirname "$tool")/.." && pwd)

copy=${TMPDIR:-/tmp}/wsi-citus-tool-$(id -u)
# Made again when the tool or the vendored source changes.
stamp=$(cat "$tool" "$shared/vendor/citus/README.md" "$shared/vendor/citus/configure" 2>/dev/null | sha256sum | cut -c1-16)
if [ "$(cat "$copy/.complete" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$copy"; mkdir -p "$copy"
  cp -R "$shared/tools" "$shared/vendor" "$copy/"
  chmod -R u+w "$copy"
  # A plain file of a few bytes whose text is a relative path to a directory was a link.
  find "$copy/vendor" -type f -size -200c -print0 | while IFS= read -r -d '' file; do
    target=$(head -c 200 "$file")
    case "$target" in ../*) ;; *) continue ;; esac
    if [ -d "$(dirname "$file")/$target" ]; then rm -f "$file"; ln -s "${target%/}" "$file"; fi
  done
  echo "$stamp" >"$copy/.complete"
fi

if [ "${1:-}" = start ]; then
  for lib in /usr/lib/postgresql/*/lib/citus.so; do
    [ -f "$lib" ] || continue
    if nm -D --undefined-only "$lib" 2>/dev/null | grep -qw strcpy_s; then
      echo "citus-cluster: $lib was built without safestringlib; building it again" >&2
      rm -f "$lib"   # the tool rebuilds when the library is missing
    fi
  done
fi

exec "$copy/tools/citus" "$@"
