#!/bin/bash
# build-deb-root.sh SUITE OUTDIR - cross-build the project's arm64 .deb for Debian SUITE
# (trixie) as Debian cross-builds: tools/build-deb.sh (dpkg-buildpackage -aarm64, profile
# pkg.sd-tuner.nogui) in a SUITE amd64 build root with arm64 as a foreign architecture, its
# crossbuild-essential-arm64 and the arm64 -dev packages of the Build-Depends. So the
# package links SUITE's arm64 libraries and `${shlibs:Depends}` names SUITE's packages (this
# machine's own arm64 libraries are bookworm's: build-deb-arm64.sh). Prints the path of the
# .deb (sd-tuner-cli).
#
# The build root is made natively (no emulation) by mmdebstrap --architectures=amd64,arm64,
# cached as SDT_VM_CACHE/roots/SUITE-amd64/xbuild-arm64-KEY.tar (KEY from suite, sources and
# package list; older than SDT_ROOT_MAX_AGE days, default 14, it is made again) with its
# downloads in .../archives; unpacked in OUTDIR/root, which is kept while the key holds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
# shellcheck source=tests/vm/vmlib.sh
. "$here/../vmlib.sh"
suite=${1:?usage: build-deb-root.sh SUITE OUTDIR}
out=${2:?usage: build-deb-root.sh SUITE OUTDIR}
log() { echo "build-deb-root ($suite): $*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
command -v mmdebstrap >/dev/null || fail "mmdebstrap is missing (tools/deps.sh vm)"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# debian/control's Build-Depends for an arm64 host without the GTK application: the tools
# native, the libraries arm64
pkgs="build-essential crossbuild-essential-arm64 dpkg-dev debhelper gettext libglib2.0-dev-bin
  meson ninja-build pkgconf polkitd scdoc libglib2.0-dev:arm64 libjson-glib-dev:arm64
  libpolkit-agent-1-dev:arm64 libpolkit-gobject-1-dev:arm64 libudev-dev:arm64 libblkid-dev:arm64
  liburing-dev:arm64"
pkgs=$(echo "$pkgs" | tr -s ' \n' '\n' | sed '/^$/d' | sort -u | tr '\n' ',')
pkgs=${pkgs%,}
cache=$VM_CACHE/roots/$suite-amd64
mkdir -p "$cache/archives"
cache=$(cd "$cache" && pwd)
max_age=${SDT_ROOT_MAX_AGE:-14}
sources=$(vm_sources "$suite") || fail "no Debian sources to take the mirror from"
key=$(printf '%s\n' "$suite" amd64,arm64 "$sources" "$pkgs" | sha256sum | cut -c1-12)
tarball=$cache/xbuild-arm64-$key.tar

(
  flock 9
  if [ -f "$tarball" ] && [ -z "$(find "$tarball" -mmin +$((max_age * 1440)))" ]; then
    exit 0
  fi
  t0=$(date +%s)
  log "mmdebstrap $suite amd64 with arm64 as a foreign architecture (the build root)"
  mapfile -t src_lines <<<"$sources"
  rm -f "$tarball.new" # a run killed midway
  # a PID namespace with its own /proc: polkitd's postinst stops no polkitd of the host's
  # (tests/roots/chroot-pidns.sh)
  TMPDIR=/var/tmp unshare --pid --fork --mount-proc sh -c \
  'mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null; exec "$@"' sh \
  "$here/../../roots/drop-card-mounts.sh" --in-new-namespace \
    mmdebstrap --mode=root --format=tar --variant=minbase --architectures=amd64,arm64 \
    --include="$pkgs" --dpkgopt=force-unsafe-io --aptopt='Acquire::Retries "3"' \
    --skip=essential/unlink --setup-hook='mkdir -p "$1/var/cache/apt/archives"' \
    --setup-hook="sync-in $cache/archives /var/cache/apt/archives" \
    --customize-hook="sync-out /var/cache/apt/archives $cache/archives" \
    "$suite" "$tarball.new" "${src_lines[@]}" >"$cache/mmdebstrap-xbuild.log" 2>&1 || {
    tail -n 20 "$cache/mmdebstrap-xbuild.log" >&2
    rm -f "$tarball.new"
    exit 1
  }
  mv "$tarball.new" "$tarball"
  find "$cache" -maxdepth 1 -name 'xbuild-*.tar' -mmin +$((max_age * 1440)) -delete
  log "build root made in $(($(date +%s) - t0)) s: $tarball"
) 9>"$cache/lock" || fail "mmdebstrap failed, see $cache/mmdebstrap-xbuild.log"

R=$out/root
cleanup() {
  findmnt -rn -o TARGET | { grep "^$R/" || true; } | sort -r | while read -r m; do umount -l "$m"; done
}
trap cleanup EXIT
cleanup
if [ "$(cat "$out/root.key" 2>/dev/null)" != "$key" ]; then
  rm -rf --one-file-system "$R"
  mkdir -p "$R"
  tar -C "$R" --numeric-owner -xf "$tarball"
  echo "$key" >"$out/root.key"
fi
mkdir -p "$R/sdt-src" "$R/sdt-out" "$out/debs"
mount --bind "$top" "$R/sdt-src"
mount -o remount,bind,ro "$R/sdt-src"
mount --bind "$out/debs" "$R/sdt-out"
mount -t proc proc "$R/proc"
debs=$(chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
  SDT_DEB_ARCH=arm64 SDT_DEB_PROFILES=pkg.sd-tuner.nogui,nocheck,cross \
  DEB_BUILD_OPTIONS="parallel=$(nproc) nocheck" /sdt-src/tools/build-deb.sh /sdt-out) ||
  fail "dpkg-buildpackage -aarm64 in the $suite build root failed (see $out/debs/build.log)"
first=${debs%%$'\n'*}
echo "$out/debs/${first##*/}"
