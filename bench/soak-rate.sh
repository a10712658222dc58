#!/bin/bash
# soak-rate.sh - the soak test's checking rate against the card's sequential write speed
# (issue 10: it must check at least 90% of the sequential write speed worth of data per
# second of its run). (The time of `status` and of a `verify` decision is
# bench/decision-time.py.) Run inside bench/card.sh, which provides the (throttled) card:
#
#   sudo bench/card.sh --size 1280 --bps 20000000 --iops 2000 -- \
#       bench/soak-rate.sh _build/src/cli/sdtunerctl [SOAK_MIB] [SOAK_SECONDS]
#
# Prints the sequential write MB/s of `bench --profile quick` (3 runs, median), the soak's
# checked MB per second of run and their ratio.
set -euo pipefail
CTL=$(readlink -f "$1") SOAK_MIB=${2:-256} SOAK_S=${3:-30}
: "${CARD_MNT:?run inside bench/card.sh}"
ROOT=$(mktemp -d) ; trap 'rm -rf "$ROOT"' EXIT
join() { [ -n "${CARD_CGROUP:-}" ] && echo $$ > "$CARD_CGROUP/cgroup.procs" || true; }
join
seq=()
for i in 1 2 3; do
  seq+=("$("$CTL" --root "$ROOT" --json bench --profile quick --dir "$CARD_MNT" 2>/dev/null |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print([t["mb_s"] for t in d["tests"] if t["name"]=="seq-write"][0])')")
done
SEQ=$(printf '%s\n' "${seq[@]}" | sort -g | sed -n 2p)
"$CTL" --root "$ROOT" --json bench --profile soak --size "$SOAK_MIB" --seconds "$SOAK_S" --dir "$CARD_MNT" \
  2>/dev/null > "$ROOT/soak.json"
python3 - "$SEQ" "$ROOT/soak.json" "${seq[@]}" <<'PY'
import json, sys
seq = float(sys.argv[1]); s = json.load(open(sys.argv[2]))['soak']
rate = s['bytes_checked'] / 1e6 / s['seconds']
print(f'seq-write (quick, median of {sys.argv[3:]}): {seq:.2f} MB/s')
print(f'soak: {s["bytes_checked"]} bytes checked in {s["seconds"]:.1f} s over {s["rounds"]} rounds, '
      f'write {s["write_mb_s"]:.2f} MB/s, read {s["read_mb_s"]:.2f} MB/s, mismatches {s["mismatches"]}')
print(f'checked per second of run: {rate:.2f} MB/s = {rate / seq:.3f} x seq-write (target >= 0.9)')
PY
