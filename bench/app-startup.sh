#!/bin/sh
# app-startup.sh [--sim] [RUNS] - time to the first frame of the sd-tuner window, and its memory.
#
# Starts the built app RUNS times (default 5) under Xvfb with a private session bus (the
# AT-SPI bridge loaded, as on a desktop) and reports, per run:
#   first frame   time from just before exec to the end of the first frame the window
#                 painted (the app prints the wall clock of its first after-paint when
#                 SDTUNER_REPORT_FIRST_FRAME is set)
#   RSS           VmHWM (peak resident set) from /proc/PID/status, 3 s after start,
#                 when the pages have been filled
# then the median and the worst run, against the targets 400 ms and 45 MiB.
# The system bus is whatever DBUS_SYSTEM_BUS_ADDRESS says; with --sim (as root) the script
# runs itself inside the GUI tests' environment: a private system bus, polkitd and the
# built helper on the simulated Raspberry Pi 3 (tests/gui/sdtgui.py sim_env), so the
# pages fill with real answers, as in tools/run.sh.
# Warm page cache: run it once before believing the first figure.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = "--sim" ]; then
  shift
  exec /usr/bin/python3 - "$0" "$@" <<'EOPY'
import os, subprocess, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), '..', 'tests', 'gui'))
from sdtgui import sim_env
with sim_env() as env:
    sys.exit(subprocess.run(['sh'] + sys.argv[1:], env=env.environ).returncode)
EOPY
fi
runs=${1:-5}
app=${APP:-$top/_build/src/app/sd-tuner}
[ -x "$app" ] || { echo "build first: meson setup _build && ninja -C _build" >&2; exit 2; }

if [ -z "${SDT_PRIVATE_SESSION:-}" ]; then
  SDT_PRIVATE_SESSION=1 exec dbus-run-session -- sh "$0" "$@"
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/sdt-startup.$$.XXXXXX")
xvfb=""
apppid=""
cleanup() {
  [ -n "$apppid" ] && kill "$apppid" 2>/dev/null && wait "$apppid" 2>/dev/null
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null && wait "$xvfb" 2>/dev/null
  rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$out/display" 2>"$out/xvfb.log" &
xvfb=$!
i=0
until [ -s "$out/display" ]; do
  i=$((i + 1)); [ $i -gt 100 ] && { echo "Xvfb did not start" >&2; exit 1; }
  sleep 0.1
done
export DISPLAY=":$(cat "$out/display")" GDK_BACKEND=x11

printf '%-4s %16s %12s\n' run 'first frame/ms' 'RSS/MiB'
n=0
while [ $n -lt "$runs" ]; do
  n=$((n + 1))
  : > "$out/app.log"
  t0=$(date +%s%6N)
  SDTUNER_REPORT_FIRST_FRAME=1 "$app" > "$out/app.log" 2>&1 &
  apppid=$!
  i=0
  until grep -q 'first-frame' "$out/app.log"; do
    i=$((i + 1)); [ $i -gt 200 ] && { echo "no frame within 10 s:" >&2; cat "$out/app.log" >&2; exit 1; }
    sleep 0.05
  done
  sleep 3
  t1=$(sed -n 's/.*first-frame realtime-us=\([0-9]*\).*/\1/p' "$out/app.log")
  hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$apppid/status")
  kill "$apppid"; wait "$apppid" 2>/dev/null || true
  apppid=""
  ms=$(( (t1 - t0) / 1000 ))
  mib=$(awk -v k="$hwm" 'BEGIN { printf "%.1f", k / 1024 }')
  printf '%-4s %16s %12s\n' "$n" "$ms" "$mib"
  echo "$ms $mib" >> "$out/results"
done

sort -n "$out/results" | awk -v runs="$runs" '
  { ms[NR] = $1; if ($2 > rss) rss = $2; if ($1 > worst) worst = $1 }
  END {
    med = ms[int((NR + 1) / 2)]
    printf "first frame: median %d ms, worst %d ms (target 400 ms): %s\n", med, worst,
      (worst <= 400 ? "OK" : "OVER")
    printf "peak RSS:    %.1f MiB worst (target 45 MiB): %s\n", rss, (rss <= 45 ? "OK" : "OVER")
  }'
