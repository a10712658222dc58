#!/bin/busybox sh
# /init of the initramfs (tests/vm/systemd): the Debian kernel has the MMC host,
# ext4 and vfat as modules, so load them (the order computed on the host with
# modprobe --show-depends), wait for the card, mount its ext4 root and hand over
# to systemd, as an initramfs-tools initramfs does on a Pi.
/bin/busybox mkdir -p /proc /sys /dev /newroot
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
KV=$(uname -r)
echo "### INITRAMFS (uptime $(cut -d' ' -f1 /proc/uptime))"
for m in $(cat /lib/modules/"$KV"/load-order); do
  insmod /lib/modules/"$KV"/"$m" || echo "### INITRAMFS: insmod $m FAILED"
done
i=0
while [ ! -b /dev/mmcblk0p2 ] && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
[ -b /dev/mmcblk0p2 ] || { echo "### INITRAMFS: no /dev/mmcblk0p2 after ${i}s"; poweroff -f; }
mount -t ext4 -o rw,noatime /dev/mmcblk0p2 /newroot ||
  { echo "### INITRAMFS: mounting the root failed"; poweroff -f; }
echo "### INITRAMFS: root mmcblk0p2 after ${i}s, switching to systemd"
mount --move /dev /newroot/dev
umount /proc /sys
exec switch_root /newroot /sbin/init
