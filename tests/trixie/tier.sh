#!/bin/sh
# tier.sh SRCDIR BUILDDIR [--make-root-only] - the Debian 13 "trixie" build tier (issue
# 32): Raspberry Pi OS is trixie since October 2025 (GCC 14, glibc 2.41, polkit 126 with
# duktape rules, systemd 257, dbus 1.16, json-glib 1.10, groff 1.23).  In a trixie amd64
# root made once
# and cached (tests/roots/make-root.sh: debootstrap minbase, debian/control's
# Build-Depends and the packages below), a copy of the source tree is
#   - configured with `meson setup --werror -Dtests=true` and built by trixie's GCC;
#   - tested: the suites in SDT_TRIXIE_SUITES (default below) with the real dbus-daemon,
#     polkitd, systemd-logind and loop devices of the root, and the installed suite on
#     the .debs that dpkg-buildpackage makes there (lintian included), but for the
#     tests in SDT_TRIXIE_SKIP (default: the three long throttled-card runs and the
#     check engine's own suite, power cuts and short fakes); clang-format (another
#     version formats differently) and the system tiers stay the host's;
# in private mount and PID namespaces (every mount and process of the tier goes with
# it).  The root's test log is copied to BUILDDIR/trixie-testlog.txt.  With
# --make-root-only, only the root is made (tests/roots/prepare-roots.sh).  Needs root;
# exit 77 (skip) when it cannot run, 1 under CI=true.
set -eu
src=$(cd "${1:?usage: tier.sh SRCDIR BUILDDIR}" && pwd)
build=${2:?usage: tier.sh SRCDIR BUILDDIR}
suites=${SDT_TRIXIE_SUITES:-unit integration cli check i18n data installed}

log() { echo "trixie: $*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
skip_or_fail() {
  if [ "${CI:-}" = true ]; then fail "cannot run: $*"; fi
  log "SKIP: $*"
  exit 77
}
[ "$(id -u)" -eq 0 ] || skip_or_fail "needs root (debootstrap, chroot, loop devices)"
command -v debootstrap >/dev/null || skip_or_fail "debootstrap is missing (tools/deps.sh test)"

# debian/control's Build-Depends (versions, architectures and profiles dropped) and
# what the tests run: the bus, polkitd and logind, umockdev, python3-gi and dbusmock,
# the block tools, FUSE, the package tools, man and the locales
build_deps=$(sed -n '/^Build-Depends:/,/^[^ ]/p' "$src/debian/control" | sed '1s/^Build-Depends://;$d' |
  tr ',' '\n' | sed 's/[[(<].*//; s/^ *//; s/ *$//' | sed '/^$/d')
pkgs="$build_deps build-essential dpkg-dev debhelper lintian fakeroot
  dbus-daemon dbus-system-bus-common polkitd systemd libpam-systemd umockdev libumockdev-dev
  python3 python3-gi python3-dbusmock gir1.2-glib-2.0
  e2fsprogs dosfstools util-linux mount fdisk fio hdparm strace time fuse3 libfuse3-dev
  desktop-file-utils appstream man-db groff-base locales wamerican
  prometheus prometheus-node-exporter"
# shellcheck disable=SC2086
tarball=$("$src/tests/roots/make-root.sh" trixie amd64 $pkgs) ||
  skip_or_fail "no trixie root (tests/roots/make-root.sh failed, above)"
# tests/roots/prepare-roots.sh: only the root, made (or found cached) ahead of the tier
[ "${3:-}" != --make-root-only ] || { log "root ready: $tarball"; exit 0; }

t0=$(date +%s)
W=$(mktemp -d /var/tmp/sdt-trixie-XXXXXX)
R=$W/root
cleanup() {
  # the namespaces took their mounts and processes with them; a mount left by a kill
  findmnt -rn -o TARGET | grep "^$R/" | sort -r | while read -r m; do umount -l "$m"; done
  rm -rf --one-file-system "$W"
}
trap cleanup EXIT INT TERM
mkdir -p "$R"
tar -C "$R" --numeric-owner -xf "$tarball"
# the tree as git has it (tracked and new files), else all but the build folders
mkdir -p "$R/src"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$src" && git ls-files -z --cached --others --exclude-standard |
    xargs -0 -r sh -c 'for f; do [ -f "$f" ] || [ -L "$f" ] && printf "%s\0" "$f"; done' sh |
    xargs -0 cp --parents -P -p -t "$R/src")
else
  (cd "$src" && tar --exclude='./_build*' --exclude=./.git -cf - .) | tar -C "$R/src" -xf -
fi
shared=""
if [ -n "${SDTUNER_SHARED_DIR:-}" ] && [ -d "$SDTUNER_SHARED_DIR" ]; then
  shared=$(cd "$SDTUNER_SHARED_DIR" && pwd)
  mkdir -p "$R/shared"
fi
t1=$(date +%s)
log "root unpacked and sources copied in $((t1 - t0)) s; $(chroot "$R" gcc --version | head -n 1)"

rc=0
unshare --mount --pid --fork --propagation private sh -eu -c '
  R=$1 shared=$2
  shift 2
  # the root a mount point of its own, made the namespace'"'"'s root with pivot_root (not
  # chroot: the tests unshare mounts again, and /proc/PID/exe of a process in such a
  # namespace reads as the host'"'"'s path under a chroot)
  mount --bind "$R" "$R"
  mount -t proc proc "$R/proc"
  mount --rbind /sys "$R/sys"
  mount --rbind /dev "$R/dev"
  mount -t tmpfs -o mode=0755 tmpfs "$R/run"
  mkdir -p "$R/run/systemd" "$R/run/lock" # as a booted system has them
  [ -z "$shared" ] || mount --bind -o ro "$shared" "$R/shared"
  mkdir -p "$R/.oldroot"
  cd "$R"
  pivot_root . .oldroot
  exec /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    CI="${CI:-}" SDTUNER_SHARED_DIR="${shared:+/shared}" SDT_TRIXIE_SUITES="$*" \
    ${SDT_TRIXIE_SKIP+SDT_TRIXIE_SKIP="$SDT_TRIXIE_SKIP"} \
    /bin/sh -c "umount -l /.oldroot && rmdir /.oldroot && cd / && exec sh /src/tests/trixie/in-root.sh"
' sh "$R" "$shared" $suites || rc=$?
for f in testlog.txt testlog.json; do
  [ ! -f "$R/build/meson-logs/$f" ] || cp "$R/build/meson-logs/$f" "$build/trixie-$f"
done
log "in the root: $(($(date +%s) - t1)) s (exit $rc); whole tier $(($(date +%s) - t0)) s"
exit $rc
