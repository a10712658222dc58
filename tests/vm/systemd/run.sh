#!/bin/bash
# run.sh BUILDDIR [SUITE] - the project's package on a systemd boot of the emulated Pi 3
# (meson suite "vm", tests "vm-systemd" (bookworm) and "vm-systemd-trixie"; issue 21 item 5
# and defect 6, issue 32).
#
#  1. the project's arm64 .deb, cross-built with its own packaging: bookworm's against this
#     machine's arm64 libraries (build-deb-arm64.sh), trixie's in a trixie build root
#     (build-deb-root.sh)
#  2. a Debian SUITE (bookworm: 12, trixie: 13) arm64 system: mmdebstrap minbase with the
#     package's Depends, cached (make-root.sh), the .deb installed with dpkg -i, a user "pi",
#     the test driver unit (guest/)
#  3. the card as Raspberry Pi OS lays it out: FAT /boot/firmware with the stock
#     bookworm config.txt (tests/vm/config-arm64.txt), ext4 root
#  4. Debian's arm64 kernel of SUITE (bookworm 6.1, trixie 6.12) with the upstream bcm2837-rpi-3-b.dtb on
#     qemu-system-aarch64 -M raspi3b, the card as -drive if=sd, an initramfs that
#     loads the MMC modules and switch_roots to systemd
#  5. boot 1: helper by D-Bus activation, info/health/recommend/apply over the bus,
#     reboot; boot 2 of the same card: sd-tuner-verify.service at boot, its decision
#     in status, the boot's critical chain (check-results.py asserts)
#
# SDTUNER_VM_DEB=path.deb boots that arm64 package instead of building one.
# The kernel, busybox, initramfs, card and boot come from tests/vm/vmlib.sh. Downloads
# (.debs) and the roots' tarballs are cached in SDT_VM_CACHE (default /var/cache/sd-tuner-vm);
# everything built goes to BUILDDIR/vm-systemd (trixie: BUILDDIR/vm-systemd-trixie), console
# logs included. Exit 77 (skip) when a step cannot
# run, except under CI=true, where that fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
builddir=${1:?usage: run.sh BUILDDIR [SUITE]}
suite=${2:-bookworm}
W=$builddir/vm-systemd
[ "$suite" = bookworm ] || W=$W-$suite
. "$here/../vmlib.sh"
vm_arch arm64 "$suite"
BOOT_TIMEOUT=${SDT_VM_BOOT_TIMEOUT:-1200}
T0=$(date +%s)
log() { echo "vm-systemd ($suite) [$(($(date +%s) - T0)) s]: $*" >&2; }
skip_or_fail() { vm_cannot "$@"; }
fail() { log "FAIL: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || skip_or_fail "needs root (mmdebstrap, chroot, binfmt_misc)"
"$top/tools/deps.sh" vm >&2 || skip_or_fail "tools/deps.sh vm could not install the VM tier's packages"
vm_host_tools
for t in mmdebstrap qemu-aarch64-static aarch64-linux-gnu-gcc dpkg-buildpackage chroot; do
  command -v "$t" >/dev/null || skip_or_fail "$t is missing (tools/deps.sh vm)"
done
mkdir -p "$W"
W=$(cd "$W" && pwd)

# ------------------------------------------------------------ 1. the .deb
if [ -n "${SDTUNER_VM_DEB:-}" ]; then
  # another build of the package (e.g. main's, to see a defect this tier catches)
  deb=$SDTUNER_VM_DEB
  log "using the given package $deb"
elif [ "$suite" = bookworm ]; then
  log "cross-building the arm64 package"
  deb=$("$here/build-deb-arm64.sh" "$W/deb-arm64") || fail "the arm64 package did not build"
else
  log "cross-building the arm64 package in a $suite build root"
  deb=$("$here/build-deb-root.sh" "$suite" "$W/deb-arm64") ||
    fail "the arm64 package did not build in the $suite build root"
fi
T_DEB=$(date +%s)

# ------------------------------------------------------------ 2. the system
# the root holds what the package depends on (the first of each alternative), so that its
# dpkg -i needs nothing more
deps=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*//; s/:.*//; s/[[:space:]]//g' |
  sed '/^$/d')
log "the $suite arm64 root (mmdebstrap, cached)"
# shellcheck disable=SC2086 # a list of names
tarball=$("$here/make-root.sh" "$suite" $deps) || fail "the $suite arm64 root could not be made"
R=$W/root
if [ -d "$R" ]; then
  findmnt -rn -o TARGET | { grep "^$R/" || true; } | sort -r | while read -r m; do umount -l "$m"; done
  rm -rf --one-file-system "$R"
fi
mkdir -p "$R"
tar -C "$R" --numeric-owner -xf "$tarball"
T_ROOT=$(date +%s)
cp "$deb" "$R/tmp/sd-tuner.deb"
chroot "$R" dpkg -i /tmp/sd-tuner.deb >"$W/dpkg-i.log" 2>&1 ||
  { cat "$W/dpkg-i.log" >&2; fail "dpkg -i of the project's package failed in the arm64 system"; }
rm -f "$R/tmp/sd-tuner.deb"
chroot "$R" useradd -m -s /bin/sh pi
echo sdtuner-vm >"$R/etc/hostname"
od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$R/etc/machine-id"
echo >>"$R/etc/machine-id"
cp "$here/../rootfs/etc/fstab" "$R/etc/fstab"   # Pi OS's: / and /boot/firmware by PARTUUID
mkdir -p "$R/boot/firmware"
cp "$here/../rootfs/boot/config.txt" "$R/boot/config.txt"   # bookworm's stub
ln -sfn /usr/lib/systemd/system/multi-user.target "$R/etc/systemd/system/default.target"
# the console carries the results: no login prompt on it
for u in serial-getty@ttyAMA0.service getty@tty1.service; do
  ln -sfn /dev/null "$R/etc/systemd/system/$u"
done
install -D -m 0755 "$here/guest/guest-test.sh" "$R/usr/local/lib/sdt-vm-test/guest-test.sh"
install -D -m 0644 "$here/guest/sdt-vm-test.service" "$R/etc/systemd/system/sdt-vm-test.service"
mkdir -p "$R/etc/systemd/system/multi-user.target.wants"
ln -sfn /etc/systemd/system/sdt-vm-test.service "$R/etc/systemd/system/multi-user.target.wants/"
NONCE=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
mkdir -p "$R/etc/sdt-vm-test"
echo "$NONCE" >"$R/etc/sdt-vm-test/nonce"
# the fake check through the helper runs on one of the two suites only: trixie, what
# Raspberry Pi OS ships (under TCG it reads about 12 000 blocks of the emulated card,
# 3 to 4 min; the unit and its sandbox are the same on bookworm). SDT_VM_CHECK=1 runs it
# on bookworm too, SDT_VM_CHECK=0 on neither.
with_check=${SDT_VM_CHECK:-$([ "$suite" = trixie ] && echo 1 || echo 0)}
[ "$with_check" = 1 ] && touch "$R/etc/sdt-vm-test/check"
[ -L "$R/etc/systemd/system/multi-user.target.wants/sd-tuner-verify.service" ] ||
  fail "dpkg -i did not enable sd-tuner-verify.service"

# ------------------------------------------------------------ 3. kernel, dtb, initramfs
# tests/vm/vmlib.sh: Debian's arm64 kernel and busybox from its private apt state, the
# upstream dtb with the board revision, the module initramfs, the Pi OS card
vm_kernel "$W"
vm_busybox "$W"
I=$W/initramfs
rm -rf "$I"
mkdir -p "$I/bin"
cp "$W/busybox" "$I/bin/busybox"
cp "$here/initramfs-init.sh" "$I/init"
vm_initramfs "$W/initramfs.cpio.gz" "$I"

# ------------------------------------------------------------ 4. the card
# the layout of vm_card_pios (Pi OS's disk id, p1 FAT32 bootfs made as pi-gen makes it,
# p2 ext4 rootfs), written here because the root is a whole Debian system whose owners,
# groups and set-id bits mkfs.ext4 -d must keep as they are (vm_card_pios owns it all to root)
IMG=$W/card.img
rm -f "$IMG"
truncate -s 4G "$IMG"
printf 'label: dos\nlabel-id: 0x5d7e1a2b\nstart=8192, size=524288, type=c\nstart=532480, type=83\n' |
  sfdisk -q "$IMG"
mkfs.vfat -F 32 -s 4 -n bootfs --offset 8192 "$IMG" $((524288 / 2)) >/dev/null 2>&1 ||
  fail "mkfs.vfat failed"
printf 'console=serial0,115200 console=tty1 root=PARTUUID=5d7e1a2b-02 rootfstype=ext4 fsck.repair=yes rootwait\n' >"$W/cmdline.txt"
MTOOLS_SKIP_CHECK=1 mcopy -o -i "$IMG@@$((8192 * 512))" "$here/../config-arm64.txt" ::/config.txt
MTOOLS_SKIP_CHECK=1 mcopy -o -i "$IMG@@$((8192 * 512))" "$W/cmdline.txt" ::/cmdline.txt
p2_sect=$(($(stat -c %s "$IMG") / 512 - 532480))
mkfs.ext4 -q -F -L rootfs -d "$R" -E offset=$((532480 * 512)) "$IMG" $((p2_sect / 2))k ||
  fail "mkfs.ext4 -d of the root failed"
T_CARD=$(date +%s)
log "card ready: deb $((T_DEB - T0)) s, root $((T_ROOT - T_DEB)) s, install+kernel+card $((T_CARD - T_ROOT)) s"

# ------------------------------------------------------------ 5. two boots of the card
# udev under TCG on a loaded machine can take longer than systemd's 90 s for the card's
# /dev/disk/by-partuuid links (seen: emergency mode, /boot/firmware not mounted)
boot() {
  local n=$1 rc=0
  log "boot $n (console: $W/console-$n.log)"
  VM_BOOT_TIMEOUT=$BOOT_TIMEOUT vm_boot "$W/console-$n.log" "$W/kernel" "$W/board.dtb" \
    "$W/initramfs.cpio.gz" "$IMG" "systemd.default_device_timeout_sec=900" || rc=$?
  [ "$rc" -ne 124 ] || { tail -n 30 "$W/console-$n.log" >&2; fail "boot $n did not end within $BOOT_TIMEOUT s"; }
  [ "$rc" -eq 0 ] || { tail -n 30 "$W/console-$n.log.qemu" >&2; fail "boot $n: qemu exit $rc"; }
}
boot 1
grep -q '^### SDT-REBOOT' "$W/console-1.log" || { tail -n 40 "$W/console-1.log" >&2; fail "boot 1 did not reach its reboot"; }
boot 2
grep -q '^### SDT-DONE' "$W/console-2.log" || { tail -n 40 "$W/console-2.log" >&2; fail "boot 2 did not finish"; }
T_END=$(date +%s)
log "boots: $((T_END - T_CARD)) s; whole tier $((T_END - T0)) s"
python3 "$here/check-results.py" --nonce "$NONCE" --stock-config "$here/../config-arm64.txt" \
  --with-check "$with_check" \
  "$W/console-1.log" "$W/console-2.log"
