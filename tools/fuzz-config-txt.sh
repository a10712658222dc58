#!/bin/sh
# fuzz-config-txt.sh [SECONDS] - run the libFuzzer target of the config.txt
# parser and editor for a bounded time (default 300 s). Not part of CI.
# Seeds: tests/data/config and, when present, the shared reference corpus,
# copied into the build folder (never into the repository).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-300}
builddir=${FUZZ_BUILDDIR:-$top/_build-fuzz}
shared=${SDTUNER_SHARED_DIR:-$(dirname "$top")/shared}

if [ ! -f "$builddir/build.ninja" ]; then
  CC=clang meson setup "$builddir" "$top" -Dfuzzing=true -Dtests=false \
    -Dgui=disabled -Dhelper=disabled -Dbuildtype=debugoptimized
fi
ninja -C "$builddir" tests/fuzz/fuzz-config-txt

# the working corpus lives in the build folder (never in the repository), so a
# finding can be replayed and later runs start where the last one stopped
corpus="$builddir/fuzz-corpus"
mkdir -p "$corpus" "$builddir/artifacts"
cp "$top"/tests/data/config/*.txt "$top"/tests/data/config/include/*.txt "$corpus/"
if [ -d "$shared/data/config-corpus" ]; then
  cp "$shared"/data/config-corpus/*.txt "$corpus/"
fi
log="$builddir/fuzz.log"
rc=0
"$builddir/tests/fuzz/fuzz-config-txt" -max_total_time="$seconds" -max_len=8192 \
  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$builddir/artifacts/" "$corpus" >"$log" 2>&1 || rc=$?
grep -E '^INFO: Seed|^Done|^stat::' "$log" || true
found=$(find "$builddir/artifacts" -type f | wc -l)
if [ "$found" -gt 0 ] || [ "$rc" -ne 0 ]; then
  tail -n 40 "$log"
  echo "fuzz-config-txt: $found failing input(s) in $builddir/artifacts; full log $log" >&2
  exit 1
fi
echo "fuzz-config-txt: no failure in $seconds s"
