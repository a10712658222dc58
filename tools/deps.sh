#!/bin/sh
# deps.sh [build|run|test] - install what SD Tuner needs with apt, if missing.
# Debian 12 / Raspberry Pi OS (bookworm or later). Needs root (or sudo).
set -eu
what=${1:-test}

build="meson ninja-build pkg-config gcc libc6-dev gettext libglib2.0-dev libglib2.0-bin
  libjson-glib-dev libudev-dev liburing-dev libpolkit-gobject-1-dev libpolkit-agent-1-dev libgtk-3-dev
  desktop-file-utils umockdev libumockdev-dev scdoc libglib2.0-dev-bin pkgconf polkitd"
run="dbus-daemon dbus-system-bus-common polkitd xvfb xauth"
test="$run fio hdparm e2fsprogs util-linux mount xdotool imagemagick at-spi2-core
  python3 python3-gi python3-pyatspi python3-dbusmock clang-format librsvg2-bin time
  build-essential dpkg-dev debhelper lintian appstream systemd man-db groff-base locales fonts-noto-cjk
  fuse3 libfuse3-dev
  qemu-system-arm qemu-user-static device-tree-compiler mtools dosfstools cpio fdisk kmod
  gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf libc6-dev-arm64-cross libc6-dev-armhf-cross"

case "$what" in
build) pkgs="$build" ;;
run) pkgs="$build $run" ;;
test) pkgs="$build $test" ;;
*) echo "usage: $0 [build|run|test]" >&2; exit 2 ;;
esac

missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
    missing="$missing $p"
done
[ -z "$missing" ] && exit 0

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "deps.sh: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
# shellcheck disable=SC2086
$SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq $missing
