#!/bin/sh
# test.sh - install what is needed, build, and run every test (unit, CLI,
# D-Bus + polkit integration, GTK under Xvfb). Run as root: the tests attach
# loop devices, start a private system bus and a real polkitd.
#   sudo tools/test.sh             all tests, then the 32-bit step
#   sudo tools/test.sh SUITE...    only these meson test suites
#   sudo tools/test.sh 32bit       only the 32-bit step (tools/test-32bit.sh:
#                                  i386 build + unit suite, armhf ARMv6 compile)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

if [ "$(id -u)" -ne 0 ]; then
  exec sudo -E "$0" "$@"
fi

"$top/tools/deps.sh" test

builddir=${BUILDDIR:-$top/_build}
if [ ! -f "$builddir/build.ninja" ]; then
  meson setup "$builddir" --werror -Dtests=true
fi
ninja -C "$builddir"

suites=""
run32=no
[ $# -eq 0 ] && run32=yes
for s in "$@"; do
  case "$s" in
  32bit) run32=yes ;;
  *) suites="$suites --suite $s" ;;
  esac
done
rc=0
if [ $# -eq 0 ] || [ -n "$suites" ]; then
  # shellcheck disable=SC2086
  meson test -C "$builddir" --print-errorlogs --num-processes 2 $suites || rc=$?
fi

# 32-bit Raspberry Pi OS: skipped with the reason when the foreign packages
# cannot be had; a compile error or a failing 32-bit test fails the run
line32=""
if [ "$run32" = yes ]; then
  log32=$(mktemp)
  status32=$(mktemp)
  { rc32=0; "$top/tools/test-32bit.sh" 2>&1 || rc32=$?; echo "$rc32" >"$status32"; } |
    tee "$log32"
  [ "$(cat "$status32")" -eq 0 ] || rc=1
  line32=$(grep '^32-bit: ' "$log32" | tail -n 1)
  rm -f "$log32" "$status32"
fi

# one plain summary line that any CI reader understands
if [ $# -eq 0 ] || [ -n "$suites" ]; then
  python3 - "$builddir/meson-logs/testlog.json" <<'PY' || true
import json, sys
passed = failed = skipped = 0
for line in open(sys.argv[1]):
    r = json.loads(line).get("result")
    if r in ("OK", "EXPECTEDFAIL"):
        passed += 1
    elif r == "SKIP":
        skipped += 1
    else:
        failed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
fi
[ -z "$line32" ] || echo "$line32"
exit $rc
