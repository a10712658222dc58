#!/bin/bash
# card.sh - an SD card stand-in for the benchmark: a loop device over a FILLED image
# (a sparse image reads holes without I/O and gives false numbers) with ext4 on it,
# optionally throttled with cgroup block-I/O limits to SD-card speeds.  Runs COMMAND
# with the card described in the environment, then removes everything: the cgroup,
# the mount, the loop device and the image, on every exit (also Ctrl-C and kill).
#
# Usage, as root:
#   bench/card.sh [--size MB] [--bps BYTES_PER_S] [--iops N] [--ram] -- COMMAND [ARGS...]
#     --size MB   image size (default 512)
#     --bps B     read and write bandwidth limit in bytes/s, e.g. 20000000 (20 MB/s)
#     --iops N    read and write IOPS limit, e.g. 2000
#     --ram       image on /dev/shm (tmpfs): a RAM-speed device
#   COMMAND sees CARD_DEV (/dev/loopN), CARD_MNT (mount point), CARD_MAJMIN, CARD_CGROUP
#   (the cgroup directory with cgroup.procs, empty when not throttled), CARD_BPS, CARD_IOPS.
#
# cgroup v2 with the io controller: io.max; otherwise cgroup v1: blkio.throttle.*
# (the recipe of docs TEST-RECIPES.md section 5).  Image in $IMG_DIR (default /var/tmp).
set -euo pipefail
SIZE_MB=512 BPS=0 IOPS=0 RAM=0
while [ $# -gt 0 ]; do
  case "$1" in
  --size) SIZE_MB=$2; shift 2 ;;
  --bps) BPS=$2; shift 2 ;;
  --iops) IOPS=$2; shift 2 ;;
  --ram) RAM=1; shift ;;
  --) shift; break ;;
  *) echo "card.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--size MB] [--bps B] [--iops N] [--ram] -- COMMAND" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "card.sh: needs root (losetup, mount, cgroups)" >&2; exit 2; }

IMG_DIR=${IMG_DIR:-/var/tmp}
[ "$RAM" = 1 ] && IMG_DIR=/dev/shm
IMG= LOOP= MNT= CG= CHILD=
cleanup() {
  set +e
  if [ -n "$CHILD" ]; then kill "$CHILD" 2>/dev/null; wait "$CHILD" 2>/dev/null; fi
  if [ -n "$MNT" ]; then umount "$MNT" && rmdir "$MNT"; fi
  if [ -n "$CG" ]; then
    # anything the command left in the cgroup goes back to the root group first
    while read -r p; do echo "$p" > "$(dirname "$CG")/cgroup.procs"; done < "$CG/cgroup.procs"
    rmdir "$CG" || echo "card.sh: could not remove $CG" >&2
  fi
  if [ -n "$LOOP" ]; then losetup -d "$LOOP" || echo "card.sh: could not detach $LOOP" >&2; fi
  if [ -n "$IMG" ]; then rm -f "$IMG"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
# in the background and wait: a trapped signal interrupts wait, not a foreground job
run() { "$@" & CHILD=$!; wait "$CHILD"; local rc=$?; CHILD=; return $rc; }

IMG=$(mktemp -p "$IMG_DIR" --suffix=.img sdt-card-$$.XXXXXX)
truncate -s "${SIZE_MB}M" "$IMG"
LOOP=$(losetup --find --show --direct-io=on "$IMG")
DEV=${LOOP#/dev/}
MM=$(cat "/sys/block/$DEV/dev")
# fill every block with random data, then ext4 without discard (a discard would
# punch the image's blocks out again and make it sparse)
run dd if=/dev/urandom of="$LOOP" bs=4M count=$((SIZE_MB / 4)) oflag=direct status=none
run mkfs.ext4 -q -F -E nodiscard "$LOOP"
MNT=$(mktemp -d /var/tmp/sdt-card-mnt-$$.XXXXXX)
mount -o nodiscard "$LOOP" "$MNT"
chmod 755 "$MNT"
sync
echo 3 > /proc/sys/vm/drop_caches

if [ "$BPS" != 0 ] || [ "$IOPS" != 0 ]; then
  if grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then      # cgroup v2
    grep -qw io /sys/fs/cgroup/cgroup.subtree_control ||
      echo +io > /sys/fs/cgroup/cgroup.subtree_control
    CG=/sys/fs/cgroup/sdt-card-$$; mkdir "$CG"
    LIMIT=$MM
    [ "$IOPS" != 0 ] && LIMIT="$LIMIT riops=$IOPS wiops=$IOPS"
    [ "$BPS" != 0 ] && LIMIT="$LIMIT rbps=$BPS wbps=$BPS"
    echo "$LIMIT" > "$CG/io.max"
  elif [ -d /sys/fs/cgroup/blkio ]; then                                  # cgroup v1
    CG=/sys/fs/cgroup/blkio/sdt-card-$$; mkdir "$CG"
    if [ "$IOPS" != 0 ]; then
      echo "$MM $IOPS" > "$CG/blkio.throttle.read_iops_device"
      echo "$MM $IOPS" > "$CG/blkio.throttle.write_iops_device"
    fi
    if [ "$BPS" != 0 ]; then
      echo "$MM $BPS" > "$CG/blkio.throttle.read_bps_device"
      echo "$MM $BPS" > "$CG/blkio.throttle.write_bps_device"
    fi
  else
    echo "card.sh: no cgroup io (v2) or blkio (v1) controller" >&2; exit 1
  fi
fi

echo "card: $LOOP ($MM) ${SIZE_MB} MiB filled image $IMG, ext4 at $MNT," \
  "throttle: ${BPS} B/s, ${IOPS} IOPS${CG:+ via $CG}" >&2
export CARD_DEV=$LOOP CARD_MNT=$MNT CARD_MAJMIN=$MM CARD_CGROUP=$CG CARD_BPS=$BPS CARD_IOPS=$IOPS
rc=0
run "$@" || rc=$?
exit $rc
