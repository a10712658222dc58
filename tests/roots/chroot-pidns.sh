#!/bin/sh
# chroot-pidns.sh ROOT COMMAND... - COMMAND chrooted into ROOT in a PID namespace of its own,
# with a /proc of that namespace at ROOT/proc.
#
# A package's maintainer script run in a chroot sees the host's processes through a /proc
# mounted from the host's, and start-stop-daemon --exec matches a process whose
# /proc/PID/exe names the same path as the chroot's file, whichever file that is: polkitd's
# postinst (trixie, on a system not booted by systemd) runs `start-stop-daemon --stop --exec
# /usr/lib/polkit-1/polkitd` and so stopped every polkitd of the host, the tests' own among
# them (a GUI test then saw "org.freedesktop.PolicyKit1 was not provided"). Here it sees only
# the namespace's processes (tests/roots/test-chroot-pidns.py).
set -eu
root=${1:?usage: chroot-pidns.sh ROOT COMMAND...}
shift
# (the mount namespace --mount-proc makes copies the host's mounts: drop-card-mounts.sh)
exec unshare --pid --fork --mount-proc="$root/proc" \
  "$(dirname "$0")/drop-card-mounts.sh" --in-new-namespace chroot "$root" "$@"
