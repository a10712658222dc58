#!/bin/sh
# drop-card-mounts.sh --in-new-namespace COMMAND... - run as unshare's command (a mount
# namespace just made): the copies of the tests' stand-in cards' mounts (file systems on
# loop devices, FUSE fakes) let go, then COMMAND.
#
# A new mount namespace copies every mount there is at that instant, and a copy keeps the
# file system alive after the test unmounts its own: the stand-in's loop device then never
# lets go of its FUSE fake, and the test's unplug failed "still in use" with no process
# holding the device (ci7 and ci8: check-powercut while mmdebstrap built a tier's root in
# such a namespace for minutes). None of those mounts is the command's. Only in a new
# namespace: in the host's this would unmount the running tests' cards, so the first
# argument must say so.
set -eu
[ "${1:-}" = --in-new-namespace ] || {
  echo "usage: drop-card-mounts.sh --in-new-namespace COMMAND... (as unshare's command)" >&2
  exit 2
}
shift
findmnt -rn -o TARGET,SOURCE,FSTYPE | awk '$3 ~ /^fuse/ || $2 ~ /^\/dev\/loop/ { print $1 }' |
  sort -r | while read -r m; do
  # findmnt -r writes a space in a path as \x20
  umount -l "$(printf '%b' "$m")" 2>/dev/null || true
done
exec "$@"
