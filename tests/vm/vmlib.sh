# shellcheck shell=bash
# vmlib.sh - sourced by bash: boot a real Debian kernel on QEMU's emulated Raspberry Pi,
# from Debian packages only (SD Tuner's real-kernel test tier, tests/vm/).
#
#   . tests/vm/vmlib.sh
#   vm_arch arm64 [SUITE]    # or armhf; SUITE bookworm (default) or trixie: sets VM_* below
#   vm_kernel "$work"        # $work/{kernel,board.dtb,modules/}: Debian's kernel and the board's dtb
#   vm_busybox "$work"       # $work/busybox (static)
#   vm_initramfs OUT.cpio.gz ROOT   # ROOT + the MMC/ext4/vfat/watchdog modules (lib/modules/KV)
#   vm_card_pios IMG CONFIG [ROOTFS]  # a card holding Raspberry Pi OS storage (FAT p1, ext4 p2)
#   vm_boot LOG "$work/kernel" DTB INITRD IMG   # one boot; returns when the guest powered off or restarted
#   vm_sysroot DIR PKG...            # VM_ARCH's packages PKG (and what they depend on) unpacked in DIR
#   vm_cross_file OUT SYSROOT        # a meson cross file for VM_ARCH against SYSROOT
#   vm_stage DEST SYSROOT BIN...     # BINs with every library they need in DEST/opt/sdt/{bin,lib}
#   vm_fio OUT.cpio.gz WORK          # Debian's fio and strace for VM_ARCH, to append to an initramfs
#
# The two boards:
#   arm64  Debian's arm64 kernel (linux-image-arm64) on `-M raspi3b` (bcm2837-rpi-3-b.dtb), as
#          64-bit Raspberry Pi OS runs on a Pi 3; the card sits on the bcm2835 sdhost controller
#   armhf  Debian's armmp kernel (linux-image-armmp) on `-M raspi2b` (bcm2836-rpi-2-b.dtb), as
#          32-bit Raspberry Pi OS runs on a Pi 2
#
# Packages come through apt from this machine's own Debian sources, into a private apt state per
# architecture and suite (VM_CACHE/apt-ARCH, apt-ARCH-SUITE for another suite than bookworm: its
# own sources (vm_sources), lists, archives and an empty dpkg status, the guest's
# architecture as the only one): dpkg gets no foreign architecture (with armhf added, a mirror
# whose bookworm-security armhf index is out of step makes every `apt-get update` exit 100), and
# the foreign packages need not match the installed amd64 versions. Only downloaded packages are
# cached (VM_CACHE, default /var/cache/sd-tuner-vm, or $SDT_VM_CACHE); everything built from them
# goes into the caller's work directory.
#
# A step that cannot be done (no package, no kernel, no qemu) calls vm_cannot: exit 77 (a skip,
# with the reason) on a developer machine, exit 1 (a failure) under CI=true.

case ":$PATH:" in *:/usr/sbin:*) ;; *) PATH=$PATH:/usr/sbin:/sbin ;; esac
VM_CACHE=${SDT_VM_CACHE:-/var/cache/sd-tuner-vm}

vm_log() { echo "[vm $(date -u +%T)] $*" >&2; }

vm_cannot() {
  if [ "${CI:-}" = true ]; then
    echo "vm: FAILED (CI=true, a step that cannot run is a failure): $*" >&2
    exit 1
  fi
  echo "vm: SKIPPED: $*" >&2
  exit 77
}

# vm_sources SUITE: the apt sources of Debian SUITE on the archive this machine's apt uses (the
# site of its Debian main source, SUITE in place of its release; its security site for
# SUITE-security; SDTUNER_DEBIAN_MIRROR overrides the main site), one-line format
vm_sources() {
  local suite=$1 rel targets main sec key=/usr/share/keyrings/debian-archive-keyring.gpg
  rel=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  targets=$(apt-get indextargets --format '$(SITE) $(RELEASE) $(COMPONENT)' 'Created-By: Packages' |
    sort -u)
  main=${SDTUNER_DEBIAN_MIRROR:-$(echo "$targets" | awk -v r="$rel" '$2 == r && $3 == "main" { print $1; exit }')}
  sec=$(echo "$targets" | awk -v r="$rel" '$2 == r "-security" && $3 == "main" { print $1; exit }')
  [ -n "$main" ] || { echo "vm_sources: this machine's apt has no Debian $rel main source" >&2; return 1; }
  echo "deb [signed-by=$key] ${main%/} $suite main"
  echo "deb [signed-by=$key] ${main%/} $suite-updates main"
  [ -z "$sec" ] || echo "deb [signed-by=$key] ${sec%/} $suite-security main"
}

# vm_arch ARCH [SUITE]: the board and tool chain for ARCH (arm64 or armhf), the guest's packages
# from Debian SUITE (bookworm, the default, or trixie)
vm_arch() {
  VM_ARCH=$1 VM_SUITE=${2:-bookworm}
  case "$VM_ARCH" in
  arm64)
    VM_TRIPLE=aarch64-linux-gnu VM_QEMU=qemu-system-aarch64 VM_MACHINE=raspi3b
    VM_KMETA=linux-image-arm64 VM_DTB_NAME=bcm2837-rpi-3-b.dtb VM_LDSO=ld-linux-aarch64.so.1
    VM_MESON_CPU_FAMILY=aarch64 VM_MESON_CPU=cortex-a53
    # the board revision the Pi 3 B firmware puts in /system/linux,revision
    VM_REVISION=a02082
    ;;
  armhf)
    VM_TRIPLE=arm-linux-gnueabihf VM_QEMU=qemu-system-arm VM_MACHINE=raspi2b
    VM_KMETA=linux-image-armmp VM_DTB_NAME=bcm2836-rpi-2-b.dtb VM_LDSO=ld-linux-armhf.so.3
    VM_MESON_CPU_FAMILY=arm VM_MESON_CPU=cortex-a7
    VM_REVISION=a21041 # Pi 2 B v1.1, the BCM2836 board QEMU emulates
    ;;
  *)
    echo "vm_arch: unknown architecture '$VM_ARCH' (arm64 or armhf)" >&2
    return 2
    ;;
  esac
  case "$VM_SUITE" in
  bookworm) VM_APT_DIR=$VM_CACHE/apt-$VM_ARCH ;;
  trixie) VM_APT_DIR=$VM_CACHE/apt-$VM_ARCH-$VM_SUITE ;;
  *)
    echo "vm_arch: unknown suite '$VM_SUITE' (bookworm or trixie)" >&2
    return 2
    ;;
  esac
  VM_DEBS=$VM_APT_DIR/archives
  mkdir -p "$VM_APT_DIR/lists/partial" "$VM_DEBS/partial" "$VM_APT_DIR/sources.list.d" || return 1
  [ -e "$VM_APT_DIR/status" ] || : >"$VM_APT_DIR/status"
  # another suite than this machine's: its own sources (the machine's apt keeps its own)
  VM_APT_SOURCES=()
  if [ "$VM_SUITE" != "$(. /etc/os-release && echo "${VERSION_CODENAME:-}")" ]; then
    vm_sources "$VM_SUITE" >"$VM_APT_DIR/sources.list.new" || return 1
    if ! cmp -s "$VM_APT_DIR/sources.list.new" "$VM_APT_DIR/sources.list"; then
      mv "$VM_APT_DIR/sources.list.new" "$VM_APT_DIR/sources.list"
      rm -f "$VM_APT_DIR/lists/"*_Packages* # an index of other sources
    fi
    rm -f "$VM_APT_DIR/sources.list.new"
    VM_APT_SOURCES=(-o "Dir::Etc::SourceList=$VM_APT_DIR/sources.list"
      -o "Dir::Etc::SourceParts=$VM_APT_DIR/sources.list.d")
  fi
}

# vm_host_tools: the amd64 programs a boot needs (installed by tools/deps.sh test)
vm_host_tools() {
  local t missing=""
  for t in "$VM_QEMU" fdtput fdtget mkfs.vfat mkfs.ext4 mcopy sfdisk cpio gzip dpkg-deb apt-get; do
    command -v "$t" >/dev/null || missing="$missing $t"
  done
  [ -z "$missing" ] || vm_cannot "missing host programs:$missing (install them: tools/deps.sh test)"
}

# vm_apt ARGS...: apt-get on the private state of VM_ARCH (serialised by a lock file, as several
# tests may share the cache)
vm_apt_opts() {
  VM_APT_OPTS=(-o "APT::Architecture=$VM_ARCH" -o "APT::Architectures::=$VM_ARCH"
    -o "Dir::State=$VM_APT_DIR" -o "Dir::State::Lists=$VM_APT_DIR/lists"
    -o "Dir::State::status=$VM_APT_DIR/status" -o "Dir::Cache=$VM_APT_DIR"
    -o "Dir::Cache::archives=$VM_DEBS" -o Debug::NoLocking=1
    -o APT::Install-Recommends=0 -o APT::Sandbox::User=root -q "${VM_APT_SOURCES[@]}")
}
vm_apt() {
  vm_apt_opts
  flock "$VM_APT_DIR/.lock" apt-get "${VM_APT_OPTS[@]}" "$@"
}
vm_apt_cache() {
  vm_apt_opts
  apt-cache "${VM_APT_OPTS[@]}" "$@"
}

# vm_apt_update: fetch the package index of VM_ARCH. An index that fails (a mirror sync in
# progress) is reported and left out; what is needed is then looked for in the others.
vm_apt_update() {
  vm_log "apt-get update ($VM_ARCH, private state $VM_APT_DIR)"
  vm_apt update >"$VM_APT_DIR/update.log" 2>&1 ||
    grep -E '^(E|W): ' "$VM_APT_DIR/update.log" | sed 's/^/vm: apt-get update: /' >&2
  ls "$VM_APT_DIR/lists/"*"_binary-${VM_ARCH}_Packages"* >/dev/null 2>&1 ||
    vm_cannot "no $VM_ARCH package index could be fetched (see $VM_APT_DIR/update.log)"
}
vm_apt_index() {
  ls "$VM_APT_DIR/lists/"*"_binary-${VM_ARCH}_Packages"* >/dev/null 2>&1 || vm_apt_update
}

# vm_apt_retry ARGS...: vm_apt, and once more after an index update when it fails (the cached
# index may name versions the mirror no longer has)
vm_apt_retry() {
  vm_apt "$@" >>"$VM_APT_DIR/get.log" 2>&1 && return 0
  vm_apt_update
  vm_apt "$@" >>"$VM_APT_DIR/get.log" 2>&1 && return 0
  tail -n 5 "$VM_APT_DIR/get.log" >&2
  return 1
}

# vm_deb PKG: the cached .deb of PKG (its candidate version), downloaded when missing; prints
# its path
vm_deb() {
  local pkg=$1 ver deb
  vm_apt_index
  ver=$(vm_apt_cache show --no-all-versions "$pkg:$VM_ARCH" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
  [ -n "$ver" ] || { vm_apt_update; ver=$(vm_apt_cache show --no-all-versions "$pkg:$VM_ARCH" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1); }
  [ -n "$ver" ] || vm_cannot "no package $pkg for $VM_ARCH in this machine's Debian sources"
  deb=$VM_DEBS/${pkg}_${ver//:/%3a}_$VM_ARCH.deb
  if [ ! -s "$deb" ]; then
    vm_log "downloading $pkg $ver ($VM_ARCH)"
    mkdir -p "$VM_DEBS"
    (cd "$VM_DEBS" && vm_apt_retry download "$pkg:$VM_ARCH=$ver") ||
      vm_cannot "apt-get could not download $pkg:$VM_ARCH $ver (see $VM_APT_DIR/get.log)"
  fi
  [ -s "$deb" ] || vm_cannot "apt-get download of $pkg:$VM_ARCH gave no $deb"
  echo "$deb"
}

# vm_kernel WORK: Debian's kernel image package for VM_ARCH unpacked into WORK/kernel-pkg;
# WORK/kernel (arm64: the plain Image; armhf: the zImage), WORK/board.dtb (the upstream device
# tree of the board, with the board revision the Pi firmware adds: QEMU has no firmware).
# Sets VM_KV (e.g. 6.1.0-41-arm64) and VM_KDIR (the unpacked package).
vm_kernel() {
  local work=$1 kpkg deb dtb
  vm_apt_index
  kpkg=$(vm_apt_cache depends "$VM_KMETA:$VM_ARCH" 2>/dev/null |
    awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
  kpkg=${kpkg%:"$VM_ARCH"}
  [ -n "$kpkg" ] || vm_cannot "$VM_KMETA:$VM_ARCH names no kernel image package in the $VM_ARCH index"
  VM_KV=${kpkg#linux-image-}
  deb=$(vm_deb "$kpkg") || exit $?
  VM_KDIR=$work/kernel-pkg
  if [ "$(cat "$VM_KDIR/.deb" 2>/dev/null)" != "$deb" ]; then
    rm -rf "$VM_KDIR"
    dpkg-deb -x "$deb" "$VM_KDIR" || vm_cannot "dpkg-deb -x $deb failed"
    echo "$deb" >"$VM_KDIR/.deb"
  fi
  # trixie's packages ship /usr/lib/modules; this machine's depmod and modprobe -d read
  # BASE/lib/modules
  [ -e "$VM_KDIR/lib" ] || [ ! -d "$VM_KDIR/usr/lib/modules" ] || ln -s usr/lib "$VM_KDIR/lib"
  [ -f "$VM_KDIR/lib/modules/$VM_KV/modules.dep" ] || depmod -b "$VM_KDIR" "$VM_KV"
  cp "$VM_KDIR/boot/vmlinuz-$VM_KV" "$work/kernel"
  # arm64 packages keep the dtbs in broadcom/, armmp's lie flat
  dtb=$(find "$VM_KDIR/usr/lib/linux-image-$VM_KV" -name "$VM_DTB_NAME" | head -n 1)
  [ -n "$dtb" ] || vm_cannot "$kpkg has no $VM_DTB_NAME"
  cp "$dtb" "$work/board.dtb"
  fdtput -c "$work/board.dtb" /system 2>/dev/null || true
  fdtput -t x "$work/board.dtb" /system linux,revision "$VM_REVISION"
  vm_log "kernel $kpkg, dtb $VM_DTB_NAME (revision $VM_REVISION), machine $VM_MACHINE"
}

# vm_dtb_tryboot SRC DST: DST = SRC with /chosen/bootloader/tryboot = <1>, as the Pi firmware
# sets it in a boot that it made from tryboot.txt
vm_dtb_tryboot() {
  cp "$1" "$2"
  fdtput -c "$2" /chosen/bootloader 2>/dev/null || true
  fdtput -t u "$2" /chosen/bootloader tryboot 1
}

# vm_busybox WORK: WORK/busybox, Debian's static busybox for VM_ARCH
vm_busybox() {
  local work=$1 deb
  deb=$(vm_deb busybox-static) || exit $?
  rm -rf "$work/busybox-pkg"
  dpkg-deb -x "$deb" "$work/busybox-pkg" || vm_cannot "dpkg-deb -x $deb failed"
  # bookworm's package has bin/busybox, trixie's usr/bin/busybox
  cp "$work/busybox-pkg/bin/busybox" "$work/busybox" 2>/dev/null ||
    cp "$work/busybox-pkg/usr/bin/busybox" "$work/busybox" || vm_cannot "$deb holds no busybox"
}

# vm_initramfs OUT ROOT [MODULE...]: a gzipped cpio of ROOT (it must hold /init) with the
# modules a Pi's card needs in ROOT/lib/modules/KV and their load order (dependencies first)
# in ROOT/lib/modules/KV/load-order (uncompressed). In Debian's kernels these are modules: bcm2835 (the
# sdhost controller) and sdhci-iproc, ext4, vfat, and bcm2835_wdt, without which poweroff and
# reboot do not end the machine. Needs vm_kernel first.
vm_initramfs() {
  local out=$1 root=$2 m ko base mdir
  shift 2
  mdir=$root/lib/modules/$VM_KV
  mkdir -p "$mdir"
  : >"$mdir/load-order"
  for m in bcm2835_wdt bcm2835 sdhci-iproc ext4 vfat nls_cp437 nls_ascii "$@"; do
    for ko in $(modprobe -d "$VM_KDIR" -S "$VM_KV" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'); do
      base=$(basename "$ko")
      base=${base%.xz}
      base=${base%.zst}
      grep -qx "$base" "$mdir/load-order" && continue
      # trixie's kernels compress their modules; busybox's insmod loads plain ones
      case "$ko" in
      *.xz) xz -dc "$ko" >"$mdir/$base" ;;
      *.zst) zstd -q -dc "$ko" >"$mdir/$base" ;;
      *) cp "$ko" "$mdir/$base" ;;
      esac
      echo "$base" >>"$mdir/load-order"
    done
  done
  (cd "$root" && find . | cpio -o -H newc --quiet | gzip -6) >"$out"
}

# vm_cpio_add OUT DIR: OUT = a gzipped cpio of DIR, to be appended to an initramfs (the kernel
# unpacks concatenated archives in order, a later file replacing an earlier one)
vm_cpio_add() {
  (cd "$2" && find . | cpio -o -H newc --quiet | gzip -1) >"$1"
}

# vm_card_pios IMG CONFIG [ROOTFS] [SIZE]: a card image (raw, a power of two: QEMU's SD card
# needs one; default 4G) with Raspberry Pi OS bookworm's storage: an MBR with disk id
# 0x5d7e1a2b, p1 FAT32 "bootfs" (256 MiB at 4 MiB, made as pi-gen makes it: mkdosfs -F 32 -s 4)
# holding CONFIG as config.txt and a cmdline.txt, p2 ext4 "rootfs" (the rest) holding ROOTFS
# (written with mkfs.ext4 -d, no loop device) plus the top-level folders of a Pi OS root.
vm_card_pios() {
  local img=$1 config=$2 rootfs=${3:-} size=${4:-4G} rfs p2_start=532480 p2_sect
  rm -f "$img"
  truncate -s "$size" "$img"
  printf 'label: dos\nlabel-id: 0x5d7e1a2b\nstart=8192, size=524288, type=c\nstart=%s, type=83\n' \
    "$p2_start" | sfdisk -q "$img"
  mkfs.vfat -F 32 -s 4 -n bootfs --offset 8192 "$img" $((524288 / 2)) >/dev/null 2>&1 ||
    vm_cannot "mkfs.vfat of $img failed"
  rfs=$img.rootfs
  rm -rf "$rfs"
  mkdir -p "$rfs"
  [ -z "$rootfs" ] || cp -a "$rootfs/." "$rfs/"
  mkdir -p "$rfs"/{bin,sbin,lib,usr/bin,usr/sbin,usr/lib,boot/firmware,dev,proc,sys,run,tmp,var/tmp,var/lib,opt,root,home,mnt,media,srv}
  chmod 1777 "$rfs/tmp" "$rfs/var/tmp"
  chmod 700 "$rfs/root"
  chown -R 0:0 "$rfs"
  p2_sect=$(($(stat -c %s "$img") / 512 - p2_start))
  mkfs.ext4 -q -F -L rootfs -d "$rfs" -E offset=$((p2_start * 512)) "$img" $((p2_sect / 2))k
  rm -rf "$rfs"
  printf 'console=serial0,115200 console=tty1 root=PARTUUID=5d7e1a2b-02 rootfstype=ext4 fsck.repair=yes rootwait\n' >"$img.cmdline"
  MTOOLS_SKIP_CHECK=1 mcopy -o -i "$img@@$((8192 * 512))" "$config" ::/config.txt
  MTOOLS_SKIP_CHECK=1 mcopy -o -i "$img@@$((8192 * 512))" "$img.cmdline" ::/cmdline.txt
  rm -f "$img.cmdline"
}

# vm_fat_get IMG NAME OUT: copy NAME from the card's FAT partition (exit 1 when absent)
vm_fat_get() {
  MTOOLS_SKIP_CHECK=1 mcopy -n -o -i "$1@@$((8192 * 512))" "::/$2" "$3" 2>/dev/null
}
# vm_fat_ls IMG: the names on the card's FAT partition, one a line
vm_fat_ls() {
  MTOOLS_SKIP_CHECK=1 mdir -b -i "$1@@$((8192 * 512))" :: 2>/dev/null | sed 's#^::/##'
}

# vm_boot LOG KERNEL DTB INITRD IMG [APPEND]: boot the board once with the card IMG; the console goes
# to LOG. The guest's /init ends by powering off (or restarting): with -no-reboot either ends
# QEMU. Returns QEMU's exit status (124 when VM_BOOT_TIMEOUT, default 900 s, ran out) and sets
# VM_BOOT_SECONDS. SDT_VM_QEMU_ARGS: more QEMU options (words), e.g. "-icount shift=0,sleep=off";
# SDT_VM_KARGS: more kernel arguments, e.g. "maxcpus=1".
#
# The emulated SD controller and a loaded host: the guest's clock runs with the host's, and
# the kernel's sdhost driver gives a request 10 s. When the host starves QEMU's threads (the
# tier runs niced beside the other tests) an interrupt comes too late: "sdhost-bcm2835 ...:
# timeout waiting for hardware interrupt", and the retried read hands back stale data (seen
# in CI and here with a loaded host: "EXT4-fs (mmcblk0p2): group descriptors corrupted!", the
# root not mounted, 1 boot in 4 under 3 busy loops). No real board does this, so such a boot is
# made again, at most twice, on the card as it was before the boot (IMG.before-boot, a sparse
# copy made before each boot and removed after): the failed mount may still have written to
# it, ext4 recording its error in the superblock, and a write after a lost interrupt can carry
# stale data (CI: the retried boot found the primary superblock's magic gone). Its console is
# kept as LOG.lost-irq-N. A timeout in any other boot is only reported.
VM_LOST_IRQ='timeout waiting for hardware interrupt'
VM_ROOT_NOT_MOUNTED='^### \(GUEST-FAILED mount mmcblk0p2\|INITRAMFS: mounting the root failed\)'
vm_boot_once() {
  local log=$1 kernel=$2 dtb=$3 initrd=$4 img=$5 append=${6:-} t0 rc=0
  local kargs="console=ttyAMA0,115200 earlycon=pl011,0x3f201000 rdinit=/init loglevel=4 $append ${SDT_VM_KARGS:-}"
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086 # SDT_VM_QEMU_ARGS: words
  timeout "${VM_BOOT_TIMEOUT:-900}" "$VM_QEMU" -M "$VM_MACHINE" -kernel "$kernel" \
    -dtb "$dtb" -initrd "$initrd" -drive "file=$img,if=sd,format=raw" -append "$kargs" \
    -display none -monitor none -serial "file:$log" -no-reboot ${SDT_VM_QEMU_ARGS:-} </dev/null >"$log.qemu" 2>&1 || rc=$?
  VM_BOOT_SECONDS=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  vm_log "boot on $VM_MACHINE: qemu exit $rc after $VM_BOOT_SECONDS s (console $log)"
  return $rc
}
vm_boot_tries() {
  local log=$1 img=$5 try rc lost
  for try in 1 2 3; do
    rc=0
    vm_boot_once "$@" || rc=$?
    lost=$(grep -c "$VM_LOST_IRQ" "$log" 2>/dev/null || true)
    [ "${lost:-0}" -gt 0 ] || return $rc
    vm_log "the emulated SD controller lost $lost interrupt(s) in this boot (the host starved QEMU)"
    if [ "$rc" -ne 0 ] || ! grep -q "$VM_ROOT_NOT_MOUNTED" "$log" || [ "$try" -eq 3 ]; then
      return $rc
    fi
    cp "$log" "$log.lost-irq-$try"
    cp --sparse=always "$img.before-boot" "$img" || vm_cannot "cannot put the card $img back as it was before the boot"
    vm_log "the guest could not mount the card's root after it (stale data, no real card does this): booting again on the card as it was before, console kept as $log.lost-irq-$try"
  done
}
vm_boot() {
  local img=$5 rc=0
  cp --sparse=always "$img" "$img.before-boot" || vm_cannot "cannot copy the card $img before the boot"
  vm_boot_tries "$@" || rc=$?
  rm -f "$img.before-boot"
  return $rc
}

# vm_sysroot DIR PKG...: VM_ARCH's packages PKG and their whole dependency closure (apt resolves
# it against the empty private dpkg status) downloaded into the cache and unpacked into DIR,
# which is made again only when that list changes. Interpreters the closure drags in (python3,
# perl) are downloaded but not unpacked: nothing links against them.
vm_sysroot_list() {
  vm_apt -s install "$@" 2>/dev/null | awk '$1 == "Inst" { sub(/^\(/, "", $3); print $2, $3 }'
}
vm_sysroot() {
  local dir=$1 list stamp pkg ver deb link target f
  shift
  vm_apt_index
  list=$(vm_sysroot_list "$@")
  [ -n "$list" ] || { vm_apt_update; list=$(vm_sysroot_list "$@"); }
  [ -n "$list" ] || vm_cannot "apt cannot resolve the $VM_ARCH packages: $*"
  stamp=$(printf '%s\n' "$list" | sort | md5sum | cut -d' ' -f1)
  [ "$(cat "$dir/.sdt-sysroot" 2>/dev/null)" = "$stamp" ] && return 0
  vm_log "sysroot $dir: $(printf '%s\n' "$list" | wc -l) $VM_ARCH packages"
  vm_apt_retry install --download-only -y "$@" ||
    vm_cannot "apt-get could not download the $VM_ARCH packages $* (see $VM_APT_DIR/get.log)"
  rm -rf "$dir"
  mkdir -p "$dir"
  while read -r pkg ver; do
    case "$pkg" in python3* | libpython3* | perl* | libperl*) continue ;; esac
    deb=$(find "$VM_DEBS" -maxdepth 1 -name "${pkg}_${ver//:/%3a}_*.deb" | head -n 1)
    [ -n "$deb" ] || vm_cannot "$pkg $ver is not in $VM_DEBS after the download"
    dpkg-deb -x "$deb" "$dir" || vm_cannot "dpkg-deb -x $deb failed"
  done <<<"$list"
  # absolute links (libfoo.so -> /lib/...) must point into the sysroot, relatively
  find "$dir" -type l -lname '/*' | while read -r link; do
    target=$(readlink "$link")
    ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$dir$target")" "$link"
  done
  # bookworm still ships some libraries in /lib/TRIPLE: one library folder for the linker
  if [ -d "$dir/lib/$VM_TRIPLE" ]; then
    mkdir -p "$dir/usr/lib/$VM_TRIPLE"
    for f in "$dir/lib/$VM_TRIPLE"/*; do
      [ -e "$dir/usr/lib/$VM_TRIPLE/${f##*/}" ] ||
        ln -s "../../../lib/$VM_TRIPLE/${f##*/}" "$dir/usr/lib/$VM_TRIPLE/${f##*/}"
    done
  fi
  # trixie's packages ship only /usr (the /lib link is base-files'): the loader's PT_INTERP
  # path /lib/ld-linux-*.so.* must resolve in the sysroot too (qemu-user -L)
  [ -e "$dir/lib" ] || ln -s usr/lib "$dir/lib"
  echo "$stamp" >"$dir/.sdt-sysroot"
}

# vm_cross_file OUT SYSROOT: a meson cross file for VM_ARCH (the Debian cross compiler, the
# sysroot's pkg-config files; GLib's build tools are the host's). The sysroot's libraries come
# first (-L): the cross compiler's own libc is bookworm's, trixie's libraries need glibc 2.41's.
vm_cross_file() {
  local out=$1 sr=$2 t=$VM_TRIPLE q=qemu-arm-static
  [ "$VM_ARCH" = arm64 ] && q=qemu-aarch64-static
  cat >"$out" <<EOF
# generated by tests/vm/vmlib.sh
[binaries]
c = '$t-gcc'
ar = '$t-ar'
strip = '$t-strip'
pkgconfig = 'pkg-config'
exe_wrapper = ['$q', '-L', '$sr']
gdbus-codegen = '/usr/bin/gdbus-codegen'
glib-compile-resources = '/usr/bin/glib-compile-resources'
glib-compile-schemas = '/usr/bin/glib-compile-schemas'
glib-mkenums = '/usr/bin/glib-mkenums'
glib-genmarshal = '/usr/bin/glib-genmarshal'

[properties]
sys_root = '$sr'
pkg_config_libdir = ['$sr/usr/lib/$t/pkgconfig', '$sr/usr/share/pkgconfig']

[built-in options]
c_args = ['--sysroot=$sr']
c_link_args = ['--sysroot=$sr', '-L$sr/usr/lib/$t', '-Wl,-rpath-link,$sr/usr/lib/$t', '-Wl,-rpath-link,$sr/lib/$t']

[host_machine]
system = 'linux'
cpu_family = '$VM_MESON_CPU_FAMILY'
cpu = '$VM_MESON_CPU'
endian = 'little'
EOF
}

# vm_stage DEST SYSROOT BIN...: each BIN in DEST/opt/sdt/bin, every shared library it needs
# (found in the sysroot) in DEST/opt/sdt/lib, the dynamic loader at its PT_INTERP path
# DEST/lib/LDSO, so that the programs run in the guest with LD_LIBRARY_PATH=/opt/sdt/lib
# (VM_STAGE_OPT=opt/NAME stages into DEST/opt/NAME instead)
vm_stage() {
  local dest=$1 sr=$2 b opt=${VM_STAGE_OPT:-opt/sdt}
  shift 2
  mkdir -p "$dest/$opt/bin" "$dest/$opt/lib" "$dest/lib"
  for b in "$@"; do
    cp "$b" "$dest/$opt/bin/"
    vm_stage_needed "$dest/$opt/lib" "$sr" "$b" || return 1
  done
  cp -L "$sr/usr/lib/$VM_TRIPLE/$VM_LDSO" "$dest/lib/$VM_LDSO" 2>/dev/null ||
    cp -L "$sr/lib/$VM_TRIPLE/$VM_LDSO" "$dest/lib/$VM_LDSO" || return 1
}
vm_stage_needed() {
  local libdir=$1 sr=$2 elf=$3 n p
  for n in $("$VM_TRIPLE-readelf" -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    [ -e "$libdir/$n" ] && continue
    p=$sr/usr/lib/$VM_TRIPLE/$n
    [ -e "$p" ] || p=$sr/lib/$VM_TRIPLE/$n
    # a private folder of the RUNPATH (librados: ceph/libceph-common.so.2)
    [ -e "$p" ] || p=$(find "$sr/usr/lib/$VM_TRIPLE" -mindepth 2 -name "$n" | head -n 1)
    [ -n "$p" ] || p=$sr/usr/lib/$VM_TRIPLE/$n
    [ -e "$p" ] || { echo "vm_stage: $n (needed by ${elf##*/}) is not in $sr" >&2; return 1; }
    cp -L "$p" "$libdir/$n"
    vm_stage_needed "$libdir" "$sr" "$p" || return 1
  done
}

# vm_fio OUT WORK: a gzipped cpio (to append to an initramfs, see vm_cpio_add) holding Debian's
# fio and strace for VM_ARCH with every library they need, in /opt/fio/{bin,lib} (run them with
# LD_LIBRARY_PATH=/opt/fio/lib). fio's package and its dependency closure are downloaded into the
# cache like the sysroot's (WORK/fio-sysroot, made again when the list changes); only the
# libraries fio links are staged (its rbd, rados and gluster engines link theirs: about 30 MB of
# the closure, not dlopen()ed).
vm_fio() {
  local out=$1 work=$2 sr root
  sr=$work/fio-sysroot
  vm_sysroot "$sr" fio strace
  root=$work/fio-stage
  rm -rf "$root"
  VM_STAGE_OPT=opt/fio vm_stage "$root" "$sr" "$sr/usr/bin/fio" "$sr/usr/bin/strace" ||
    vm_cannot "staging fio for $VM_ARCH failed"
  rm -rf "${root:?}/lib" # the loader is the base initramfs's
  vm_cpio_add "$out" "$root"
  rm -rf "$root"
}
