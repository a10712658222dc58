#!/bin/sh
# fake-card.sh - a fake (or genuine) SD card under a loop device, for the
# authenticity check's tests and bench/.  Needs root, FUSE and the built
# sdt-fake-card (path in $SDT_FAKE_CARD).
#
#   fake-card.sh up DIR KIND CLAIM_MIB REAL  (REAL: MiB, or NNNb for bytes)
#       KIND: wrap | zeros | eio | genuine.  Starts the FUSE fake in DIR/fuse,
#       attaches DIR/fuse/card to a loop device (name in DIR/loop), makes ext4
#       over the whole claimed size with all of its metadata in the low
#       addresses (group 0, journal at the start, no backup superblocks), mounts
#       it at DIR/mnt and writes user files whose SHA-256 sums go to DIR/sums.
#   fake-card.sh verify DIR
#       unmounts, runs e2fsck -fn, mounts again (no page cache left) and checks
#       the sums and that nothing but the user files is in the file system.
#   fake-card.sh down DIR
#       unmounts, detaches, stops the fake and removes DIR.
set -eu

cmd=$1
dir=$2

fail() { echo "fake-card.sh: $*" >&2; exit 1; }

case "$cmd" in
up)
  kind=$3 claim=$4 real=$5
  fake=${SDT_FAKE_CARD:?set SDT_FAKE_CARD to the built sdt-fake-card}
  mkdir -p "$dir/fuse" "$dir/mnt"
  case "$real" in
    *b) real_bytes=${real%b} ;;
    *) real_bytes=$((real * 1048576)) ;;
  esac
  "$fake" --kind "$kind" --claim $((claim * 1048576)) --real "$real_bytes" \
    --backing "$dir/backing" "$dir/fuse" >"$dir/fuse.log" 2>&1 &
  echo $! >"$dir/fuse.pid"
  i=0
  while [ ! -e "$dir/fuse/card" ]; do
    i=$((i + 1)); [ $i -lt 100 ] || fail "the FUSE fake did not start: $(cat "$dir/fuse.log")"
    sleep 0.1
  done
  losetup --find --show "$dir/fuse/card" >"$dir/loop"
  loop=$(cat "$dir/loop")
  mkfs.ext4 -q -F -b 4096 -O ^resize_inode,sparse_super2 \
    -E num_backup_sb=0,nodiscard,lazy_itable_init=0,lazy_journal_init=0 \
    -J size=8,location=0 "$loop"
  mount -o rw,noatime "$loop" "$dir/mnt"
  for n in 1 2 3 4 5 6 7 8; do
    head -c $((n * 262144 + 1048576)) /dev/urandom >"$dir/mnt/user-$n.bin"
  done
  (cd "$dir/mnt" && sha256sum user-*.bin) >"$dir/sums"
  umount "$dir/mnt"
  # the fixture itself must be sound before any check runs
  e2fsck -fn "$loop" >"$dir/fsck-before.log" 2>&1 ||
    { cat "$dir/fsck-before.log" >&2; fail "the fake's file system is broken before the check"; }
  mount -o rw,noatime "$loop" "$dir/mnt"
  # from now on the eio kind fails beyond its real size
  kill -USR1 "$(cat "$dir/fuse.pid")"
  ;;
verify)
  loop=$(cat "$dir/loop")
  umount "$dir/mnt"
  e2fsck -fn "$loop" >"$dir/fsck.log" 2>&1 || { cat "$dir/fsck.log" >&2; fail "e2fsck -fn failed"; }
  mount -o rw,noatime "$loop" "$dir/mnt"
  (cd "$dir/mnt" && sha256sum --quiet -c "$dir/sums") || fail "user files changed"
  extra=$(cd "$dir/mnt" && ls -A | grep -v -e '^user-[1-8]\.bin$' -e '^lost+found$' || true)
  [ -z "$extra" ] || fail "left in the file system: $extra"
  echo "verified: e2fsck clean, 8 user files intact, nothing else"
  ;;
down)
  [ -d "$dir" ] || exit 0
  if mountpoint -q "$dir/mnt" 2>/dev/null; then umount "$dir/mnt" || umount -l "$dir/mnt"; fi
  if [ -s "$dir/loop" ]; then losetup -d "$(cat "$dir/loop")" 2>/dev/null || true; fi
  if mountpoint -q "$dir/fuse" 2>/dev/null; then
    fusermount3 -u "$dir/fuse" 2>/dev/null || umount -l "$dir/fuse" || true
  fi
  if [ -s "$dir/fuse.pid" ]; then
    pid=$(cat "$dir/fuse.pid")
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill "$pid" 2>/dev/null || true
  fi
  rm -rf "$dir"
  ;;
*)
  fail "unknown command $cmd"
  ;;
esac
