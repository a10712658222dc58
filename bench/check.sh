#!/bin/bash
# check.sh - figures for the authenticity check (run as root from the build tree):
#   1. the quick check on a loop card throttled to 20 MB/s: seconds (target: < 60 s);
#   2. the full mode on the same card: its write rate against the card's sequential
#      write rate measured by dd with O_DIRECT (target: >= 90%);
#   3. repeated quick checks on the FUSE fakes of tests/fake-card (real capacity at
#      most 90% of the claim): misses counted (docs/ARCHITECTURE.md states the design
#      and why the miss probability is 0 under the bad-tail model).
# Usage: bench/check.sh [BUILDDIR] [RUNS]   (default _build, 20 runs per fake)
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

echo "== 3. $runs quick checks on each FUSE fake (claim 512 MiB)"
for spec in "wrap 256" "zeros 460" "eio 460" "genuine 512"; do
  set -- $spec
  kind=$1 real=$2 miss=0 worst=0 total=0
  for i in $(seq "$runs"); do
    d=$(mktemp -d /var/tmp/sdt-check-bench-XXXXXX)
    "$top/tests/fake-card/fake-card.sh" up "$d" "$kind" 512 "$real"
    "$ctl" --root / --json check --dir "$d/mnt" > "$tmp/r.json"
    "$top/tests/fake-card/fake-card.sh" verify "$d" > /dev/null
    "$top/tests/fake-card/fake-card.sh" down "$d"
    read -r verdict est secs < <(python3 -c "
import json; d=json.load(open('$tmp/r.json'))
print(d['verdict'], d['estimated_capacity_bytes'] or 0, d['seconds'])")
    want=fake; [ "$kind" = genuine ] && want=genuine
    [ "$verdict" = "$want" ] || miss=$((miss + 1))
    if [ "$kind" != genuine ]; then
      err=$(python3 -c "print(abs($est - $real*1048576) / ($real*1048576))")
      worst=$(python3 -c "print(max($worst, $err))")
    fi
    total=$(python3 -c "print($total + $secs)")
  done
  echo "$kind (real $real MiB): $miss misses in $runs runs; worst capacity error" \
       "$(python3 -c "print(f'{$worst*100:.1f}%')"); mean $(python3 -c "print(f'{$total/$runs:.2f}')") s"
done
