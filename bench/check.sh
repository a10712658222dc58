#!/bin/bash
# check.sh - figures for the authenticity check (run as root from the build tree):
#   1. the quick check on a loop card throttled to 20 MB/s: seconds (target: < 60 s);
#   2. the full mode on the same card: its write rate against the card's sequential
#      write rate measured by dd with O_DIRECT (target: >= 90%);
#   3. RUNS random stand-ins of bench/check-fakes.py (misses, damaged files, seconds;
#      docs/ARCHITECTURE.md states the design and the miss probability).
# Usage: bench/check.sh [BUILDDIR] [RUNS]   (default _build, 20 runs; 0: parts 1 and 2 only)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/_build}
runs=${2:-20}
ctl=$build/src/cli/sdtunerctl
export SDT_FAKE_CARD=$build/tests/sdt-fake-card
[ "$(id -u)" = 0 ] || { echo "check.sh: needs root" >&2; exit 2; }
[ -x "$ctl" ] || { echo "check.sh: build first ($ctl missing)" >&2; exit 2; }

field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d$2)" "$1"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== 1+2. quick and full check on a 1024 MB loop card throttled to 20 MB/s"
# shellcheck disable=SC2016
"$top/bench/card.sh" --size 1024 --bps 20000000 -- bash -c '
  set -e
  echo $$ > "$CARD_CGROUP/cgroup.procs"
  "$0" --root / --json check --dir "$CARD_MNT" > "$1/quick.json"
  dd if=/dev/zero of="$CARD_MNT/seq.bin" bs=4M count=64 oflag=direct conv=fsync 2> "$1/dd.txt"
  rm -f "$CARD_MNT/seq.bin"
  "$0" --root / --json check --full --dir "$CARD_MNT" > "$1/full.json"
' "$ctl" "$tmp"
q_secs=$(field "$tmp/quick.json" '["seconds"]')
echo "quick: verdict $(field "$tmp/quick.json" '["verdict"]'), ${q_secs} s" \
     "(target 60 s: $(python3 -c "print(f'{$q_secs/60:.3f}')") of it)," \
     "coverage $(field "$tmp/quick.json" '["coverage"]')"
dd_rate=$(python3 - "$tmp/dd.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r'(\d+) bytes.* copied, ([\d.]+) s', t)
print(f'{int(m.group(1)) / float(m.group(2)) / 1e6:.2f}')
PY
)
f_rate=$(field "$tmp/full.json" '["write_mb_s"]')
echo "full: verdict $(field "$tmp/full.json" '["verdict"]'), $(field "$tmp/full.json" '["seconds"]') s," \
     "write ${f_rate} MB/s, read $(field "$tmp/full.json" '["read_mb_s"]') MB/s;" \
     "dd sequential write ${dd_rate} MB/s; ratio $(python3 -c "print(f'{$f_rate/$dd_rate:.3f}')") (target >= 0.90)"

if [ "$runs" -gt 0 ]; then
  echo "== 3. $runs random fakes and genuine cards (bench/check-fakes.py)"
  "$top/bench/check-fakes.py" --build "$build" --runs "$runs"
fi
