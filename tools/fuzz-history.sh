#!/bin/sh
# fuzz-history.sh [SECONDS] - run the libFuzzer target of the history reader and
# of SD Tuner's JSON writer (sdt_json_to_string) for a bounded time (default 300 s).
# Not part of CI. Seeds: the history entries and JSON documents in tests/data.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-300}
builddir=${FUZZ_BUILDDIR:-$top/_build-fuzz}

if [ ! -f "$builddir/build.ninja" ]; then
  CC=clang meson setup "$builddir" "$top" -Dfuzzing=true -Dtests=false \
    -Dgui=disabled -Dhelper=disabled -Dbuildtype=debugoptimized
fi
ninja -C "$builddir" tests/fuzz/fuzz-history

corpus="$builddir/fuzz-history-corpus"
mkdir -p "$corpus" "$builddir/artifacts-history"
find "$top/tests/data" -name '*.json' -size -64k -exec cp {} "$corpus/" \;
printf '%s' '{"kind": "bench", "target": {"path": "/var/lib/sd-tuner", "stand_in": false}, "tests": [{"name": "seq-read", "mb_s": 22.5, "iops": 5.4, "seconds": 0.3}], "verdict": {"a1": true, "a2": false, "seconds": 7.9}, "ceiling_mb_s": 25.0}' \
  > "$corpus/seed-bench.json"
log="$builddir/fuzz-history.log"
rc=0
"$builddir/tests/fuzz/fuzz-history" -max_total_time="$seconds" -max_len=4096 \
  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -dict="$top/tests/fuzz/json.dict" \
  -artifact_prefix="$builddir/artifacts-history/" "$corpus" >"$log" 2>&1 || rc=$?
grep -E '^INFO: Seed|^Done|^stat::' "$log" || true
found=$(find "$builddir/artifacts-history" -type f | wc -l)
if [ "$found" -gt 0 ] || [ "$rc" -ne 0 ]; then
  tail -n 40 "$log"
  echo "fuzz-history: $found failing input(s) in $builddir/artifacts-history; full log $log" >&2
  exit 1
fi
echo "fuzz-history: no failure in $seconds s"
