#!/bin/bash
# fake-card.sh - a fake (or genuine) SD card under a loop device, for the
# authenticity check's tests and bench/.  Needs root, FUSE and the built
# sdt-fake-card (path in $SDT_FAKE_CARD).
#
#   fake-card.sh up DIR KIND CLAIM_MIB REAL  (REAL: MiB, or NNNb for bytes)
#       KIND: wrap | zeros | eio | cache | genuine.  Starts the FUSE fake in
#       DIR/fuse, attaches DIR/fuse/card to a loop device (name in DIR/loop),
#       makes ext4 over the whole claimed size with all of its metadata in the
#       low addresses (group 0, journal at the start, no backup superblocks),
#       mounts it at DIR/mnt and writes $FAKE_FILES (default 200) user files of
#       4 KiB to 192 KiB whose SHA-256 sums go to DIR/sums.
#       FAKE_UNMOUNTED=1: unmounted at the end (a card taken out of a Pi, in a reader).
#       FAKE_LAYOUT=raw: no file system and nothing mounted: random bytes in all the
#       card really stores (issue 34: a whole card checked in place).
#       FAKE_LAYOUT=pios: the stock Raspberry Pi OS layout instead: a DOS
#       partition table, partition 1 FAT from 4 MiB ($FAKE_P1_MIB, default 512 MiB, or an eighth of a
#       smaller card), partition 2 ext4 (default options) filling the rest,
#       mounted at DIR/mnt (DIR/part: its node).  FAKE_CACHE: the cache kind's
#       size in bytes (default 4 MiB).  FAKE_LOOP: the loop device node to use
#       (default: the first free one), e.g. one that plug can have again.
#   fake-card.sh verify DIR
#       unmounts, runs e2fsck -fn, mounts again (no page cache left) and checks
#       the sums and that nothing but the user files is in the file system.
#   fake-card.sh down DIR
#       unmounts, detaches, stops the fake and removes DIR.
#   fake-card.sh cut DIR
#       a power cut: from this instant the card takes no write (sdt-fake-card's
#       SIGPWR); what it stored stays in DIR/backing.  Then, as at a shutdown
#       that never comes: unplug.
#   fake-card.sh unplug DIR
#       unmounts DIR/mnt (whatever is mounted under it first), detaches the loop
#       device and stops the fake, keeping DIR/backing: the card out of the slot.
#   fake-card.sh plug DIR
#       the card back in: the fake again from DIR/backing (a cut card powered up),
#       the same loop device node (the check's journal names it), its partitions,
#       DIR/mnt mounted (ext4 replays its journal as at a boot).
set -eu

cmd=$1
dir=$2

fail() { echo "fake-card.sh: $*" >&2; exit 1; }
# a mount right after an umount and e2fsck can find the device still busy for a moment
remount() { mount -o rw,noatime "$1" "$2" 2>/dev/null || { sleep 1; mount -o rw,noatime "$1" "$2"; }; }
# the FUSE fake from DIR/fuse.args over DIR/backing (kept from an earlier start)
fake_start() {
  local d=$1 kind claim real cache i=0
  read -r kind claim real cache <"$d/fuse.args"
  "${SDT_FAKE_CARD:?set SDT_FAKE_CARD to the built sdt-fake-card}" --kind "$kind" \
    --claim "$claim" --real "$real" --cache "$cache" --backing "$d/backing" "$d/fuse" \
    >>"$d/fuse.log" 2>&1 &
  echo $! >"$d/fuse.pid"
  while [ ! -e "$d/fuse/card" ]; do
    i=$((i + 1)); [ $i -lt 100 ] || fail "the FUSE fake did not start: $(cat "$d/fuse.log")"
    sleep 0.1
  done
}
# the partition node DIR/part names, once udev or partx made it
wait_part() {
  local loop=$1 i=0
  [ -b "${loop}p2" ] || partx -a "$loop" 2>/dev/null || true
  while [ ! -b "${loop}p2" ]; do
    i=$((i + 1)); [ $i -lt 50 ] || fail "no partition node ${loop}p2"; sleep 0.1
  done
}
# until the fake's process has ended (after its mount went)
fake_wait() {
  local pid i=0
  [ -s "$1/fuse.pid" ] || return 0
  pid=$(cat "$1/fuse.pid")
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  kill "$pid" 2>/dev/null || true
}

case "$cmd" in
up)
  kind=$3 claim=$4 real=$5
  mkdir -p "$dir/fuse" "$dir/mnt"
  case "$real" in
    *b) real_bytes=${real%b} ;;
    *) real_bytes=$((real * 1048576)) ;;
  esac
  echo "$kind $((claim * 1048576)) $real_bytes ${FAKE_CACHE:-4194304}" >"$dir/fuse.args"
  echo "${FAKE_LAYOUT:-plain}" >"$dir/layout"
  fake_start "$dir"
  if [ "${FAKE_LAYOUT:-}" = raw ]; then
    # a card as it comes, or as a reader shows one: no file system, random bytes in all
    # it really stores (written through the fake: a wrap fake's aliases hold the same),
    # attached and not mounted (issue 34: the check of a whole card)
    # (FAKE_RAW_FILL=zeros: left as zeros, no data to write: quicker to make)
    [ "${FAKE_RAW_FILL:-random}" = zeros ] ||
      head -c "$real_bytes" /dev/urandom | dd of="$dir/fuse/card" bs=1M iflag=fullblock \
        conv=notrunc status=none
    losetup ${FAKE_LOOP:---find} --show "$dir/fuse/card" >"$dir/loop"
    cp "$dir/loop" "$dir/part"
    : >"$dir/sums"
    kill -USR2 "$(cat "$dir/fuse.pid")"
    blockdev --flushbufs "$(cat "$dir/loop")"
    kill -USR1 "$(cat "$dir/fuse.pid")"
    exit 0
  fi
  if [ "${FAKE_LAYOUT:-}" = pios ]; then
    p1=${FAKE_P1_MIB:-$((claim >= 4096 ? 512 : claim / 8))}
    printf 'label: dos\nstart=8192, size=%d, type=c\nstart=%d, type=83\n' \
      $((p1 * 2048)) $((8192 + p1 * 2048)) | sfdisk -q "$dir/fuse/card"
    losetup -P ${FAKE_LOOP:---find} --show "$dir/fuse/card" >"$dir/loop"
    loop=$(cat "$dir/loop")
    wait_part "$loop"
    echo "${loop}p2" >"$dir/part"
    mkfs.vfat -F 32 -n bootfs "${loop}p1" >/dev/null
    mkfs.ext4 -q -F -L rootfs -E nodiscard "${loop}p2"
  else
    losetup ${FAKE_LOOP:---find} --show "$dir/fuse/card" >"$dir/loop"
    loop=$(cat "$dir/loop")
    echo "$loop" >"$dir/part"
    mkfs.ext4 -q -F -b 4096 -O ^resize_inode,sparse_super2 \
      -E num_backup_sb=0,nodiscard,lazy_itable_init=0,lazy_journal_init=0 \
      -J size=8,location=0 "$loop"
  fi
  part=$(cat "$dir/part")
  mount -o rw,noatime "$part" "$dir/mnt"
  # in the top folder: ext4 keeps them in block group 0, the low addresses (a
  # sub-folder would go to another group, where a small fake's own wrap would
  # break them before any check)
  python3 - "$dir/mnt" "${FAKE_FILES:-200}" <<'PY'
import os, random, sys
d, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(n)
for i in range(n):
    with open(os.path.join(d, f"user-{i:03d}.bin"), "wb") as f:
        f.write(os.urandom(rng.randrange(1, 49) * 4096))
PY
  (cd "$dir/mnt" && ls user-*.bin | xargs sha256sum) >"$dir/sums"
  umount "$dir/mnt"
  # the cache kind forgets what only its cache held (data past its real size), and
  # the kernel's cache of the device goes, so that e2fsck and the mount read what
  # the fake really kept
  kill -USR2 "$(cat "$dir/fuse.pid")"
  blockdev --flushbufs "$part" "$loop"
  # the fixture itself must be sound before any check runs
  e2fsck -fn "$part" >"$dir/fsck-before.log" 2>&1 ||
    { cat "$dir/fsck-before.log" >&2; fail "the fake's file system is broken before the check"; }
  remount "$part" "$dir/mnt"
  # and the user files as the card holds them (no page cache after the remount):
  # a fake too small for where ext4 put them has lost them before any check
  (cd "$dir/mnt" && sha256sum --quiet -c "$dir/sums" >/dev/null 2>&1) ||
    fail "the fake lost user files before the check (real size too small for this layout)"
  # from now on the eio kind fails beyond its real size
  kill -USR1 "$(cat "$dir/fuse.pid")"
  # FAKE_UNMOUNTED=1: the card as it comes out of a Pi, in a reader (issue 34)
  [ -z "${FAKE_UNMOUNTED:-}" ] || umount "$dir/mnt"
  ;;
verify)
  part=$(cat "$dir/part")
  umount "$dir/mnt"
  blockdev --flushbufs "$part" "$(cat "$dir/loop")"
  e2fsck -fn "$part" >"$dir/fsck.log" 2>&1 || { cat "$dir/fsck.log" >&2; fail "e2fsck -fn failed"; }
  remount "$part" "$dir/mnt"
  n=$(wc -l <"$dir/sums")
  damaged=$( (cd "$dir/mnt" && sha256sum -c "$dir/sums" 2>/dev/null) | grep -c -v ': OK$' || true)
  [ "$damaged" = 0 ] || fail "$damaged of $n user files damaged"
  extra=$(cd "$dir/mnt" && { find . -mindepth 1 -type f ! -path './lost+found/*' -printf '%P\n' |
    sort | comm -23 - <(sed 's/^[0-9a-f]*  //' "$dir/sums" | sort); } || true)
  [ -z "$extra" ] || fail "left in the file system: $extra"
  echo "verified: e2fsck clean, $n user files intact, nothing else"
  ;;
cut)
  kill -PWR "$(cat "$dir/fuse.pid")"
  ;;
unplug)
  # what is mounted under the card's mount (a tmpfs /run), deepest first, then the card
  for m in $(findmnt -rn -o TARGET | grep "^$dir/mnt/" | sort -r); do umount "$m" || umount -l "$m"; done
  if mountpoint -q "$dir/mnt"; then
    # a freeze lives in memory and ends with the power: a check killed while it had the
    # file system frozen left it so, and a frozen file system does not unmount
    fsfreeze -u "$dir/mnt" 2>/dev/null || true
    i=0
    until umount "$dir/mnt" 2>/dev/null; do
      i=$((i + 1))
      if [ $i -ge 300 ]; then
        fuser -vm "$dir/mnt" >&2 || true
        fail "cannot unmount the card's file system: still in use"
      fi
      sleep 0.1
    done
  fi
  losetup -d "$(cat "$dir/loop")"
  i=0
  while ! fusermount3 -u "$dir/fuse" 2>/dev/null; do
    # the loop device lets go of the file a moment after its detach, and only once no
    # program has the device open: a check being killed, or another program's probe of
    # every block device (libblkid: `sdtunerctl devices` in the tests beside this one);
    # under a loaded machine that has taken more than 5 s (ci6)
    i=$((i + 1))
    if [ $i -eq 100 ]; then
      # 10 s: something waits on the fake itself (ci7: 30 s on a quiet machine, fuser
      # seeing nobody). The card is out of its reader now: the fake goes, so that a
      # request still waiting on it fails and its program lets go of the loop device.
      # What waited is said first (a process in D state, the fake's own state).
      {
        echo "fake-card.sh: the loop device has not let go of the fake after 10 s:"
        ps -eo pid,stat,wchan:32,args | awk 'NR == 1 || $2 ~ /^D/'
        [ ! -s "$dir/fuse.pid" ] || ps -o pid,stat,wchan:32,args -p "$(cat "$dir/fuse.pid")"
        # a mount namespace made while the card was mounted keeps a copy of its mounts
        # (tests/roots/drop-card-mounts.sh): the processes in one
        for f in $(grep -l "$dir" /proc/[0-9]*/mountinfo 2>/dev/null); do
          p=${f#/proc/}
          p=${p%/mountinfo}
          echo "mount namespace of $p holds it: $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)"
        done
      } >&2
      [ ! -s "$dir/fuse.pid" ] || kill -KILL "$(cat "$dir/fuse.pid")" 2>/dev/null || true
    fi
    if [ $i -ge 300 ]; then
      echo "fake-card.sh: who holds $(cat "$dir/loop") or the fake:" >&2
      fuser -v "$(cat "$dir/loop")" "$dir/fuse/card" 2>&1 | grep -v '^Cannot stat' >&2 || true
      fail "cannot unmount the fake: still in use"
    fi
    sleep 0.1
  done
  fake_wait "$dir"
  ;;
plug)
  fake_start "$dir"
  [ "$(cut -d' ' -f1 "$dir/fuse.args")" != eio ] || kill -USR1 "$(cat "$dir/fuse.pid")"
  loop=$(cat "$dir/loop")
  flags=
  [ "$(cat "$dir/layout")" != pios ] || flags=-P
  i=0
  # the same node: its detach may still be finishing
  while ! losetup $flags "$loop" "$dir/fuse/card" 2>"$dir/losetup.err"; do
    i=$((i + 1))
    [ $i -lt 50 ] || fail "cannot attach the card at $loop again: $(cat "$dir/losetup.err")"
    sleep 0.1
  done
  [ "$(cat "$dir/layout")" != pios ] || wait_part "$loop"
  # a card with no file system is only attached, as a reader shows it
  [ "$(cat "$dir/layout")" = raw ] || remount "$(cat "$dir/part")" "$dir/mnt"
  ;;
down)
  [ -d "$dir" ] || exit 0
  for m in $(findmnt -rn -o TARGET | grep "^$dir/mnt/" | sort -r); do umount "$m" || umount -l "$m"; done
  if mountpoint -q "$dir/mnt" 2>/dev/null; then umount "$dir/mnt" || umount -l "$dir/mnt"; fi
  # only while it is still ours (after an unplug the node may be another's by now)
  if [ -s "$dir/loop" ] && [ "$(losetup -n -O BACK-FILE "$(cat "$dir/loop")" 2>/dev/null)" = "$dir/fuse/card" ]; then
    losetup -d "$(cat "$dir/loop")" 2>/dev/null || true
  fi
  if mountpoint -q "$dir/fuse" 2>/dev/null; then
    fusermount3 -u "$dir/fuse" 2>/dev/null || umount -l "$dir/fuse" || true
  fi
  fake_wait "$dir"
  rm -rf "$dir"
  ;;
*)
  fail "unknown command $cmd"
  ;;
esac
