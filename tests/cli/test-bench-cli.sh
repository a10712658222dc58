#!/bin/bash
# test-bench-cli.sh SDTUNERCTL - `sdtunerctl bench` in --root mode: usage errors,
# NotSupported on tmpfs as JSON, Ctrl-C cancels promptly and kill -9 mid-run leaves
# no file behind.  TAP output.  Scratch dirs on /var/tmp (/tmp may be tmpfs).
set -u
CTL=${1:?usage: $0 SDTUNERCTL}
WORK=$(mktemp -d /var/tmp/sdt-bench-cli-$$.XXXXXX)
SHM=
CHILD=
cleanup() {
  if [ -n "$CHILD" ]; then kill -9 "$CHILD" 2>/dev/null; wait "$CHILD" 2>/dev/null; fi
  rm -rf "$WORK"
  if [ -n "$SHM" ]; then rm -rf "$SHM"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

ROOT=$WORK/root DIR=$WORK/dir
mkdir -m 700 "$ROOT" "$DIR"
HISTORY=$ROOT/var/lib/sd-tuner/history

# bad usage: exit 2
"$CTL" bench --dir "$DIR" > /dev/null 2> "$WORK/err"; rc=$?
check "--dir without --root is bad usage (exit 2)" '[ $rc = 2 ] && grep -q -- "--root" "$WORK/err"'
"$CTL" --root "$ROOT" bench --profile turbo --dir "$DIR" > /dev/null 2> "$WORK/err"; rc=$?
check "an unknown profile is bad usage (exit 2)" '[ $rc = 2 ] && grep -q turbo "$WORK/err"'

# tmpfs: NotSupported, as a JSON error with --json
if [ -d /dev/shm ]; then
  SHM=$(mktemp -d /dev/shm/sdt-bench-cli-$$.XXXXXX)
  "$CTL" --root "$ROOT" --json bench --profile quick --dir "$SHM" > "$WORK/out" 2> /dev/null; rc=$?
  check "tmpfs is refused with NotSupported (exit 1, JSON error)" \
    '[ $rc = 1 ] && python3 -c "import json,sys; e=json.load(open(sys.argv[1]))[\"error\"]; sys.exit(e[\"name\"] != \"org.example.SdTuner1.Error.NotSupported\")" "$WORK/out"'
  check "nothing left on tmpfs" '[ -z "$(ls -A "$SHM")" ]'
fi

# start a quick run and wait until its random phase has begun (progress lines on stderr)
start_run() {
  : > "$WORK/progress"
  "$CTL" --root "$ROOT" bench --profile quick --dir "$DIR" > "$WORK/out" 2> "$WORK/progress" &
  CHILD=$!
  for _ in $(seq 100); do
    grep -q '^Random 4K write, 32 queued' "$WORK/progress" && return 0
    sleep 0.05
  done
  return 1
}

# SIGINT (Ctrl-C): cancelled, exit 1, promptly, nothing left, nothing in the history
if start_run; then
  t0=$(date +%s%N)
  kill -INT "$CHILD"
  wait "$CHILD"; rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  CHILD=
  check "Ctrl-C cancels with exit 1" '[ $rc = 1 ] && grep -q "cancelled" "$WORK/progress"'
  check "Ctrl-C takes effect in under a second (${ms} ms)" '[ $ms -lt 1000 ]'
  check "Ctrl-C leaves no test file" '[ -z "$(ls -A "$DIR")" ]'
  check "a cancelled run is not in the history" '[ ! -d "$HISTORY" ] || [ -z "$(ls -A "$HISTORY")" ]'
else
  not_ok "the quick run reached its random phase"
fi

# kill -9: no handler runs, yet the O_TMPFILE test file has no name to leave behind
if start_run; then
  # the open test file: O_TMPFILE shows as "DIR/#INODE (deleted)"
  open_in_dir=$(find /proc/"$CHILD"/fd -lname "$DIR/*" 2>/dev/null | wc -l)
  check "the running benchmark has its test file open in --dir" '[ "$open_in_dir" -ge 1 ]'
  kill -9 "$CHILD"
  wait "$CHILD" 2>/dev/null
  CHILD=
  check "kill -9 mid-run leaves no test file" '[ -z "$(ls -A "$DIR")" ]'
else
  not_ok "the quick run reached its random phase"
fi

# a finished run on --dir: a stand-in, not the SD card, marked in the output and the history
"$CTL" --root "$ROOT" bench --profile quick --dir "$DIR" > "$WORK/out" 2> "$WORK/err"; rc=$?
check "a quick run on --dir finishes (exit 0)" '[ $rc = 0 ]'
check "its output says it is a stand-in, not the SD card" \
  'head -n 1 "$WORK/out" | grep -q "^STAND-IN, NOT THE SD CARD: test file in $DIR "'
check "and claims no A1/A2 pass for the card" \
  '! grep -q "^A1: " "$WORK/out" && grep -q "^No A1/A2 verdict on the SD card" "$WORK/out"'
"$CTL" --root "$ROOT" --json history > "$WORK/history.json" 2> "$WORK/err"
check "the history entry is marked stand_in (target and verdict)" \
  'python3 -c "import json,sys; e=json.load(open(sys.argv[1]))[\"entries\"][-1]; sys.exit(not (e[\"kind\"] == \"bench\" and e[\"target\"][\"stand_in\"] is True and e[\"verdict\"][\"stand_in\"] is True))" "$WORK/history.json"'
"$CTL" --root "$ROOT" history > "$WORK/history.txt" 2> "$WORK/err"
check "history lists it as a stand-in" 'grep -q "benchmark (quick) of a stand-in, not the SD card: $DIR" "$WORK/history.txt"'

echo "1..$n"
exit $failed
