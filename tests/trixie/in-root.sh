#!/bin/sh
# in-root.sh - run by tests/trixie/tier.sh inside the trixie root (chroot, private
# mount and PID namespaces, /proc /sys /dev /run mounted): the locales the tests
# use, then configure, build and test the copy in /src in /build, then the .debs
# with dpkg-buildpackage and the installed suite (lintian) on them.
set -eu
log() { echo "trixie: $*" >&2; }
t0=$(date +%s)
# the locales the translation tests switch to (a minbase root has none generated)
for l in ja_JP en_US de_DE; do
  localedef -i "$l" -f UTF-8 "$l.UTF-8" 2>/dev/null || localedef -i "$l" -f UTF-8 "$l.UTF-8"
done
t1=$(date +%s)
meson setup /build /src --werror -Dtests=true >/tmp/setup.log 2>&1 || { cat /tmp/setup.log; exit 1; }
ninja -C /build >/tmp/ninja.log 2>&1 || { tail -n 60 /tmp/ninja.log; exit 1; }
t2=$(date +%s)
log "built warning-free (--werror) in $((t2 - t1)) s"

# the .debs, as tools/test.sh makes them for the installed suite
root=/build/installed-root
mkdir -p "$root"
debs=$(/src/tools/build-deb.sh /build/deb)
for deb in $debs; do dpkg-deb -x "$deb" "$root"; done
SDTUNER_DEB=$(echo "$debs" | sed -n 1p)
SDTUNER_DEB_APP=$(echo "$debs" | sed -n 2p)
export SDTUNER_DEB SDTUNER_DEB_APP SDTUNER_INSTALLED_ROOT="$root" SDTUNER_REQUIRE_INSTALLED=1
t3=$(date +%s)
log "dpkg-buildpackage in $((t3 - t2)) s"

set --
for s in $SDT_TRIXIE_SUITES; do set -- "$@" --suite "$s"; done
# installed-lite makes roots of its own with debootstrap: the host runs it (for
# bookworm and trixie), not this root; the GUI tests (under Xvfb) are not this tier's
gui=$(meson test -C /build --list --suite gui 2>/dev/null | sed -n 's|^.* / ||p')
# and the three long runs of the benchmark on a throttled loop card (4.5 of the 8.5 min),
# and the fake check's engine on its stand-ins (the suite `check` itself, its power cuts,
# short fakes and whole cards: 6 min, dozens of stand-ins through the same engine on the host's
# kernel; the check over trixie's bus and polkit stays: its writer, full mode and bus
# tests here, the whole check through the helper on trixie's systemd in vm-systemd-trixie):
# the host's kernel and the same code as on the host; SDT_TRIXIE_SKIP= runs them too
skip=$(printf '%s\n' $gui ${SDT_TRIXIE_SKIP-sim-loop verify-card verify-kill check check-device check-powercut check-short})
names=$(meson test -C /build --list "$@" 2>/dev/null | sed -n 's|^.* / ||p' | grep -v "^installed-lite" |
  grep -vxF "$skip" | sort -u)
rc=0
# the stand-in cards here take loop nodes of their own range (tests/fake-card/sdtfakecard.py;
# the host's are 200-254): this tier runs beside the host's tests (tools/test.sh), and must
# never take a node a host's power-cut test unplugged and will plug again
export SDT_FAKE_LOOP_RANGE=140-199
# shellcheck disable=SC2086
meson test -C /build --print-errorlogs --num-processes 2 $names || rc=$?
t4=$(date +%s)
python3 - /build/meson-logs/testlog.json <<'PY' || true
import json, sys
res = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    res[r["name"]] = r["result"]
ok = sum(v in ("OK", "EXPECTEDFAIL") for v in res.values())
skip = sum(v == "SKIP" for v in res.values())
bad = sorted(k for k, v in res.items() if v not in ("OK", "EXPECTEDFAIL", "SKIP"))
print(f"trixie: {ok} passed, {len(bad)} failed, {skip} skipped")
for k in bad:
    print(f"trixie:   {res[k]}: {k}")
PY
log "locales $((t1 - t0)) s, build $((t2 - t1)) s, package $((t3 - t2)) s, tests $((t4 - t3)) s"
exit $rc
