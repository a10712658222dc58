#!/bin/busybox sh
# /init of the real-kernel tier's initramfs (runs inside the emulated Raspberry Pi).
#
# The system runs from the card as Raspberry Pi OS does: mmcblk0p2 (ext4) is mounted
# rw,noatime as the new root, mmcblk0p1 (FAT) at /boot/firmware, /proc /sys /dev /run are bound
# into it; busybox, the dynamic loader and the project's programs (/opt/sdt) are bound from the
# initramfs, so nothing of the harness is written to the card. /etc/sdt/boot.sh (this boot's
# commands, from the host) then runs in `chroot` with / on the card, as root. Its `run NAME
# CMD...` prints CMD's stdout between "@@SDT-BEGIN <nonce> NAME" and "@@SDT-END <nonce> NAME
# rc=N secs=S" lines and its stderr between "@@SDT-BEGIN <nonce> NAME.err" and its end line
# (<nonce> from /etc/sdt/nonce). Then everything is synced and unmounted, and the guest powers
# off, or restarts with the command the script left in /run/sdt/reboot-command (e.g.
# "0 tryboot", which the kernel prints: "reboot: Restarting system with command '0 tryboot'").
/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /proc /sys /dev /tmp /run
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs -o mode=755 tmpfs /run
KV=$(uname -r)
NONCE=$(cat /etc/sdt/nonce)
echo "### GUEST-START (uptime $(cut -d' ' -f1 /proc/uptime))"
for m in $(cat /lib/modules/$KV/load-order); do
	insmod /lib/modules/$KV/$m 2>/dev/null || echo "### insmod $m failed"
done
i=0
while [ ! -e /sys/block/mmcblk0/mmcblk0p2 ] && [ $i -lt 60 ]; do
	sleep 1
	i=$((i + 1))
done
echo "### mmcblk0p2 after ${i}s"

NR=/newroot
mkdir -p $NR
fail() {
	echo "### GUEST-FAILED $*"
	sync
	poweroff -f
}
# /etc/fstab of Raspberry Pi OS: / ext4 defaults,noatime; /boot/firmware vfat defaults
mount -t ext4 -o rw,noatime /dev/mmcblk0p2 $NR || fail "mount mmcblk0p2"
mount -t vfat -o rw,relatime,fmask=0022,dmask=0022 /dev/mmcblk0p1 $NR/boot/firmware || fail "mount mmcblk0p1"
for d in proc sys dev run; do
	mount -o rbind /$d $NR/$d || fail "rbind /$d"
done
for d in bin sbin usr/bin usr/sbin lib opt; do
	mount -o bind,ro /$d $NR/$d || fail "bind /$d"
done
mkdir -p /run/sdt
cp /etc/sdt/boot.sh /run/sdt/boot.sh
cat >/run/sdt/lib.sh <<EOF
run() {
	name=\$1
	shift
	a=\$(cut -d' ' -f1 /proc/uptime)
	"\$@" >/run/sdt/out 2>/run/sdt/err </dev/null
	rc=\$?
	b=\$(cut -d' ' -f1 /proc/uptime)
	secs=\$(awk -v a=\$a -v b=\$b 'BEGIN { printf "%.1f", b - a }')
	echo "@@SDT-BEGIN $NONCE \$name"
	cat /run/sdt/out
	echo "@@SDT-END $NONCE \$name rc=\$rc secs=\$secs"
	echo "@@SDT-BEGIN $NONCE \$name.err"
	cat /run/sdt/err
	echo "@@SDT-END $NONCE \$name.err rc=\$rc secs=\$secs"
	return \$rc
}
EOF
sync
# kernel messages stay out of the commands' output (the console is the only channel)
PK=$(cat /proc/sys/kernel/printk)
echo 1 >/proc/sys/kernel/printk
echo "### running /etc/sdt/boot.sh on / = mmcblk0p2, /boot/firmware = mmcblk0p1"
(
	cd /
	export PATH=/opt/sdt/bin:/usr/sbin:/usr/bin:/sbin:/bin LD_LIBRARY_PATH=/opt/sdt/lib HOME=/root
	exec chroot $NR /bin/sh -c 'cd /root && . /run/sdt/lib.sh && . /run/sdt/boot.sh'
) </dev/null 2>&1
echo "### boot.sh exit status $?"
echo "$PK" >/proc/sys/kernel/printk
sync
for d in opt lib usr/sbin usr/bin sbin bin; do umount $NR/$d; done
umount $NR/boot/firmware || fail "umount /boot/firmware"
for d in run dev sys proc; do umount -l $NR/$d; done
umount $NR || mount -o remount,ro $NR
echo "### card unmounted: $(grep -c mmcblk0 /proc/mounts) mmcblk0 mounts left"
echo "### GUEST-DONE (uptime $(cut -d' ' -f1 /proc/uptime))"
sync
if [ -s /run/sdt/reboot-command ]; then
	exec /bin/sdt-vm-reboot "$(cat /run/sdt/reboot-command)"
fi
poweroff -f
