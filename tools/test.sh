#!/bin/sh
# test.sh - install what is needed, build, and run every test (unit, CLI,
# D-Bus + polkit integration, GTK under Xvfb). Run as root: the tests attach
# loop devices, start a private system bus and a real polkitd.
#   sudo tools/test.sh             all tests (but the suites vm-legacy and vm-bench), then the 32-bit step
#   sudo tools/test.sh SUITE...    only these meson test suites
#   sudo tools/test.sh 32bit       only the 32-bit step (tools/test-32bit.sh:
#                                  i386 build + unit suite, armhf ARMv6 compile)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "test.sh: run it as root (there is no sudo here)" >&2; exit 1; }
  exec sudo -E "$0" "$@"
fi

"$top/tools/deps.sh" test

# Shared reference data (fixtures, the config.txt corpus, public register dumps) is
# not part of the project.  Tests that use it read $SDTUNER_SHARED_DIR and skip,
# saying why, without it; it is set here only when a `shared` directory with that
# data sits next to this checkout.
if [ -z "${SDTUNER_SHARED_DIR:-}" ] && [ -d "$(dirname "$top")/shared/data/config-corpus" ]; then
  SDTUNER_SHARED_DIR="$(dirname "$top")/shared"
  export SDTUNER_SHARED_DIR
fi

builddir=${BUILDDIR:-$top/_build}
# Whatever configured this build before (tools/run.sh configures it without the
# tests, and before deps.sh above installed the test packages: their tests, the
# `check` suite on fuse3 for one, were then never registered), it is configured
# for testing here: again when it lacks -Dtests=true or --werror, or when packages
# were installed or removed since (dpkg's status file is newer than meson's
# record). A reconfiguration keeps what is built: a warm rebuild stays cheap.
if [ ! -f "$builddir/build.ninja" ]; then
  meson setup "$builddir" --werror -Dtests=true
else
  why=""
  if ! meson introspect "$builddir" --buildoptions | python3 -c '
import json, sys
o = {b["name"]: b["value"] for b in json.load(sys.stdin)}
sys.exit(0 if o.get("tests") is True and o.get("werror") is True else 1)'; then
    why="it was configured without -Dtests=true --werror"
  elif [ /var/lib/dpkg/status -nt "$builddir/meson-private/coredata.dat" ]; then
    why="packages were installed or removed since it was configured"
  else
    # a dependency meson did not find then that pkg-config finds now
    for dep in $(sed -n 's/^Run-time dependency \([^ ]*\) found: NO (tried.*/\1/p' \
      "$builddir/meson-logs/meson-log.txt" 2>/dev/null | sort -u); do
      if pkg-config --exists "$dep"; then
        why="$dep was missing when it was configured and is here now"
        break
      fi
    done
  fi
  if [ -n "$why" ]; then
    echo "test.sh: configuring $builddir again for the tests: $why"
    meson setup --reconfigure "$builddir" --werror -Dtests=true
  fi
fi
ninja -C "$builddir"

# the tests meson registered against the list the run expects (tests/expected-tests.txt):
# a test whose package was missing at configure time is not registered and would
# vanish without a word; under CI=true that fails the run, naming it
strict=""
[ "${CI:-}" = true ] && strict=--strict
"$top/tools/check-tests-registered.py" "$builddir" "$top/tests/expected-tests.txt" $strict

suites=""
run32=no
[ $# -eq 0 ] && run32=yes
for s in "$@"; do
  case "$s" in
  32bit) run32=yes ;;
  *) suites="$suites --suite $s" ;;
  esac
done

# the installed files (suite "installed"): build the .deb with the standard Debian
# tools (reused while the sources are unchanged) and unpack it into a throwaway
# root; where those tools or the Build-Depends are missing, `meson install
# --destdir` of a /usr build instead
case " $* " in
"  " | *" installed "*)
  root="$builddir/installed-root"
  rm -rf "$root"
  mkdir -p "$root"
  if command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null &&
    dpkg-checkbuilddeps "$top/debian/control" >/dev/null 2>&1; then
    # sd-tuner-cli, then sd-tuner (the GTK app): both unpacked into the one root
    debs=$("$top/tools/build-deb.sh" "$builddir/deb")
    for deb in $debs; do
      dpkg-deb -x "$deb" "$root"
    done
    SDTUNER_DEB=$(echo "$debs" | sed -n 1p)
    SDTUNER_DEB_APP=$(echo "$debs" | sed -n 2p)
    export SDTUNER_DEB SDTUNER_DEB_APP
  else
    if [ "${CI:-}" = true ]; then
      # CI installs every Build-Depends (deps.sh test): the package tests never skip there
      dpkg-checkbuilddeps "$top/debian/control" || true
      echo "test.sh: FAILED: the .deb cannot be built here (Debian package tools or Build-Depends missing)"
      exit 1
    fi
    echo "test.sh: no Debian package tools or Build-Depends: testing meson install --destdir"
    ib="$builddir/install-usr"
    [ -f "$ib/build.ninja" ] || meson setup "$ib" "$top" --prefix=/usr -Dtests=false >/dev/null
    meson install -C "$ib" --destdir "$root" --quiet
  fi
  export SDTUNER_INSTALLED_ROOT="$root" SDTUNER_REQUIRE_INSTALLED=1
  ;;
esac
rc=0
# a whole run leaves no stray file: what /var/tmp, /dev/shm and /tmp's sdt* hold now, to
# compare with after the run (the VM cache, SDT_VM_CACHE, may live there and stays)
stray_list() {
  {
    for d in /var/tmp /dev/shm; do
      find "$d" -mindepth 1 -maxdepth 1 2>/dev/null
    done
    find /tmp -mindepth 1 -maxdepth 1 \( -name 'sdt*' -o -name 'sd-tuner*' \) 2>/dev/null
  } | grep -v -x -F "${SDT_VM_CACHE:-/nonexistent}" | sort || true
}
stray_before=$(mktemp)
[ $# -ne 0 ] || stray_list >"$stray_before"
vmpid=""
vmlog="$builddir/meson-logs/vm-run.txt"
if [ $# -eq 0 ]; then
  # every test, in two meson runs side by side. The suites vm and trixie (the real-kernel
  # tier: QEMU under TCG, CPU-bound, no timing of its own that the host's load can spoil;
  # the test `roots`, which makes the roots of the trixie tier and the agents' tests; the
  # Debian 13 tier, in a root of its own) on two slots, niced, started first; all the
  # others meanwhile, the agents' tests last (most of them wait on throttled cards,
  # polkit, AT-SPI and sleeps, many of them alone: one after the other the two took over
  # an hour cold). The vm run's log is printed after the others'.
  rm -f "$builddir/meson-logs/testlog-vm.json"
  nice -n 10 meson test -C "$builddir" --no-rebuild --print-errorlogs --num-processes 2 \
    --suite vm --suite trixie --logbase testlog-vm >"$vmlog" 2>&1 &
  vmpid=$!
  # a run stopped midway stops the vm run too (meson stops its tests)
  trap '[ -z "$vmpid" ] || kill "$vmpid" 2>/dev/null || true' EXIT
  trap 'exit 130' INT TERM
  # vm-legacy (the bookworm package on a systemd boot) and vm-bench (the engine against fio
  # on the emulated Pis, 10-20 min each) only when asked for by name
  meson test -C "$builddir" --no-rebuild --print-errorlogs --num-processes 2 \
    --no-suite vm --no-suite trixie --no-suite vm-legacy --no-suite vm-bench || rc=$?
elif [ -n "$suites" ]; then
  # shellcheck disable=SC2086
  meson test -C "$builddir" --print-errorlogs --num-processes 2 $suites || rc=$?
fi

# 32-bit Raspberry Pi OS: skipped with the reason when the foreign packages
# cannot be had (under CI=true that fails the run); a compile error or a
# failing 32-bit test fails the run
line32=""
if [ "$run32" = yes ]; then
  log32=$(mktemp)
  status32=$(mktemp)
  { rc32=0; "$top/tools/test-32bit.sh" 2>&1 || rc32=$?; echo "$rc32" >"$status32"; } |
    tee "$log32"
  [ "$(cat "$status32")" -eq 0 ] || rc=1
  line32=$(grep '^32-bit: ' "$log32" | tail -n 1)
  rm -f "$log32" "$status32"
fi

logs="$builddir/meson-logs/testlog.json"
if [ -n "$vmpid" ]; then
  vmrc=0
  wait "$vmpid" || vmrc=$?
  vmpid=""
  echo "test.sh: the suites vm and trixie, run beside the others (exit $vmrc):"
  cat "$vmlog"
  [ "$vmrc" -eq 0 ] || rc=$vmrc
  logs="$logs $builddir/meson-logs/testlog-vm.json"
fi
if [ $# -eq 0 ]; then
  stray=$(stray_list | grep -v -x -F -f "$stray_before" || true)
  if [ -n "$stray" ]; then
    echo "test.sh: FAILED: the tests left stray files behind:"
    echo "$stray" | sed 's/^/  | /'
    rc=1
  fi
fi
rm -f "$stray_before"

# one plain summary line that any CI reader understands
if [ $# -eq 0 ] || [ -n "$suites" ]; then
  # shellcheck disable=SC2086
  python3 - $logs <<'PY' || true
import json, sys
passed = failed = skipped = 0
lines = []
for path in sys.argv[1:]:
    try:
        with open(path) as f:
            lines += f.readlines()
    except OSError as e:
        print(f"test.sh: no test log {path}: {e}")
        failed += 1
bad = []
for line in lines:
    t = json.loads(line)
    r = t.get("result")
    if r in ("OK", "EXPECTEDFAIL"):
        passed += 1
    elif r == "SKIP":
        skipped += 1
    else:
        failed += 1
        bad.append(t)
# a CI reader may see only the end of the output: name what failed there,
# with the end of what it printed
for t in bad:
    print(f"test.sh: FAILED {t.get('name')} ({t.get('result')}, "
          f"{t.get('duration', 0):.0f} s):")
    out = (t.get("stdout") or "") + (t.get("stderr") or "")
    # TAP: the first "not ok" and its "# " detail (a console's end, a diff), which the
    # end of the output may not reach
    tap = (t.get("stdout") or "").splitlines()
    first = next((i for i, l in enumerate(tap) if l.startswith("not ok")), None)
    if first is not None:
        detail = [tap[first]]
        for l in tap[first + 1:]:
            if not l.startswith("#"):
                break
            detail.append(l)
        print("  its first failed check:")
        for l in detail[:1] + detail[1:][-60:]:
            print(f"  | {l[:200]}")
    print("  the end of its output:")
    for l in out.splitlines()[-25:]:
        print(f"  | {l[:200]}")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
fi
[ -z "$line32" ] || echo "$line32"
[ $# -ne 0 ] || echo "test.sh: not in a whole run: suite vm-legacy (the bookworm package on a systemd boot of the emulated Pi 3: tools/test.sh vm-legacy), suite vm-bench (the engine against fio on the emulated Pis: tools/test.sh vm-bench)"
exit $rc
