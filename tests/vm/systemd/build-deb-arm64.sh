#!/bin/sh
# build-deb-arm64.sh OUTDIR - cross-build the project's arm64 .deb with its own
# packaging: tools/build-deb.sh (dpkg-buildpackage -aarm64 -b), build profile
# pkg.sd-tuner.nogui (no GTK stack to cross-install or to boot), against
# Debian's arm64 libraries installed as a foreign architecture (tools/deps.sh
# vm). Prints the path of the .deb.
#
# polkit's -dev packages are not Multi-Arch: same in bookworm (installing the
# arm64 ones removes the amd64 ones), so only their two arch-specific files are
# taken from the arm64 .debs (kept in the download cache): the .pc files, on a
# private pkg-config path, with libdir pointing to the arm64 runtime libraries
# (libpolkit-*-1-0:arm64, co-installable); the headers are the amd64 ones.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=${1:?usage: build-deb-arm64.sh OUTDIR}
cache=${SDT_VM_CACHE:-/var/cache/sd-tuner-vm}
mkdir -p "$out" "$cache/host-arm64"
out=$(cd "$out" && pwd)
triple=aarch64-linux-gnu

pk="$out/polkit-dev-arm64"
if [ ! -f "$pk/pkgconfig/polkit-agent-1.pc" ]; then
  rm -rf "$pk"
  mkdir -p "$pk/x" "$pk/pkgconfig" "$pk/lib"
  for p in libpolkit-gobject-1-dev libpolkit-agent-1-dev; do
    # the -dev files of the very version of the arm64 library installed
    v=$(dpkg-query -W -f='${Version}' "${p%-dev}-0:arm64")
    deb="$cache/host-arm64/${p}_${v}_arm64.deb"
    if [ ! -f "$deb" ]; then
      (cd "$cache/host-arm64" && apt-get -o APT::Sandbox::User=root -q download "$p:arm64=$v" >/dev/null)
    fi
    dpkg-deb -x "$deb" "$pk/x"
  done
  for pc in "$pk/x/usr/lib/$triple/pkgconfig"/*.pc; do
    sed "s|^libdir=.*|libdir=$pk/lib|" "$pc" >"$pk/pkgconfig/$(basename "$pc")"
  done
  for l in libpolkit-gobject-1 libpolkit-agent-1; do
    [ -e "/usr/lib/$triple/$l.so.0" ] || { echo "build-deb-arm64.sh: /usr/lib/$triple/$l.so.0 missing (tools/deps.sh vm)" >&2; exit 1; }
    ln -sfn "/usr/lib/$triple/$l.so.0" "$pk/lib/$l.so"
  done
fi

cross="$out/cross-arm64.ini"
cat >"$cross" <<INI
[binaries]
c = '/usr/bin/$triple-gcc'
ar = '/usr/bin/$triple-ar'
strip = '/usr/bin/$triple-strip'
objcopy = '/usr/bin/$triple-objcopy'
pkgconfig = '/usr/bin/$triple-pkg-config'
exe_wrapper = ['/usr/bin/qemu-aarch64-static', '-L', '/usr/$triple']

[built-in options]
pkg_config_path = ['$pk/pkgconfig']

[host_machine]
system = 'linux'
cpu_family = 'aarch64'
cpu = 'cortex-a53'
endian = 'little'
INI

export DH_MESON_CROSS_FILE="$cross" CC=$triple-gcc
export SDT_DEB_ARCH=arm64 SDT_DEB_PROFILES=pkg.sd-tuner.nogui,nocheck,cross
export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-parallel=$(nproc) nocheck}"
exec "$top/tools/build-deb.sh" "$out"
