#!/bin/sh
# run.sh - install what is needed, build, and start SD Tuner.
#   sudo tools/run.sh          the window
#   sudo tools/run.sh --cli    `sdtunerctl info` in the terminal instead
# Not on a Pi, also (tools/sd-tuner-sim.py):
#   sudo tools/run.sh --loop   the closed loop in the terminal: benchmark, apply, reboot,
#                              verify, keep / step down / undo
#   sudo tools/run.sh [--loop] --erroring-card MHZ   with a card that errs above MHZ
# On a Raspberry Pi it installs the build (the helper, its D-Bus and polkit files, the menu
# entry) and starts the app against this machine. On any other machine it starts a private
# system bus with the built helper on the bundled SIMULATED Raspberry Pi 3 (data/sim/rpi3,
# its SD card under umockdev, a loop device throttled to the speed of its SD bus) and the
# app against that bus, and says so; Enter in the terminal restarts the simulated board and
# verifies the change; everything it started is stopped again when the window closes.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "run.sh: run it as root (there is no sudo here)" >&2; exit 1; }
  exec sudo -E "$0" "$@"
fi

"$top/tools/deps.sh" run

builddir=${BUILDDIR:-$top/_build}
if [ ! -f "$builddir/build.ninja" ]; then
  meson setup "$builddir" --werror
fi
ninja -C "$builddir"
ctl="$builddir/src/cli/sdtunerctl"

is_pi=false
grep -qa 'Raspberry Pi' /proc/device-tree/model 2>/dev/null && is_pi=true

if [ "${1:-}" = "--cli" ]; then
  shift
  if $is_pi; then
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
  exit $?
fi

if $is_pi && [ $# -gt 0 ]; then
  echo "run.sh: $* is for the simulated board; this is a Raspberry Pi: use sdtunerctl" >&2
  exit 2
fi

if $is_pi; then
  # the helper must be where the system bus and polkitd look: install with prefix /usr
  instdir=${INSTALL_BUILDDIR:-$top/_build-install}
  if [ ! -f "$instdir/build.ninja" ]; then
    meson setup "$instdir" --prefix=/usr --sysconfdir=/etc --localstatedir=/var -Dtests=false
  fi
  ninja -C "$instdir"
  meson install -C "$instdir" --no-rebuild
  user=${SUDO_USER:-root}
  echo "Installed SD Tuner; starting it as $user (it is also in the menu under Accessories)."
  if [ "$user" = root ]; then
    exec /usr/bin/sd-tuner
  fi
  home=$(getent passwd "$user" | cut -d: -f6)
  # sudo keeps DISPLAY and XAUTHORITY; the session bus is found under XDG_RUNTIME_DIR
  exec setpriv --reuid="$user" --regid="$(id -g "$user")" --init-groups \
    env HOME="$home" USER="$user" LOGNAME="$user" \
    XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/run/user/$(id -u "$user")}" /usr/bin/sd-tuner
fi

exec /usr/bin/python3 "$top/tools/sd-tuner-sim.py" --builddir "$builddir" "$@"
