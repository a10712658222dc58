#!/bin/bash
# make-root.sh SUITE [PACKAGE...] - a minimal Debian SUITE (bookworm, trixie) arm64 system to
# be booted by systemd, made once and cached; prints the path of its tarball (plain tar,
# numeric owners: `tar -C DIR --numeric-owner -xf TARBALL`).
#
# mmdebstrap --variant=minbase --arch=arm64 with systemd as init, the system bus, polkitd
# (with libpam-systemd, its logind), udev, dosfstools and PACKAGE... (the run passes the
# project package's Depends, so that its own `dpkg -i` later finds them all). apt resolves
# and downloads natively on this machine; only dpkg and the maintainer scripts run as arm64
# programs, under qemu-user-static through binfmt_misc. (debootstrap's second stage ran its
# whole shell logic emulated as well: 141 s on a quiet machine, 779 s on a loaded one.)
#
# The cache, SDT_VM_CACHE (default /var/cache/sd-tuner-vm)/roots/SUITE-arm64 (the layout of
# tests/roots/make-root.sh, so that the downloads are shared):
#   archives/              the .debs apt downloaded, kept across builds
#   systemd-KEY.tar        the root, KEY from suite, sources and the sorted package list
# A tarball is kept until the package list or the sources change or it is older than
# SDT_ROOT_MAX_AGE days (default 14: the suite moves on). A lock (flock) lets the tiers that
# run side by side share one build. Needs root, mmdebstrap and qemu-user-static. Exits 1 with
# the reason on stderr when it cannot make the root.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/vm/vmlib.sh
. "$here/../vmlib.sh"
suite=${1:?usage: make-root.sh SUITE [PACKAGE...]}
shift
log() { echo "make-root ($suite arm64): $*" >&2; }
fail() { log "FAILED: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "needs root (mmdebstrap --mode=root, binfmt_misc)"
command -v mmdebstrap >/dev/null || fail "mmdebstrap is missing (tools/deps.sh vm)"

cache=$VM_CACHE/roots/$suite-arm64
mkdir -p "$cache/archives"
cache=$(cd "$cache" && pwd)
max_age=${SDT_ROOT_MAX_AGE:-14}
sources=$(vm_sources "$suite") || fail "no Debian sources to take the mirror from"
pkgs=$(printf '%s\n' systemd systemd-sysv dbus polkitd libpam-systemd udev dosfstools "$@" |
  sed '/^$/d' | sort -u | tr '\n' ',')
pkgs=${pkgs%,}
key=$(printf '%s\n' "$suite" arm64 "$sources" "$pkgs" | sha256sum | cut -c1-12)
tarball=$cache/systemd-$key.tar

exec 9>"$cache/lock"
flock 9 # the other tier may be making a root of this suite now: wait for it
if [ -f "$tarball" ] && [ -z "$(find "$tarball" -mmin +$((max_age * 1440)))" ]; then
  log "cached: $tarball"
  echo "$tarball"
  exit 0
fi

# arm64 programs (dpkg, the maintainer scripts) run through binfmt_misc
[ -e /proc/sys/fs/binfmt_misc/register ] ||
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  conf=/usr/lib/binfmt.d/qemu-aarch64.conf
  [ -f "$conf" ] || fail "$conf is missing (package qemu-user-static)"
  cat "$conf" >/proc/sys/fs/binfmt_misc/register
fi

t0=$(date +%s)
log "mmdebstrap --variant=minbase with $(echo "$pkgs" | tr ',' ' ' | wc -w) packages and what they need"
mapfile -t src_lines <<<"$sources"
rm -f "$tarball.new" # a run killed midway
# the downloads: into the root's apt cache before apt runs, back out after it (mmdebstrap's
# own recipe); dpkg without fsync (the card is written once, later)
# in a PID namespace with its own /proc: the maintainer scripts see only their own processes
# (tests/roots/chroot-pidns.sh says why: polkitd's postinst stopped the host's polkitds)
TMPDIR=/var/tmp unshare --pid --fork --mount-proc sh -c \
  'mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null; exec "$@"' sh \
  "$here/../../roots/drop-card-mounts.sh" --in-new-namespace \
  mmdebstrap --mode=root --format=tar --variant=minbase --arch=arm64 --include="$pkgs" \
  --dpkgopt=force-unsafe-io --aptopt='Acquire::Retries "3"' --skip=essential/unlink \
  --setup-hook='mkdir -p "$1/var/cache/apt/archives"' \
  --setup-hook="sync-in $cache/archives /var/cache/apt/archives" \
  --customize-hook="sync-out /var/cache/apt/archives $cache/archives" \
  "$suite" "$tarball.new" "${src_lines[@]}" >"$cache/mmdebstrap.log" 2>&1 || {
  tail -n 20 "$cache/mmdebstrap.log" >&2
  rm -f "$tarball.new"
  fail "mmdebstrap failed, see $cache/mmdebstrap.log"
}
mv "$tarball.new" "$tarball"
# roots and downloads past their age go (other package lists may be another branch's)
find "$cache" -maxdepth 1 -name 'systemd-*.tar' -mmin +$((max_age * 1440)) -delete
find "$cache/archives" -maxdepth 1 -name '*.deb' -mmin +$((max_age * 1440)) -delete
log "made in $(($(date +%s) - t0)) s ($(du -sh "$tarball" | cut -f1)): $tarball"
echo "$tarball"
