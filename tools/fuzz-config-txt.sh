#!/bin/sh
# fuzz-config-txt.sh [SECONDS] - run the libFuzzer target of the config.txt
# parser and editor for a bounded time (default 300 s). Not part of CI.
# Seeds: tests/data/config and, when present, the shared reference corpus
# (copied into a temporary folder outside the repository, removed at exit).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-300}
builddir=${FUZZ_BUILDDIR:-$top/_build-fuzz}
shared=${SDTUNER_SHARED_DIR:-$top/../shared}

if [ ! -f "$builddir/build.ninja" ]; then
  CC=clang meson setup "$builddir" "$top" -Dfuzzing=true -Dtests=false \
    -Dgui=disabled -Dhelper=disabled -Dbuildtype=debugoptimized
fi
ninja -C "$builddir" tests/fuzz/fuzz-config-txt

work=$(mktemp -d "/tmp/sdt-fuzz-$$-XXXXXX")
trap 'rm -rf "$work"' INT TERM HUP EXIT
mkdir -p "$work/corpus"
cp "$top"/tests/data/config/*.txt "$top"/tests/data/config/include/*.txt "$work/corpus/"
if [ -d "$shared/data/config-corpus" ]; then
  cp "$shared"/data/config-corpus/*.txt "$work/corpus/"
fi
rc=0
"$builddir/tests/fuzz/fuzz-config-txt" -max_total_time="$seconds" -max_len=8192 \
  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/" \
  "$work/corpus" >"$work/log" 2>&1 || rc=$?
tail -n 25 "$work/log"
if ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* >/dev/null 2>&1; then
  mkdir -p "$builddir/artifacts"
  cp "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$builddir/artifacts/" 2>/dev/null || true
  echo "fuzz-config-txt: inputs that failed are in $builddir/artifacts" >&2
  exit 1
fi
exit $rc
