#!/bin/sh
# make-root.sh ROOT - a minimal Debian 12 arm64 system booted by systemd:
# debootstrap --variant=minbase --foreign, then its second stage under
# qemu-user-static (binfmt_misc), everything from Debian's archive. Only the
# downloaded .debs are cached (SDT_VM_CACHE/debootstrap-arm64), never the root.
# The packages: systemd as init, the system bus, polkitd (with libpam-systemd, its
# logind: debootstrap does not resolve virtual packages), udev, and the
# libraries the project's package depends on (its own .deb is installed later
# with dpkg -i, so that a missing dependency fails here and says which).
set -eu
root=${1:?usage: make-root.sh ROOT}
cache=${SDT_VM_CACHE:-/var/cache/sd-tuner-vm}
mirror=${SDTUNER_DEBIAN_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$cache/debootstrap-arm64"
cache=$(cd "$cache" && pwd)

pkgs="systemd,systemd-sysv,dbus,polkitd,libpam-systemd,udev,dosfstools,libglib2.0-0,libjson-glib-1.0-0,libpolkit-gobject-1-0,libpolkit-agent-1-0,libudev1,liburing2"

# the second stage runs arm64 programs: qemu-aarch64-static through binfmt_misc
[ -e /proc/sys/fs/binfmt_misc/register ] ||
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  conf=/usr/lib/binfmt.d/qemu-aarch64.conf
  [ -f "$conf" ] || { echo "make-root.sh: $conf missing (package qemu-user-static)" >&2; exit 1; }
  cat "$conf" >/proc/sys/fs/binfmt_misc/register
fi

# a root left by a failed run may still have debootstrap's /proc and /sys mounted
if [ -d "$root" ]; then
  findmnt -rn -o TARGET | grep "^$(realpath "$root")/" | sort -r | while read -r m; do
    umount -l "$m"
  done
  rm -rf --one-file-system "$root"
fi
mkdir -p "$root"
t0=$(date +%s)
debootstrap --arch=arm64 --foreign --variant=minbase --include="$pkgs" \
  --cache-dir="$cache/debootstrap-arm64" bookworm "$root" "$mirror" >"$root.log" 2>&1 || {
  tail -n 20 "$root.log" >&2
  echo "make-root.sh: debootstrap (first stage) failed, see $root.log" >&2
  exit 1
}
t1=$(date +%s)
# dpkg under emulation: no fsync per file (the card image is written once, later)
mkdir -p "$root/etc/dpkg/dpkg.cfg.d"
echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/sdt-vm-unsafe-io"
chroot "$root" /debootstrap/debootstrap --second-stage >>"$root.log" 2>&1 || {
  tail -n 20 "$root.log" >&2
  echo "make-root.sh: debootstrap second stage (qemu-user) failed, see $root.log" >&2
  exit 1
}
rm -f "$root/etc/dpkg/dpkg.cfg.d/sdt-vm-unsafe-io"
t2=$(date +%s)
echo "make-root.sh: first stage $((t1 - t0)) s, second stage $((t2 - t1)) s, $(du -sh "$root" | cut -f1)" >&2
