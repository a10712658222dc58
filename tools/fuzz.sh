#!/bin/sh
# fuzz.sh TARGET [SECONDS] - build one libFuzzer target (meson -Dfuzzing=true,
# clang) and run it for a bounded time (default 300 s). Not part of CI.
#   config-txt  the config.txt parser and editor (tests/fuzz/fuzz-config-txt.c)
#   history     the history reader and the JSON writer (tests/fuzz/fuzz-history.c)
#   journal     the journal readers and the revert that trusts them
#               (tests/fuzz/fuzz-journal.c)
# The working corpus, the failing inputs and the log live in the build folder
# ($FUZZ_BUILDDIR, default _build-fuzz), never in the repository, so a finding
# can be replayed and later runs start where the last one stopped.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

usage() {
  echo "usage: $0 config-txt|history|journal [SECONDS]" >&2
  exit 2
}

# Seeds: tests/data/config and, when present, the shared reference corpus
seeds_config_txt() {
  shared=${SDTUNER_SHARED_DIR:-$(dirname "$top")/shared}
  cp "$top"/tests/data/config/*.txt "$top"/tests/data/config/include/*.txt "$1/"
  if [ -d "$shared/data/config-corpus" ]; then
    cp "$shared"/data/config-corpus/*.txt "$1/"
  fi
}

# Seeds: the history entries and JSON documents in tests/data, and a bench entry
seeds_history() {
  find "$top/tests/data" -name '*.json' -size -64k -exec cp {} "$1/" \;
  printf '%s' '{"kind": "bench", "target": {"path": "/var/lib/sd-tuner", "stand_in": false}, "tests": [{"name": "seq-read", "mb_s": 22.5, "iops": 5.4, "seconds": 0.3}], "verdict": {"a1": true, "a2": false, "seconds": 7.9}, "ceiling_mb_s": 25.0}' \
    >"$1/seed-bench.json"
}

# Seeds: a valid journal, a trial journal and a few damaged ones; "@STATE@" is
# replaced by the target's state folder, where it keeps this backup
seeds_journal() {
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
  cat >"$1/seed-valid.json" <<JSON
{"version": 2, "id": "sd-overclock-100", "path": "/boot/firmware/config.txt",
 "filter": "[board-type=0x08]", "type_code": 8,
 "block": ["[all]", "[board-type=0x08]", "dtoverlay=", "dtparam=sd_overclock=100", "[all]"],
 "disabled": [], "backup": "@STATE@/backups/config.txt.seed",
 "sha256_before": "$h_before", "sha256_after": "$h_after",
 "time": "2026-01-01T00:00:00Z", "boot_id": "3f1c9b2e-6a4d-4e8f-9b1a-0c2d3e4f5a6b"}
JSON
  sed 's/"block": \[[^]]*\]/"block": ["[all]"]/' "$1/seed-valid.json" >"$1/seed-cut.json"
  sed 's/"type_code": 8/"type_code": "8"/' "$1/seed-valid.json" >"$1/seed-type.json"
  cat >"$1/seed-trial.json" <<JSON
{"version": 1, "id": "sd-overclock-100", "path": "/boot/firmware/tryboot.txt",
 "config_sha256": "$h_before", "tryboot_sha256": "$h_after", "previous_backup": null,
 "time": "2026-01-01T00:00:00Z", "boot_id": null}
JSON
}

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  usage
fi
target=$1
seconds=${2:-300}
max_len=4096
case "$target" in
config-txt) max_len=8192 ;;
history) ;;
# a wrong member type must be an error, never a Json-CRITICAL
journal) export G_DEBUG=fatal-criticals ;;
*) usage ;;
esac
case "$seconds" in
'' | *[!0-9]*) usage ;;
esac

name=fuzz-$target
builddir=${FUZZ_BUILDDIR:-$top/_build-fuzz}
if [ ! -f "$builddir/build.ninja" ]; then
  CC=clang meson setup "$builddir" "$top" -Dfuzzing=true -Dtests=false \
    -Dgui=disabled -Dhelper=disabled -Dbuildtype=debugoptimized
fi
ninja -C "$builddir" "tests/fuzz/$name"

corpus="$builddir/$name-corpus"
artifacts="$builddir/artifacts-$target"
log="$builddir/$name.log"
mkdir -p "$corpus" "$artifacts"
"seeds_$(echo "$target" | tr - _)" "$corpus"
set -- -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$artifacts/"
if [ -f "$top/tests/fuzz/$name.dict" ]; then
  set -- "$@" -dict="$top/tests/fuzz/$name.dict"
fi
# the target's own scratch folders (the journal target's state and config.txt: libFuzzer
# has no teardown to remove them) go to a TMPDIR of this run, removed after it
scratch=$(mktemp -d "${TMPDIR:-/tmp}/$name-run.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
rc=0
TMPDIR=$scratch "$builddir/tests/fuzz/$name" "$@" "$corpus" >"$log" 2>&1 || rc=$?
grep -E '^INFO: Seed|^Done|^stat::' "$log" || true
found=$(find "$artifacts" -type f | wc -l)
if [ "$found" -gt 0 ] || [ "$rc" -ne 0 ]; then
  tail -n 40 "$log"
  echo "$name: $found failing input(s) in $artifacts; full log $log" >&2
  exit 1
fi
echo "$name: no failure in $seconds s"
