#!/bin/sh
# make-root.sh SUITE ARCH [PACKAGE...] - a Debian root made once and cached:
# `debootstrap --variant=minbase SUITE` for ARCH, then PACKAGE... installed with
# apt (--no-install-recommends).  Prints the path of the root's tarball (plain
# tar, numeric owners: `tar -C DIR --numeric-owner -xf TARBALL`) on stdout.
#
# The cache, SDT_VM_CACHE (default /var/cache/sd-tuner-vm)/roots/SUITE-ARCH:
#   debs/                  the .debs debootstrap downloaded (its --cache-dir)
#   archives/              the .debs apt downloaded (bind-mounted into the root)
#   minbase-KEY.tar        the bare root, KEY from suite, arch and sources
#   root-KEY.tar           with the packages, KEY also from the sorted package list
# A tarball is kept until the package list or the sources change or it is older
# than SDT_ROOT_MAX_AGE days (default 14: the suite moves on); a lock
# (flock) lets tiers that run side by side share one build.  The root's apt
# lists are in the tarball (apt-get install works in it without an update while
# they are fresh); /etc/resolv.conf is the host's.
#
# The archive is the one this machine's apt uses: the site of its Debian main
# source (and its security source) with SUITE in place of the host's release;
# SDTUNER_DEBIAN_MIRROR overrides the main one.  A foreign ARCH (arm64, armhf on
# amd64) is made with --foreign and its second stage runs under qemu-user-static
# through binfmt_misc (package qemu-user-static).  Needs root and debootstrap.
# Exits 1 with the reason on stderr when it cannot make the root.
set -eu
usage() { echo "usage: make-root.sh SUITE ARCH [PACKAGE...]" >&2; exit 2; }
[ $# -ge 2 ] || usage
suite=$1
arch=$2
shift 2
log() { echo "make-root: $*" >&2; }
fail() { log "FAILED: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || fail "debootstrap is missing (tools/deps.sh test)"

cache=${SDT_VM_CACHE:-/var/cache/sd-tuner-vm}/roots/$suite-$arch
mkdir -p "$cache/debs" "$cache/archives/partial"
cache=$(cd "$cache" && pwd)
max_age=${SDT_ROOT_MAX_AGE:-14}

# ---- the sources: this machine's Debian archive, as its apt has it
host_rel=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
targets=$(apt-get indextargets --format '$(SITE) $(RELEASE) $(COMPONENT)' 'Created-By: Packages' |
  awk -v r="$host_rel" '$3 == "main" && $2 ~ ("^" r "(-updates|-security|/updates)?$")' | sort -u)
main_site=${SDTUNER_DEBIAN_MIRROR:-$(echo "$targets" | awk -v r="$host_rel" '$2 == r {print $1; exit}')}
[ -n "$main_site" ] || fail "this machine's apt has no $host_rel main source to take the mirror from"
sec_site=$(echo "$targets" | awk -v r="$host_rel" '$2 == r "-security" {print $1; exit}')
sources="deb $main_site $suite main
deb $main_site $suite-updates main"
[ -z "$sec_site" ] || sources="$sources
deb $sec_site $suite-security main"

# ---- the keys of the two tarballs
pkgs=$(printf '%s\n' "$@" | sed '/^$/d' | sort -u | tr '\n' ' ')
key_of() { printf '%s\n' "$@" | sha256sum | cut -c1-12; }
base_key=$(key_of "$suite" "$arch" "$sources")
base_tar=$cache/minbase-$base_key.tar
if [ -n "$pkgs" ]; then
  tarball=$cache/root-$(key_of "$base_key" "$pkgs").tar
else
  tarball=$base_tar
fi
fresh() { [ -f "$1" ] && [ -z "$(find "$1" -mmin +$((max_age * 1440)))" ]; }

exec 9>"$cache/lock"
flock 9 # another tier may be making this root now: wait for it
if fresh "$tarball"; then
  echo "$tarball"
  exit 0
fi

W=$(mktemp -d /var/tmp/sdt-root-XXXXXX)
R=$W/root
cleanup() {
  if [ -d "$R" ]; then
    findmnt -rn -o TARGET | grep "^$R/" | sort -r | while read -r m; do umount -l "$m"; done
  fi
  rm -rf --one-file-system "$W"
}
trap cleanup EXIT INT TERM
t0=$(date +%s)

# ---- the bare root
mkdir -p "$R"
if fresh "$base_tar"; then
  tar -C "$R" --numeric-owner -xf "$base_tar"
else
  log "debootstrap --variant=minbase $suite $arch from $main_site (minutes)"
  host_arch=$(dpkg --print-architecture)
  foreign=""
  if [ "$arch" != "$host_arch" ]; then
    foreign=--foreign
    case "$arch" in
    arm64) qemu=aarch64 ;;
    armhf | armel) qemu=arm ;;
    i386) qemu="" ;;
    *) qemu=$arch ;;
    esac
    if [ -n "$qemu" ]; then
      [ -e /proc/sys/fs/binfmt_misc/register ] ||
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
      if [ ! -e "/proc/sys/fs/binfmt_misc/qemu-$qemu" ]; then
        conf=/usr/lib/binfmt.d/qemu-$qemu.conf
        [ -f "$conf" ] || fail "$conf is missing (package qemu-user-static)"
        cat "$conf" >/proc/sys/fs/binfmt_misc/register
      fi
    fi
  fi
  debootstrap --arch="$arch" $foreign --variant=minbase --cache-dir="$cache/debs" \
    "$suite" "$R" "$main_site" >"$W/debootstrap.log" 2>&1 ||
    { tail -n 20 "$W/debootstrap.log" >&2; fail "debootstrap $suite $arch failed"; }
  if [ -n "$foreign" ]; then
    chroot "$R" /debootstrap/debootstrap --second-stage >>"$W/debootstrap.log" 2>&1 ||
      { tail -n 20 "$W/debootstrap.log" >&2; fail "debootstrap's second stage ($arch, qemu-user) failed"; }
  fi
  echo "$sources" >"$R/etc/apt/sources.list"
  cp /etc/resolv.conf "$R/etc/resolv.conf"
  chroot "$R" apt-get -q update >"$W/update.log" 2>&1 ||
    { cat "$W/update.log" >&2; fail "apt-get update in the new $suite root failed"; }
  chroot "$R" apt-get clean
  tar -C "$R" --numeric-owner -cf "$base_tar.new" . && mv "$base_tar.new" "$base_tar"
  log "bare $suite $arch root made in $(($(date +%s) - t0)) s: $base_tar"
fi
if [ -z "$pkgs" ]; then
  echo "$tarball"
  exit 0
fi

# ---- the packages
t1=$(date +%s)
cp /etc/resolv.conf "$R/etc/resolv.conf"
mount -t proc proc "$R/proc"
mount --bind "$cache/archives" "$R/var/cache/apt/archives"
printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d" # no service starts in a chroot
chmod 0755 "$R/usr/sbin/policy-rc.d"
echo force-unsafe-io >"$R/etc/dpkg/dpkg.cfg.d/sdt-unsafe-io"
# maintainer scripts see only their own processes (chroot-pidns.sh: polkitd's postinst
# stopped the host's polkitds, the tests' running beside)
apt_in() {
  "$(dirname "$0")/chroot-pidns.sh" "$R" env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 \
    apt-get -q -o Dpkg::Use-Pty=0 -o APT::Install-Recommends=false "$@"
}
apt_in update >"$W/update.log" 2>&1 || { cat "$W/update.log" >&2; fail "apt-get update in the $suite root failed"; }
# shellcheck disable=SC2086
apt_in install -y $pkgs >"$W/install.log" 2>&1 ||
  { tail -n 30 "$W/install.log" >&2; fail "apt-get install in the $suite $arch root failed"; }
umount "$R/var/cache/apt/archives"
umount "$R/proc"
rm -f "$R/etc/dpkg/dpkg.cfg.d/sdt-unsafe-io"
# keep policy-rc.d: whoever unpacks the root runs it as a chroot, not booted
tar -C "$R" --numeric-owner -cf "$tarball.new" . && mv "$tarball.new" "$tarball"
# tarballs of this suite and arch past their age go (other tiers keep other lists)
find "$cache" -maxdepth 1 -name '*.tar' -mmin +$((max_age * 1440)) -delete
log "$suite $arch root with $(echo "$pkgs" | wc -w) packages made in $(($(date +%s) - t1)) s ($(du -sh "$tarball" | cut -f1)): $tarball"
echo "$tarball"
