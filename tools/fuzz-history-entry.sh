#!/bin/sh
# fuzz-history-entry.sh [SECONDS] - run the libFuzzer target of the history reader
# (sdt_history_parse_entry, tests/fuzz/fuzz-history-entry.c) for a bounded time
# (default 300 s). Not part of CI.
# Seeds: tests/data/history, copied into the build folder (never into the
# repository); a small JSON dictionary guides the mutations.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-300}
builddir=${FUZZ_BUILDDIR:-$top/_build-fuzz}

if [ ! -f "$builddir/build.ninja" ]; then
  CC=clang meson setup "$builddir" "$top" -Dfuzzing=true -Dtests=false \
    -Dgui=disabled -Dhelper=disabled -Dbuildtype=debugoptimized
fi
ninja -C "$builddir" tests/fuzz/fuzz-history-entry

# the working corpus lives in the build folder (never in the repository), so a
# finding can be replayed and later runs start where the last one stopped
corpus="$builddir/fuzz-history-entry-corpus"
artifacts="$builddir/artifacts-history-entry"
mkdir -p "$corpus" "$artifacts"
cp "$top"/tests/data/history/*.json "$corpus/"
dict="$builddir/fuzz-history-entry.dict"
cat >"$dict" <<'EOF'
"{"
"}"
"["
"]"
"null"
"true"
"false"
"\"kind\""
"\"time\""
"\"id\""
"\"path\""
"\"backup\""
"\"trial\""
"\"changed\""
"\"profile\""
"\"target\""
"\"tests\""
"\"verdict\""
"\"apply\""
"\"bench\""
"\\u0000"
"\\ud800"
"\xe4"
EOF
log="$builddir/fuzz-history-entry.log"
rc=0
"$builddir/tests/fuzz/fuzz-history-entry" -max_total_time="$seconds" -max_len=4096 -dict="$dict" \
  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" "$corpus" >"$log" 2>&1 || rc=$?
grep -E '^INFO: Seed|^Done|^stat::' "$log" || true
found=$(find "$artifacts" -type f | wc -l)
if [ "$found" -gt 0 ] || [ "$rc" -ne 0 ]; then
  tail -n 40 "$log"
  echo "fuzz-history-entry: $found failing input(s) in $artifacts; full log $log" >&2
  exit 1
fi
echo "fuzz-history-entry: no failure in $seconds s"
