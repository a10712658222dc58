#!/bin/sh
# deps-32bit.sh ARCH SYSROOT - what the 32-bit step of tools/test.sh needs, on
# an x86-64 Debian 12: the cross compiler for ARCH (i386 or armhf, installed
# with apt) and SYSROOT, a directory holding ARCH's Debian -dev packages of
# the libraries SD Tuner links (and everything they depend on), unpacked.
#
# The sysroot is resolved and downloaded by apt from this machine's Debian
# sources with their signatures checked, but into a private apt state: dpkg
# gets no foreign architecture, so nothing here touches the system's packages,
# and the foreign packages need not be in lockstep with the installed amd64
# ones (multiarch would need exactly the same versions, which a mirror whose
# foreign index is briefly out of step cannot give).
#
# Exit status: 0 when both are ready; 77 when they cannot be had for a reason
# outside the source tree (no such index or package on the mirror, no network,
# not an amd64 machine); the reason is the last line printed, and the caller
# skips the step. Anything else is a real error.
set -u
arch=${1:?usage: deps-32bit.sh i386|armhf SYSROOT}
sysroot=${2:?usage: deps-32bit.sh i386|armhf SYSROOT}

case "$arch" in
i386) cc_pkg=gcc-i686-linux-gnu ;;
armhf) cc_pkg=gcc-arm-linux-gnueabihf ;;
*) echo "usage: deps-32bit.sh i386|armhf SYSROOT" >&2; exit 2 ;;
esac
# what the build links: the i386 build is the whole program (the helper
# needs polkit, the app GTK 3) and its unit tests umockdev (the preload
# library is in the umockdev package); armhf only the common library
libs="libc6-dev libglib2.0-dev libjson-glib-dev libudev-dev libblkid-dev liburing-dev"
[ "$arch" = i386 ] && libs="$libs libumockdev-dev umockdev libpolkit-gobject-1-dev
  libpolkit-agent-1-dev libgtk-3-dev"

skip() {
  echo "deps-32bit.sh: $*"
  exit 77
}

if [ "$(dpkg --print-architecture)" != amd64 ]; then
  skip "the 32-bit step cross-builds on an x86-64 (amd64) Debian; this machine is $(dpkg --print-architecture)"
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive

# the cross compiler: an ordinary amd64 package
if ! dpkg-query -W -f='${Status}\n' "$cc_pkg" 2>/dev/null | grep -q '^install ok installed$'; then
  echo "deps-32bit.sh: installing: $cc_pkg"
  $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq || true
  $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq "$cc_pkg" ||
    skip "apt-get could not install $cc_pkg"
fi

# the sysroot, rebuilt when the list of packages changes
stamp="$sysroot/.sdt-sysroot"
# shellcheck disable=SC2086,SC2116 # on one line, without the list's newlines
want=$(echo "$arch:" $libs)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi

state="$sysroot.apt"
rm -rf "$sysroot" "$state"
mkdir -p "$state/lists/partial" "$state/archives/partial" "$sysroot"
: >"$state/status"
log="$state/log"
# ARCH as the only architecture, an empty dpkg status: apt resolves the whole
# dependency closure and only downloads it
set -- -o APT::Architecture="$arch" -o APT::Architectures::="$arch" \
  -o Dir::State="$state" -o Dir::State::Lists="$state/lists" \
  -o Dir::State::status="$state/status" -o Dir::Cache="$state" \
  -o Dir::Cache::archives="$state/archives" -o Debug::NoLocking=1 \
  -o APT::Install-Recommends=0 -o APT::Sandbox::User=root -q

echo "deps-32bit.sh: downloading the $arch sysroot into $sysroot"
# an index that fails (e.g. "File has unexpected size ... Mirror sync in
# progress?") is reported and left out; the download below decides
if ! apt-get "$@" update >"$log" 2>&1; then
  grep -E '^(E|W): ' "$log" | sed 's/^/deps-32bit.sh: apt-get update: /'
fi
# shellcheck disable=SC2086
if ! apt-get "$@" install --download-only -y $libs >>"$log" 2>&1; then
  tail -n 15 "$log"
  # the first failed index, if any, and the first install error
  reason=$(grep -E '^[EW]: Failed to fetch' "$log" | head -n 1 | cut -c1-160)
  reason="${reason:+$reason; }$(grep -E '^E: |Depends:|Breaks:' "$log" | grep -v 'Failed to fetch' | head -n 1)"
  skip "apt-get could not download the $arch packages (the mirror's $arch index is missing, out of step or not reachable): $reason"
fi
for deb in "$state"/archives/*.deb; do
  dpkg-deb -x "$deb" "$sysroot" || exit 1
done
# absolute links (libz.so -> /lib/...) must point into the sysroot
find "$sysroot" -type l -lname '/*' | while read -r link; do
  ln -sfn "$sysroot$(readlink "$link")" "$link"
done
rm -rf "$state"
echo "$want" >"$stamp"
exit 0
