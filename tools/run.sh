#!/bin/sh
# run.sh - install what is needed, build, and run SD Tuner.
#   sudo tools/run.sh [--json]
# On a Raspberry Pi it shows this machine (`sdtunerctl info`). On any other machine it shows
# the bundled simulated Raspberry Pi 3 (data/sim/rpi3, its SD card under umockdev) and says so.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

if [ "$(id -u)" -ne 0 ]; then
  exec sudo -E "$0" "$@"
fi

"$top/tools/deps.sh" run

builddir=${BUILDDIR:-$top/_build}
if [ ! -f "$builddir/build.ninja" ]; then
  meson setup "$builddir" --werror
fi
ninja -C "$builddir"
ctl="$builddir/src/cli/sdtunerctl"

if grep -qa 'Raspberry Pi' /proc/device-tree/model 2>/dev/null; then
  exec "$ctl" "$@" info
fi

# not a Pi: a scratch copy of the simulated board, removed on every exit
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sd-tuner-sim.$$.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM HUP
cp -a "$top/data/sim/rpi3/." "$scratch/"
echo "This machine is not a Raspberry Pi: showing a SIMULATED Raspberry Pi 3 (copy in $scratch)."
echo
umockdev-run -d "$top/data/sim/rpi3.umockdev" -- "$ctl" --root "$scratch" "$@" info
