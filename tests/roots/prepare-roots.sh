#!/bin/sh
# prepare-roots.sh SRCDIR BUILDDIR - make (or find cached) the amd64 Debian roots that the
# host's tests boot or build in, ahead of them: test `roots` in the suite vm, which
# tools/test.sh runs beside the host's tests (so the roots are made while the host is
# busy with tests that wait on cards, polkit and AT-SPI, not in the tests that need
# them, one after the other: 7 min on a cold machine). Each with its own producer's
# package list, through tests/roots/make-root.sh (cached in SDT_VM_CACHE, a lock per
# suite and architecture: a test that needs a root being made waits for it):
#   the trixie tier's build root          tests/trixie/tier.sh --make-root-only
#   the agents' desktops (bookworm, trixie) tests/agents/test-agents*.py --make-root-only
#   the Lite installs' bare roots         make-root.sh SUITE ARCH (made on the way)
# Needs root. Exits 1 naming the root that could not be made (77 where the tools are
# missing, 1 under CI=true).
set -eu
src=$(cd "${1:?usage: prepare-roots.sh SRCDIR BUILDDIR}" && pwd)
build=${2:?usage: prepare-roots.sh SRCDIR BUILDDIR}
log() { echo "prepare-roots: $*" >&2; }
if [ "$(id -u)" -ne 0 ] || ! command -v debootstrap >/dev/null; then
  [ "${CI:-}" != true ] || { log "FAILED: needs root and debootstrap"; exit 1; }
  log "SKIP: needs root and debootstrap"
  exit 77
fi
rc=0
step() {
  what=$1
  shift
  t0=$(date +%s)
  if "$@" >&2; then
    log "$what: ready in $(($(date +%s) - t0)) s"
  else
    r=$?
    log "$what: FAILED (exit $r)"
    [ "$r" -eq 77 ] && [ "$rc" -eq 0 ] && rc=77
    [ "$r" -eq 77 ] || rc=1
  fi
}
step "trixie tier root" sh "$src/tests/trixie/tier.sh" "$src" "$build" --make-root-only
step "agents' bookworm root" python3 "$src/tests/agents/test-agents.py" "$src" "$build" --make-root-only
step "agents' trixie root" python3 "$src/tests/agents/test-agents-trixie.py" "$src" "$build" \
  --make-root-only
exit $rc
