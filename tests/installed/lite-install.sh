#!/bin/sh
# lite-install.sh [SUITE] - the two packages installed with apt into a clean Debian
# minbase root of SUITE (bookworm, the default, or trixie: Raspberry Pi OS Lite's
# Debian 12 and 13), as on Raspberry Pi OS Lite (issue 26 item 3, issue 32):
#   1. `apt install` of the app (sd-tuner with sd-tuner-cli) is only asked
#      (--assume-no): what it would pull into the clean root;
#   2. `apt install ./sd-tuner-cli_*.deb` for real: no GTK, X11 or Wayland
#      library (nor cairo, pango, fontconfig, Mesa...) may come with it, and
#      sdtunerctl runs;
#   3. `apt install ./sd-tuner_*.deb` on top, planned (apt -s and --assume-no;
#      SDT_LITE_INSTALL_APP=1 installs it for real): apt can install the app,
#      and the same pattern finds the graphical stack in it (the check can fail).
# Prints the package counts and sizes (download, installed) of each.
# SDTUNER_DEB / SDTUNER_DEB_APP: the two .debs (tools/test.sh builds them).
# The .debs are this machine's build (on trixie amd64 the t64 libraries provide the
# old names, so they install; the trixie tier builds its own, tests/trixie).
# The root comes from tests/roots/make-root.sh SUITE ARCH (`debootstrap
# --variant=minbase SUITE` with the mirror this machine's apt uses), kept as a
# tarball with every downloaded .deb in SDT_VM_CACHE (default
# /var/cache/sd-tuner-vm)/roots/SUITE-ARCH, so a second run downloads nothing but
# apt's changed indexes.  Needs root and debootstrap.  Exit 77 (skip) when it
# cannot run, 1 under CI=true.
set -eu

log() { echo "lite-install: $*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
skip_or_fail() {
  if [ "${CI:-}" = true ]; then fail "cannot run: $*"; fi
  log "SKIP: $*"
  exit 77
}

suite=${1:-bookworm}
case "$suite" in
bookworm | trixie) ;;
*) fail "usage: lite-install.sh [bookworm|trixie]" ;;
esac
[ "$(id -u)" -eq 0 ] || skip_or_fail "needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || skip_or_fail "debootstrap is missing (tools/deps.sh test)"
cli=${SDTUNER_DEB:-}
app=${SDTUNER_DEB_APP:-}
[ -n "$cli" ] && [ -f "$cli" ] || skip_or_fail "no sd-tuner-cli .deb: SDTUNER_DEB is not set (tools/test.sh builds it)"
[ -n "$app" ] && [ -f "$app" ] || skip_or_fail "no sd-tuner .deb: SDTUNER_DEB_APP is not set (tools/test.sh builds it)"

arch=$(dpkg --print-architecture)
t0=$(date +%s)
# the clean root: tests/roots/make-root.sh makes it once and keeps it (cold: a minute)
tarball=$("$(dirname "$0")/../roots/make-root.sh" "$suite" "$arch") ||
  skip_or_fail "no clean $suite root (tests/roots/make-root.sh failed, above)"
archives=${SDT_VM_CACHE:-/var/cache/sd-tuner-vm}/roots/$suite-$arch/archives
mkdir -p "$archives/partial"
W=$(mktemp -d /var/tmp/sdt-lite-XXXXXX)
R=$W/root
cleanup() {
  for m in "$R/var/cache/apt/archives" "$R/proc"; do
    mountpoint -q "$m" 2>/dev/null && umount -l "$m"
  done
  rm -rf --one-file-system "$W"
}
trap cleanup EXIT INT TERM
mkdir -p "$R"
tar -C "$R" --numeric-owner -xf "$tarball"
cp /etc/resolv.conf "$R/etc/resolv.conf"
# the indexes of the tarball, brought up to date (only what changed is fetched)
chroot "$R" apt-get -q update >"$W/update.log" 2>&1 ||
  { cat "$W/update.log" >&2; fail "apt-get update in the root failed"; }
t1=$(date +%s)
mount -t proc proc "$R/proc"
mount --bind "$archives" "$R/var/cache/apt/archives"
# no service is started inside the chroot; dpkg without an fsync per file (a
# throwaway root: what is measured is what apt pulls, not how fast the disk is)
printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"
chmod 0755 "$R/usr/sbin/policy-rc.d"
echo force-unsafe-io >"$R/etc/dpkg/dpkg.cfg.d/sdt-unsafe-io"
cp "$cli" "$R/tmp/"
cp "$app" "$R/tmp/"
c=/tmp/$(basename "$cli")
a=/tmp/$(basename "$app")

# what any of the GTK, X11 or Wayland stack would bring
gui='^(libgtk|libgdk|libx11|libxcb|libxau|libxdmcp|libxext|libxrender|libxi[0-9]|libxfixes|libxrandr|libxcursor|libxdamage|libxcomposite|libxinerama|libxkbcommon|libwayland|libcairo|libpango|libepoxy|libatk|libatspi|libfontconfig|fontconfig|libfreetype|libharfbuzz|libgl[0-9x]|libegl|libgbm|libdrm|libvulkan|x11-common|adwaita-icon-theme|hicolor-icon-theme|gtk-update-icon-cache|libcolord|libcups)'

# apt's summary: "N newly installed", "Need to get [X/]Y of archives", "After this operation, Z"
figures() {
  n=$(sed -n 's/.* upgraded, \([0-9]*\) newly installed.*/\1/p' "$1" | head -n 1)
  get=$(sed -n 's|^Need to get \([^ ]* [^ ]*\)\(/\([^ ]* [^ ]*\)\)\{0,1\} of archives.*|\1 \3|p' "$1" |
    awk '{print ($3 != "" ? $3 " " $4 : $1 " " $2)}' | head -n 1)
  disk=$(sed -n 's/^After this operation, \(.*\) of additional disk space will be used.*/\1/p' "$1" |
    head -n 1)
  echo "${n:-?} packages, ${get:-?} to download, ${disk:-?} on disk"
}
# maintainer scripts see only their own processes (tests/roots/chroot-pidns.sh: polkitd's
# postinst stopped the host's polkitds, the tests' running beside)
apt_in() {
  "$(dirname "$0")/../roots/chroot-pidns.sh" "$R" env DEBIAN_FRONTEND=noninteractive LC_ALL=C \
    apt-get -o Dpkg::Use-Pty=0 "$@"
}

# 1. the app from the clean root, asked only
apt_in install --assume-no "$a" "$c" >"$W/app-ask.log" 2>&1 || true
grep -q 'newly installed' "$W/app-ask.log" || { cat "$W/app-ask.log" >&2; fail "apt could not plan the app's install"; }
app_clean=$(figures "$W/app-ask.log")

# 2. the Lite package, for real
apt_in install -y "$c" >"$W/cli.log" 2>&1 || { tail -n 30 "$W/cli.log" >&2; fail "apt install of $(basename "$cli") failed"; }
cli_fig=$(figures "$W/cli.log")
chroot "$R" dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" {print $2}' |
  sed 's/:.*//' | sort >"$W/after-cli"
bad=$(grep -E "$gui" "$W/after-cli" || true)
rc=0
if [ -n "$bad" ]; then
  log "FAILED: installing $(basename "$cli") pulled in graphical libraries:"
  echo "$bad" | sed 's/^/  /' >&2
  rc=1
fi
chroot "$R" sdtunerctl --help >"$W/help" 2>&1 || { cat "$W/help" >&2; log "FAILED: sdtunerctl does not run"; rc=1; }
[ ! -e "$R/usr/bin/sd-tuner" ] || { log "FAILED: the Lite package carries the GTK app"; rc=1; }

# 3. the app on top: apt's plan (its resolver fails when a dependency cannot be
# met), and with SDT_LITE_INSTALL_APP=1 the install itself (4 more minutes here)
apt_in install --assume-no "$a" >"$W/app-ask2.log" 2>&1 || true
app_top=$(figures "$W/app-ask2.log")
apt_in install -s "$a" >"$W/app-sim.log" 2>&1 || { tail -n 30 "$W/app-sim.log" >&2; fail "apt cannot install $(basename "$app") over the Lite package"; }
sed -n 's/^Inst \([^ ]*\) .*/\1/p' "$W/app-sim.log" | sed 's/:.*//' | sort >"$W/app-new"
if [ "${SDT_LITE_INSTALL_APP:-}" = 1 ]; then
  apt_in install -y "$a" >"$W/app.log" 2>&1 || { tail -n 30 "$W/app.log" >&2; fail "apt install of $(basename "$app") failed"; }
  app_top="$(figures "$W/app.log"), installed"
  [ -x "$R/usr/bin/sd-tuner" ] || { log "FAILED: /usr/bin/sd-tuner is not installed"; rc=1; }
fi
grep -qx sd-tuner "$W/app-new" || { log "FAILED: apt's plan for the app does not install sd-tuner"; rc=1; }
ngui=$(grep -cE "$gui" "$W/app-new" || true)
[ "$ngui" -gt 0 ] || { log "FAILED: the pattern finds no graphical library in the app's packages"; rc=1; }
t2=$(date +%s)

echo "lite-install: in a clean $suite minbase root ($arch, $(wc -l <"$W/after-cli") packages after the Lite install):"
echo "lite-install:   apt install $(basename "$cli"): $cli_fig; graphical libraries: ${bad:-none}"
echo "lite-install:   apt install $(basename "$app") (clean root, asked): $app_clean"
echo "lite-install:   apt install $(basename "$app") (after the Lite one, asked): $app_top, $ngui graphical packages"
echo "lite-install: root $((t1 - t0)) s, installs $((t2 - t1)) s"
exit $rc
