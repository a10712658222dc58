#!/bin/sh
# build-deb.sh [OUTDIR] - build the Debian package with the standard tools
# (dpkg-buildpackage -us -uc -b) from a copy of this tree, so that nothing is
# written next to the repository and no build state leaks into the package.
#   OUTDIR   where the copy is built and the .deb ends up (default: _build-deb)
# SDT_DEB_ARCH (e.g. arm64) cross-builds for that architecture (dpkg-buildpackage
# -a, Build-Depends not checked: the caller provides them, see
# tests/vm/systemd/build-deb-arm64.sh), SDT_DEB_PROFILES sets build profiles (-P).
# Prints the paths of the .debs, one a line: sd-tuner-cli (sdtunerctl, the
# helper, no GTK: all Raspberry Pi OS Lite needs) first, then sd-tuner (the GTK
# app) unless the profile pkg.sd-tuner.nogui leaves it out.  When the sources
# are byte-identical to those of the last build in OUTDIR, those are reused.  Needs dpkg-dev, debhelper and
# the Build-Depends of debian/control (`apt-get build-dep ./` installs them).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/_build-deb}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# the files of the tree: git's list when this is a checkout, else all but builds
list=$(mktemp)
trap 'rm -f "$list"' EXIT
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$top" && git ls-files -z --cached --others --exclude-standard |
    xargs -0 -r sh -c 'for f; do if [ -f "$f" ] || [ -L "$f" ]; then printf "%s\n" "$f"; fi; done' sh) >"$list"
else
  (cd "$top" && find . -path './_build*' -prune -o -path ./.git -prune -o \( -type f -o -type l \) -print |
    sed 's|^\./||') >"$list"
fi
sum=$(cd "$top" && tr '\n' '\0' <"$list" | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
sum="$sum $(cd "$top" && tr '\n' '\0' <"$list" | xargs -0 stat -c '%a %N' | sha256sum | cut -d' ' -f1)"

version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
arch=${SDT_DEB_ARCH:-$(dpkg-architecture -qDEB_HOST_ARCH)}
set --
[ -z "${SDT_DEB_ARCH:-}" ] || set -- "$@" -a"$SDT_DEB_ARCH" -d
[ -z "${SDT_DEB_PROFILES:-}" ] || set -- "$@" -P"$SDT_DEB_PROFILES"
sum="$sum $*"
cli="$out/sd-tuner-cli_${version}_${arch}.deb"
app="$out/sd-tuner_${version}_${arch}.deb"
debs() {
  echo "$cli"
  [ ! -f "$app" ] || echo "$app"
}
if [ -f "$cli" ] && [ "$(cat "$out/sources.sha256" 2>/dev/null)" = "$sum" ]; then
  echo "build-deb.sh: sources unchanged since the last build, reusing $cli" >&2
  debs
  exit 0
fi

rm -rf "$out/src" "$out/sources.sha256" "$out"/sd-tuner_* "$out"/sd-tuner-dbgsym_* \
  "$out"/sd-tuner-cli_* "$out"/sd-tuner-cli-dbgsym_*
mkdir -p "$out/src"
(cd "$top" && tr '\n' '\0' <"$list" | xargs -0 cp --parents -P -p -t "$out/src")
echo "build-deb.sh: dpkg-buildpackage -us -uc -b $* in $out/src" >&2
(cd "$out/src" && DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-parallel=$(nproc)}" \
  dpkg-buildpackage -us -uc -b "$@" >"$out/build.log" 2>&1) || {
  tail -n 40 "$out/build.log" >&2
  echo "build-deb.sh: dpkg-buildpackage failed, see $out/build.log" >&2
  exit 1
}
[ -f "$cli" ] || { echo "build-deb.sh: $cli was not built, see $out/build.log" >&2; exit 1; }
echo "$sum" >"$out/sources.sha256"
debs
