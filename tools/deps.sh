#!/bin/sh
# deps.sh [build|run|test|vm] - install what SD Tuner needs with apt, if missing.
# Debian 12 / Raspberry Pi OS (bookworm or later). Needs root (or sudo).
#   vm: the real-kernel tier's host tools and, for the cross-built arm64 package
#   (tests/vm/systemd), arm64 as a foreign architecture with the arm64 libraries
#   (Multi-Arch: same, co-installed; apt may never remove a package for them).
set -eu
what=${1:-test}

build="meson ninja-build pkg-config gcc libc6-dev gettext libglib2.0-dev libglib2.0-bin
  libjson-glib-dev libudev-dev libblkid-dev liburing-dev libpolkit-gobject-1-dev libpolkit-agent-1-dev libgtk-3-dev
  desktop-file-utils umockdev libumockdev-dev scdoc libglib2.0-dev-bin pkgconf polkitd"
run="dbus-daemon dbus-system-bus-common polkitd xvfb xauth"
test="$run fio hdparm e2fsprogs util-linux mount xdotool imagemagick at-spi2-core
  python3 python3-gi python3-pyatspi python3-dbusmock clang-format librsvg2-bin time strace
  weston lxpolkit mate-polkit systemd-container
  build-essential dpkg-dev debhelper lintian appstream debootstrap mmdebstrap arch-test systemd man-db groff-base locales fonts-noto-cjk
  fuse3 libfuse3-dev wamerican prometheus prometheus-node-exporter
  qemu-system-arm qemu-user-static device-tree-compiler mtools dosfstools cpio fdisk kmod
  gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf libc6-dev-arm64-cross libc6-dev-armhf-cross"

vm="debootstrap mmdebstrap arch-test qemu-user-static qemu-system-arm dosfstools mtools e2fsprogs fdisk cpio kmod gzip
  gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross dpkg-dev debhelper
  $build libglib2.0-dev:arm64 libjson-glib-dev:arm64 libudev-dev:arm64 libblkid-dev:arm64 liburing-dev:arm64
  libpolkit-gobject-1-0:arm64 libpolkit-agent-1-0:arm64"

case "$what" in
build) pkgs="$build" ;;
vm) pkgs="$vm" ;;
run) pkgs="$build $run" ;;
test) pkgs="$build $test" ;;
*) echo "usage: $0 [build|run|test|vm]" >&2; exit 2 ;;
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
noremove=""
case "$missing" in
*:arm64*)
  # polkit's -dev packages, for one, are not co-installable: never trade the host's away
  noremove=--no-remove
  dpkg --print-foreign-architectures | grep -qx arm64 || $SUDO dpkg --add-architecture arm64
  ;;
esac
$SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
# shellcheck disable=SC2086
$SUDO apt-get -o DPkg::Lock::Timeout=900 install $noremove -y -qq $missing
