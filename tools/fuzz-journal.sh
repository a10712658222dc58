#!/bin/sh
# fuzz-journal.sh [SECONDS] - run the libFuzzer target of the journal readers
# and the revert that trusts them for a bounded time (default 300 s). Not part
# of CI. Seeds: a valid journal, a trial journal and a few damaged ones,
# written into the build folder (never into the repository).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-300}
builddir=${FUZZ_BUILDDIR:-$top/_build-fuzz}

if [ ! -f "$builddir/build.ninja" ]; then
  CC=clang meson setup "$builddir" "$top" -Dfuzzing=true -Dtests=false \
    -Dgui=disabled -Dhelper=disabled -Dbuildtype=debugoptimized
fi
ninja -C "$builddir" tests/fuzz/fuzz-journal

corpus="$builddir/fuzz-journal-corpus"
mkdir -p "$corpus" "$builddir/artifacts-journal"
before='dtparam=audio=on
[pi4]
arm_boost=1
[all]
'
block='# --- SD Tuner begin: sd-overclock-100 (undo: sdtunerctl revert) ---
[all]
[board-type=0x08]
dtoverlay=
dtparam=sd_overclock=100
[all]
# --- SD Tuner end ---
'
h_before=$(printf '%s' "$before" | sha256sum | cut -d' ' -f1)
h_after=$(printf '%s%s' "$before" "$block" | sha256sum | cut -d' ' -f1)
cat >"$corpus/seed-valid.json" <<JSON
{"version": 2, "id": "sd-overclock-100", "path": "/boot/firmware/config.txt",
 "filter": "[board-type=0x08]", "type_code": 8,
 "block": ["[all]", "[board-type=0x08]", "dtoverlay=", "dtparam=sd_overclock=100", "[all]"],
 "disabled": [], "backup": "@STATE@/backups/config.txt.seed",
 "sha256_before": "$h_before", "sha256_after": "$h_after",
 "time": "2026-01-01T00:00:00Z", "boot_id": "3f1c9b2e-6a4d-4e8f-9b1a-0c2d3e4f5a6b"}
JSON
sed 's/"block": \[[^]]*\]/"block": ["[all]"]/' "$corpus/seed-valid.json" >"$corpus/seed-cut.json"
sed 's/"type_code": 8/"type_code": "8"/' "$corpus/seed-valid.json" >"$corpus/seed-type.json"
cat >"$corpus/seed-trial.json" <<JSON
{"version": 1, "id": "sd-overclock-100", "path": "/boot/firmware/tryboot.txt",
 "config_sha256": "$h_before", "tryboot_sha256": "$h_after", "previous_backup": null,
 "time": "2026-01-01T00:00:00Z", "boot_id": null}
JSON
log="$builddir/fuzz-journal.log"
rc=0
G_DEBUG=fatal-criticals "$builddir/tests/fuzz/fuzz-journal" -max_total_time="$seconds" \
  -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$builddir/artifacts-journal/" "$corpus" >"$log" 2>&1 || rc=$?
grep -E '^INFO: Seed|^Done|^stat::' "$log" || true
found=$(find "$builddir/artifacts-journal" -type f | wc -l)
if [ "$found" -gt 0 ] || [ "$rc" -ne 0 ]; then
  tail -n 40 "$log"
  echo "fuzz-journal: $found failing input(s) in $builddir/artifacts-journal; full log $log" >&2
  exit 1
fi
echo "fuzz-journal: no failure in $seconds s"
