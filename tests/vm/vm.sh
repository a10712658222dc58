#!/bin/bash
# vm.sh - the steps of the real-kernel tier (tests/vm/test-vm.py drives them; see vmlib.sh):
#
#   vm.sh prepare ARCH SRCDIR WORK   Debian's kernel, the board's dtb and busybox; sdtunerctl
#                                    cross-built from SRCDIR for ARCH (only the CLI: no GTK, no
#                                    helper) against a sysroot of Debian's ARCH packages; the
#                                    initramfs WORK/base.cpio.gz holding /init (guest-init.sh),
#                                    busybox, sdtunerctl and its libraries
#   vm.sh card ARCH WORK CONFIG [SIZE]
#                                    a fresh card WORK/card.img with Raspberry Pi OS storage,
#                                    CONFIG as /boot/firmware/config.txt
#   vm.sh fio ARCH WORK              WORK/fio.cpio.gz: Debian's fio and strace for ARCH in
#                                    /opt/fio (vmlib.sh's vm_fio), to add to a boot
#   vm.sh boot ARCH WORK NAME SCRIPT [tryboot]
#                                    boot WORK/card.img as it is, running SCRIPT (see
#                                    guest-init.sh); console in WORK/NAME.log, the markers'
#                                    nonce in WORK/NAME.nonce. With "tryboot" the device tree
#                                    says the firmware made this boot from tryboot.txt.
#                                    SDT_VM_ADD_CPIO=FILE appends FILE to this boot's initramfs.
#
# ARCH: arm64 (Pi 3, -M raspi3b) or armhf (Pi 2, -M raspi2b), the guest's packages (kernel,
# busybox, the sysroot) from bookworm; ARCH-trixie (e.g. armhf-trixie) takes them from trixie
# (armhf: 64-bit time_t, the t64 libraries). Exit 77: a step cannot run here
# (under CI=true that is exit 1 instead).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/vm/vmlib.sh
. "$HERE/vmlib.sh"

# what sdtunerctl links: glib/gio, json-glib, libudev, libblkid, liburing (apt adds the closure)
SYSROOT_PKGS="libc6-dev libglib2.0-dev libjson-glib-dev libudev-dev libblkid-dev liburing-dev"

prepare() {
  local src=$1 work=$2 build root t0 t
  mkdir -p "$work"
  work=$(cd "$work" && pwd)
  t0=$(date +%s)
  vm_host_tools
  command -v "$VM_TRIPLE-gcc" >/dev/null || vm_cannot "no $VM_TRIPLE-gcc (tools/deps.sh test installs it)"
  vm_kernel "$work"
  vm_busybox "$work"
  # shellcheck disable=SC2086 # a list of names
  vm_sysroot "$work/sysroot" $SYSROOT_PKGS
  vm_cross_file "$work/cross.ini.new" "$work/sysroot"
  build=$work/build
  # a changed cross file needs a fresh build directory
  if ! cmp -s "$work/cross.ini.new" "$work/cross.ini" || [ ! -f "$build/build.ninja" ]; then
    rm -rf "$build"
    mv "$work/cross.ini.new" "$work/cross.ini"
    meson setup "$build" "$src" --cross-file "$work/cross.ini" --werror -Dgui=disabled \
      -Dhelper=disabled -Dtests=false -Dman=disabled >"$work/meson-setup.log" 2>&1 ||
      { tail -n 30 "$work/meson-setup.log" >&2; echo "vm.sh: meson setup for $VM_ARCH failed" >&2; exit 1; }
  fi
  rm -f "$work/cross.ini.new"
  ninja -C "$build" src/cli/sdtunerctl >"$work/ninja.log" 2>&1 ||
    { tail -n 30 "$work/ninja.log" >&2; echo "vm.sh: the $VM_ARCH build of sdtunerctl failed" >&2; exit 1; }
  vm_log "sdtunerctl built for $VM_ARCH ($(($(date +%s) - t0)) s so far)"

  root=$work/initramfs
  rm -rf "$root"
  mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,etc/sdt}
  cp "$work/busybox" "$root/bin/busybox"
  for t in sdt-vm-reboot sdt-vm-uptime sdt-vm-rawread; do
    "$VM_TRIPLE-gcc" -O2 -Wall -Werror -static -pthread -o "$root/bin/$t" "$HERE/$t.c"
  done
  install -m 755 "$HERE/guest-init.sh" "$root/init"
  vm_stage "$root" "$work/sysroot" "$build/src/cli/sdtunerctl"
  vm_initramfs "$work/base.cpio.gz" "$root"
  vm_log "prepared $VM_ARCH in $(($(date +%s) - t0)) s: initramfs $(du -h "$work/base.cpio.gz" | cut -f1)"
}

card() {
  local work=$1 config=$2 size=${3:-4G}
  vm_card_pios "$work/card.img" "$config" "$HERE/rootfs" "$size"
  cp "$config" "$work/stock-config.txt"
}

fio_cpio() {
  local work=$1
  mkdir -p "$work"
  vm_host_tools
  vm_fio "$work/fio.cpio.gz" "$work"
  vm_log "fio and strace for $VM_ARCH: $(du -h "$work/fio.cpio.gz" | cut -f1)"
}

boot() {
  local work=$1 name=$2 script=$3 mode=${4:-} add dtb
  dtb=$work/board.dtb
  add=$work/$name.add
  rm -rf "$add"
  mkdir -p "$add/etc/sdt"
  od -An -N6 -tx1 /dev/urandom | tr -d ' \n' >"$add/etc/sdt/nonce"
  cp "$add/etc/sdt/nonce" "$work/$name.nonce"
  cp "$script" "$add/etc/sdt/boot.sh"
  vm_cpio_add "$work/$name.add.cpio.gz" "$add"
  cat "$work/base.cpio.gz" ${SDT_VM_ADD_CPIO:+"$SDT_VM_ADD_CPIO"} "$work/$name.add.cpio.gz" >"$work/$name.initrd"
  if [ "$mode" = tryboot ]; then
    dtb=$work/$name.dtb
    vm_dtb_tryboot "$work/board.dtb" "$dtb"
  fi
  vm_boot "$work/$name.log" "$work/kernel" "$dtb" "$work/$name.initrd" "$work/card.img"
}

[ $# -ge 3 ] || { sed -n '2,/^set/p' "$0" | sed '$d' >&2; exit 2; }
cmd=$1 arch=$2
shift 2
case "$arch" in
*-*) vm_arch "${arch%%-*}" "${arch#*-}" ;;
*) vm_arch "$arch" ;;
esac
case "$cmd" in
prepare) prepare "$@" ;;
card) card "$@" ;;
fio) fio_cpio "$@" ;;
boot) boot "$@" ;;
*) echo "vm.sh: unknown step '$cmd'" >&2; exit 2 ;;
esac
