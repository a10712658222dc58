/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <blkid.h>
#include <glib/gi18n.h>
#include <libudev.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sdt-devices.h"
#include "sdt-error.h"
#include "sdt-mounts.h"
#include "sdt-device-offer-private.h"

typedef struct udev SdtUdev;
typedef struct udev_device SdtUdevDevice;
typedef struct udev_enumerate SdtUdevEnumerate;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtUdev, udev_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtUdevDevice, udev_device_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtUdevEnumerate, udev_enumerate_unref)

/* where the system lives: a disk holding one of these is the system disk */
static const gchar *sdt_devices_system_mounts[] = {"/", "/boot/firmware", "/boot"};

/* how deep device-mapper layers are followed (dm-crypt on LVM on a partition: 3) */
#define SDT_DEVICES_MAX_DEPTH 8

static void
sdt_devices_fs_free(SdtDeviceFs *fs)
{
	g_free(fs->device);
	g_free(fs->type);
	g_free(fs->label);
	g_free(fs);
}

static void
sdt_devices_free(SdtDevice *device)
{
	if (device == NULL)
		return;
	g_free(device->name);
	g_free(device->devnode);
	g_free(device->syspath);
	g_free(device->vendor);
	g_free(device->model);
	g_free(device->serial);
	g_free(device->bus);
	g_free(device->card_type);
	g_ptr_array_unref(device->mount_points);
	g_free(device->partition_table);
	g_ptr_array_unref(device->filesystems);
	g_free(device);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtDevice, sdt_devices_free)

/* udev's ID_*_ENC text (\xNN escapes, udev_util_encode_string()) decoded and trimmed;
 * NULL when empty */
static gchar *
sdt_devices_decode(const gchar *enc)
{
	g_autoptr(GString) out = NULL;

	if (enc == NULL)
		return NULL;
	out = g_string_new(NULL);
	for (const gchar *p = enc; *p != '\0'; p++) {
		if (p[0] == '\\' && p[1] == 'x' && g_ascii_isxdigit(p[2]) &&
		    g_ascii_isxdigit(p[3])) {
			g_string_append_c(out,
					  (gchar) (g_ascii_xdigit_value(p[2]) * 16 +
						   g_ascii_xdigit_value(p[3])));
			p += 3;
		} else {
			g_string_append_c(out, *p);
		}
	}
	g_strstrip(out->str);
	if (out->str[0] == '\0' || !g_utf8_validate(out->str, -1, NULL))
		return NULL;
	return g_strdup(out->str);
}

/* a property decoded from its _ENC form, else as udev wrote it (underscores for spaces) */
static gchar *
sdt_devices_property(struct udev_device *dev, const gchar *key)
{
	g_autofree gchar *enc_key = g_strconcat(key, "_ENC", NULL);
	gchar *value = sdt_devices_decode(udev_device_get_property_value(dev, enc_key));
	const gchar *plain;

	if (value != NULL)
		return value;
	plain = udev_device_get_property_value(dev, key);
	if (plain == NULL || plain[0] == '\0')
		return NULL;
	return g_strdelimit(g_strdup(plain), "_", ' ');
}

/* a sysfs attribute, trimmed; NULL when absent or empty */
static gchar *
sdt_devices_sysattr(struct udev_device *dev, const gchar *name)
{
	const gchar *value = dev != NULL ? udev_device_get_sysattr_value(dev, name) : NULL;
	g_autofree gchar *copy = NULL;

	if (value == NULL)
		return NULL;
	copy = g_strstrip(g_strdup(value));
	if (copy[0] == '\0' || !g_utf8_validate(copy, -1, NULL))
		return NULL;
	return g_steal_pointer(&copy);
}

static gboolean
sdt_devices_sysattr_is(struct udev_device *dev, const gchar *name, const gchar *value)
{
	g_autofree gchar *text = sdt_devices_sysattr(dev, name);
	return g_strcmp0(text, value) == 0;
}

/* a disk that cannot be a card and is not worth a line: RAM disks, zram, unbound loop
 * devices, optical drives, an eMMC's boot and RPMB areas (the eMMC itself is listed) */
static gboolean
sdt_devices_skip(struct udev_device *dev)
{
	const gchar *name = udev_device_get_sysname(dev);

	if (g_str_has_prefix(name, "ram") || g_str_has_prefix(name, "zram") ||
	    g_str_has_prefix(name, "sr"))
		return TRUE;
	if (g_strcmp0(udev_device_get_property_value(dev, "ID_TYPE"), "cd") == 0)
		return TRUE;
	if (g_str_has_prefix(name, "mmcblk") && (strstr(name, "boot") || strstr(name, "rpmb")))
		return TRUE;
	if (g_str_has_prefix(name, "loop")) {
		g_autofree gchar *backing = sdt_devices_sysattr(dev, "loop/backing_file");
		return backing == NULL;
	}
	return FALSE;
}

/* the whole disk of a block device: itself, or a partition's parent */
static struct udev_device *
sdt_devices_disk_of(struct udev_device *dev)
{
	if (g_strcmp0(udev_device_get_devtype(dev), "partition") == 0)
		return udev_device_get_parent_with_subsystem_devtype(dev, "block", "disk");
	return dev;
}

/* adds the syspath of every whole disk @dev stands on to @disks: its own disk, and through
 * device-mapper or RAID layers (sysfs "slaves") the disks below */
static void
sdt_devices_add_disks_below(struct udev *udev,
			    struct udev_device *dev,
			    GHashTable *disks,
			    guint depth)
{
	struct udev_device *disk = sdt_devices_disk_of(dev);
	g_autofree gchar *slaves = NULL;
	g_autoptr(GDir) dir = NULL;
	const gchar *entry;

	if (disk == NULL || depth > SDT_DEVICES_MAX_DEPTH)
		return;
	g_hash_table_add(disks, g_strdup(udev_device_get_syspath(disk)));
	slaves = g_build_filename(udev_device_get_syspath(dev), "slaves", NULL);
	dir = g_dir_open(slaves, 0, NULL);
	while (dir != NULL && (entry = g_dir_read_name(dir)) != NULL) {
		g_autoptr(SdtUdevDevice) below =
			udev_device_new_from_subsystem_sysname(udev, "block", entry);
		if (below != NULL)
			sdt_devices_add_disks_below(udev, below, disks, depth + 1);
	}
}

/* the disk of a mount (its major:minor), NULL for a mount without a block device */
static struct udev_device *
sdt_devices_mount_device(struct udev *udev, SdtMount *mount)
{
	if (mount->major == 0)
		return NULL; /* tmpfs, overlay, a btrfs subvolume... */
	return udev_device_new_from_devnum(udev, 'b', makedev(mount->major, mount->minor));
}

/* syspath -> TRUE: the disks the system runs from */
static GHashTable *
sdt_devices_system_disks(struct udev *udev, GPtrArray *mounts)
{
	GHashTable *disks = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	for (guint i = 0; mounts != NULL && i < G_N_ELEMENTS(sdt_devices_system_mounts); i++) {
		SdtMount *mount = sdt_mounts_find_mount_point(mounts, sdt_devices_system_mounts[i]);
		g_autoptr(SdtUdevDevice) dev = NULL;

		if (mount == NULL || (dev = sdt_devices_mount_device(udev, mount)) == NULL)
			continue;
		sdt_devices_add_disks_below(udev, dev, disks, 0);
	}
	return disks;
}

/* is @dir (sysfs holders) not empty? */
static gboolean
sdt_devices_has_holders(struct udev_device *dev)
{
	g_autofree gchar *path = g_build_filename(udev_device_get_syspath(dev), "holders", NULL);
	g_autoptr(GDir) dir = g_dir_open(path, 0, NULL);

	return dir != NULL && g_dir_read_name(dir) != NULL;
}

static void
sdt_devices_unref(gpointer dev)
{
	udev_device_unref(dev);
}

/* the partitions of @disk as udev lists them */
static GPtrArray *
sdt_devices_partitions(struct udev *udev, struct udev_device *disk)
{
	g_autoptr(SdtUdevEnumerate) e = udev_enumerate_new(udev);
	GPtrArray *parts = g_ptr_array_new_with_free_func(sdt_devices_unref);
	struct udev_list_entry *entry;

	udev_enumerate_add_match_parent(e, disk);
	udev_enumerate_add_match_subsystem(e, "block");
	udev_enumerate_add_match_property(e, "DEVTYPE", "partition");
	udev_enumerate_scan_devices(e);
	udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(e))
	{
		struct udev_device *dev =
			udev_device_new_from_syspath(udev, udev_list_entry_get_name(entry));
		if (dev != NULL)
			g_ptr_array_add(parts, dev);
	}
	return parts;
}

static gboolean
sdt_devices_mount_is(SdtMount *mount, struct udev_device *dev)
{
	dev_t devnum = udev_device_get_devnum(dev);
	return mount->major == major(devnum) && mount->minor == minor(devnum);
}

/* where @disk and its partitions are mounted, in the mount table's order; any mount counts,
 * a sandbox's bind mount too: it is in use all the same. And whether one has holders. */
static void
sdt_devices_read_mounts(SdtDevice *device,
			struct udev_device *disk,
			GPtrArray *parts,
			GPtrArray *mounts)
{
	for (guint i = 0; mounts != NULL && i < mounts->len; i++) {
		SdtMount *mount = g_ptr_array_index(mounts, i);
		gboolean on = sdt_devices_mount_is(mount, disk);

		for (guint j = 0; !on && j < parts->len; j++)
			on = sdt_devices_mount_is(mount, g_ptr_array_index(parts, j));
		if (!on)
			continue;
		device->facts.mounted = TRUE;
		g_ptr_array_add(device->mount_points, g_strdup(mount->mount_point));
	}
	device->facts.held = sdt_devices_has_holders(disk);
	for (guint j = 0; j < parts->len; j++)
		device->facts.held |= sdt_devices_has_holders(g_ptr_array_index(parts, j));
}

static void
sdt_devices_add_fs(SdtDevice *device, const gchar *name, const gchar *type, const gchar *label)
{
	SdtDeviceFs *fs;

	if (type == NULL || type[0] == '\0')
		return;
	fs = g_new0(SdtDeviceFs, 1);
	fs->device = g_strdup(name);
	fs->type = g_strdup(type);
	fs->label = label != NULL && label[0] != '\0' && g_utf8_validate(label, -1, NULL)
			    ? g_strdup(label)
			    : NULL;
	g_ptr_array_add(device->filesystems, fs);
}

/* libblkid on @devnode (read only): its partition table and/or file system signature;
 * FALSE when it cannot be opened (not root, no medium) */
static gboolean
sdt_devices_blkid(SdtDevice *device, const gchar *name, const gchar *devnode, gboolean disk)
{
	blkid_probe probe = blkid_new_probe_from_filename(devnode);
	const char *type = NULL;
	const char *label = NULL;
	const char *pttype = NULL;

	if (probe == NULL)
		return FALSE;
	blkid_probe_enable_superblocks(probe, 1);
	blkid_probe_set_superblocks_flags(probe, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL);
	blkid_probe_enable_partitions(probe, disk);
	if (disk)
		blkid_probe_set_partitions_flags(probe, BLKID_PARTS_ENTRY_DETAILS);
	/* 0: found one, 1: nothing, -2: ambivalent (several signatures), -1: error */
	if (blkid_do_safeprobe(probe) == 0) {
		blkid_probe_lookup_value(probe, "TYPE", &type, NULL);
		blkid_probe_lookup_value(probe, "LABEL", &label, NULL);
		blkid_probe_lookup_value(probe, "PTTYPE", &pttype, NULL);
		if (disk && pttype != NULL)
			device->partition_table = g_strdup(pttype);
		sdt_devices_add_fs(device, name, type, label);
	}
	blkid_free_probe(probe);
	return TRUE;
}

/* what udev's own blkid run recorded (ID_PART_TABLE_TYPE, ID_FS_TYPE, ID_FS_LABEL) */
static void
sdt_devices_udev_signatures(SdtDevice *device, struct udev_device *dev, gboolean disk)
{
	g_autofree gchar *label = sdt_devices_property(dev, "ID_FS_LABEL");
	const gchar *pttype = udev_device_get_property_value(dev, "ID_PART_TABLE_TYPE");

	if (disk && pttype != NULL)
		device->partition_table = g_strdup(pttype);
	sdt_devices_add_fs(device,
			   udev_device_get_sysname(dev),
			   udev_device_get_property_value(dev, "ID_FS_TYPE"),
			   label);
}

/* the partition table and file systems of a device with a medium: libblkid when the
 * device can be opened, else udev's record of the same probe */
static void
sdt_devices_read_signatures(SdtDevice *device, struct udev_device *disk, GPtrArray *parts)
{
	if (!device->facts.medium)
		return;
	if (sdt_devices_blkid(device, device->name, device->devnode, TRUE)) {
		device->signatures_from = "blkid";
		for (guint i = 0; i < parts->len; i++) {
			struct udev_device *part = g_ptr_array_index(parts, i);
			const gchar *node = udev_device_get_devnode(part);
			if (node != NULL)
				sdt_devices_blkid(device,
						  udev_device_get_sysname(part),
						  node,
						  FALSE);
		}
		return;
	}
	/* udev ran blkid on it (60-persistent-storage.rules) only when its database has it */
	if (!udev_device_get_is_initialized(disk))
		return;
	device->signatures_from = "udev";
	sdt_devices_udev_signatures(device, disk, TRUE);
	for (guint i = 0; i < parts->len; i++)
		sdt_devices_udev_signatures(device, g_ptr_array_index(parts, i), FALSE);
}

/* the link speed of the USB device (the reader) @disk sits behind, in Mbit/s; 0: none */
static gdouble
sdt_devices_usb_speed(struct udev_device *disk)
{
	struct udev_device *usb =
		udev_device_get_parent_with_subsystem_devtype(disk, "usb", "usb_device");
	g_autofree gchar *speed = usb != NULL ? sdt_devices_sysattr(usb, "speed") : NULL;
	gdouble mbit;
	gchar *end = NULL;

	if (speed == NULL)
		return 0;
	mbit = g_ascii_strtod(speed, &end);
	return end != speed && mbit > 0 && mbit < 1e6 ? mbit : 0;
}

/* vendor, model, serial and bus as udev reports them; for an mmc card its sysfs name and
 * serial (the CID's), for a SCSI disk without udev properties its sysfs vendor and model */
static void
sdt_devices_read_identity(SdtDevice *device, struct udev_device *disk)
{
	struct udev_device *mmc = udev_device_get_parent_with_subsystem_devtype(disk, "mmc", NULL);
	struct udev_device *parent = udev_device_get_parent(disk);
	const gchar *bus = udev_device_get_property_value(disk, "ID_BUS");

	device->vendor = sdt_devices_property(disk, "ID_VENDOR");
	device->model = sdt_devices_property(disk, "ID_MODEL");
	device->serial = sdt_devices_property(disk, "ID_SERIAL_SHORT");
	if (mmc != NULL) {
		device->card_type = sdt_devices_sysattr(mmc, "type");
		if (device->card_type == NULL)
			device->card_type =
				g_strdup(udev_device_get_property_value(mmc, "MMC_TYPE"));
		if (device->model == NULL)
			device->model = sdt_devices_sysattr(mmc, "name");
		if (device->serial == NULL)
			device->serial = sdt_devices_sysattr(mmc, "serial");
		device->facts.sd_card = g_strcmp0(device->card_type, "SD") == 0 ||
					g_strcmp0(device->card_type, "SDcombo") == 0;
		bus = "mmc";
	}
	/* a SCSI disk's INQUIRY strings (a USB reader's), when udev has no record */
	if (parent != NULL && g_strcmp0(udev_device_get_subsystem(parent), "scsi") == 0) {
		if (device->vendor == NULL)
			device->vendor = sdt_devices_sysattr(parent, "vendor");
		if (device->model == NULL)
			device->model = sdt_devices_sysattr(parent, "model");
	}
	if (bus == NULL && udev_device_get_parent_with_subsystem_devtype(disk, "usb", NULL))
		bus = "usb";
	device->usb_speed_mbit_s = sdt_devices_usb_speed(disk);
	if (bus == NULL && parent != NULL)
		bus = udev_device_get_subsystem(parent);
	device->bus = g_strdup(bus);
}

static SdtDevice *
sdt_devices_read(struct udev *udev,
		 struct udev_device *disk,
		 GPtrArray *mounts,
		 GHashTable *system_disks)
{
	g_autoptr(SdtDevice) device = g_new0(SdtDevice, 1);
	g_autoptr(GPtrArray) parts = sdt_devices_partitions(udev, disk);
	g_autofree gchar *size = sdt_devices_sysattr(disk, "size");
	dev_t devnum = udev_device_get_devnum(disk);

	device->mount_points = g_ptr_array_new_with_free_func(g_free);
	device->filesystems = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_devices_fs_free);
	device->name = g_strdup(udev_device_get_sysname(disk));
	device->syspath = g_strdup(udev_device_get_syspath(disk));
	device->devnode = g_strdup(udev_device_get_devnode(disk));
	if (device->devnode == NULL)
		device->devnode = g_strdup_printf("/dev/%s", device->name);
	device->major = major(devnum);
	device->minor = minor(devnum);
	if (size != NULL &&
	    g_ascii_string_to_unsigned(size, 10, 0, G_MAXUINT64 / 512, &device->size_bytes, NULL))
		device->size_bytes *= 512;
	else
		device->size_bytes = 0;
	sdt_devices_read_identity(device, disk);
	device->facts.removable = sdt_devices_sysattr_is(disk, "removable", "1");
	device->facts.read_only = sdt_devices_sysattr_is(disk, "ro", "1");
	/* bound: sdt_devices_skip() left out the others */
	device->facts.loop = g_str_has_prefix(device->name, "loop");
	device->facts.medium = device->size_bytes > 0;
	device->facts.system_disk = g_hash_table_contains(system_disks, device->syspath);
	sdt_devices_read_mounts(device, disk, parts, mounts);
	sdt_devices_read_signatures(device, disk, parts);
	device->offer = sdt_device_offer_decide(&device->facts);
	return g_steal_pointer(&device);
}

static gint
sdt_devices_compare(gconstpointer a, gconstpointer b)
{
	const SdtDevice *da = *(SdtDevice *const *) a;
	const SdtDevice *db = *(SdtDevice *const *) b;
	return g_strcmp0(da->name, db->name);
}

GPtrArray *
sdt_devices_list(GPtrArray *mounts, GError **error)
{
	g_autoptr(SdtUdev) udev = NULL;
	g_autoptr(SdtUdevEnumerate) e = NULL;
	g_autoptr(GHashTable) system_disks = NULL;
	g_autoptr(GPtrArray) devices = NULL;
	struct udev_list_entry *entry;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	udev = udev_new();
	if (udev == NULL) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_FAILED,
				    _("Cannot talk to udev: the block devices are unknown"));
		return NULL;
	}
	system_disks = sdt_devices_system_disks(udev, mounts);
	devices = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_devices_free);
	e = udev_enumerate_new(udev);
	udev_enumerate_add_match_subsystem(e, "block");
	udev_enumerate_add_match_property(e, "DEVTYPE", "disk");
	udev_enumerate_scan_devices(e);
	udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(e))
	{
		g_autoptr(SdtUdevDevice) disk =
			udev_device_new_from_syspath(udev, udev_list_entry_get_name(entry));
		if (disk == NULL || sdt_devices_skip(disk))
			continue;
		g_ptr_array_add(devices, sdt_devices_read(udev, disk, mounts, system_disks));
	}
	g_ptr_array_sort(devices, sdt_devices_compare);
	return g_steal_pointer(&devices);
}

/* @path with its symbolic links followed, as text (the links of /dev/disk/by-*: "../../sda"),
 * without asking for the target to exist */
static gchar *
sdt_devices_follow_links(const gchar *path)
{
	g_autofree gchar *current = g_canonicalize_filename(path, "/");

	for (guint i = 0; i < 40; i++) {
		g_autofree gchar *target = g_file_read_link(current, NULL);
		g_autofree gchar *dir = NULL;
		if (target == NULL)
			return g_steal_pointer(&current);
		dir = g_path_get_dirname(current);
		g_free(current);
		current = g_canonicalize_filename(target, dir);
	}
	return NULL; /* a loop of links */
}

/* the kernel name of the whole disk @name is or is a partition of */
static gchar *
sdt_devices_disk_name(const gchar *name)
{
	g_autoptr(SdtUdev) udev = udev_new();
	g_autoptr(SdtUdevDevice) dev = NULL;
	g_autofree gchar *resolved = NULL;
	struct udev_device *disk;
	struct stat st;

	if (udev == NULL)
		return NULL;
	if (strchr(name, '/') == NULL)
		dev = udev_device_new_from_subsystem_sysname(udev, "block", name);
	else if (stat(name, &st) == 0 && S_ISBLK(st.st_mode))
		dev = udev_device_new_from_devnum(udev, 'b', st.st_rdev);
	if (dev == NULL && strchr(name, '/') != NULL &&
	    (resolved = sdt_devices_follow_links(name)) != NULL) {
		/* a node udev does not know by number (a test's /dev): go by its name */
		g_autofree gchar *base = g_path_get_basename(resolved);
		dev = udev_device_new_from_subsystem_sysname(udev, "block", base);
	}
	if (dev == NULL)
		return NULL;
	disk = sdt_devices_disk_of(dev);
	return disk != NULL ? g_strdup(udev_device_get_sysname(disk)) : NULL;
}

SdtDevice *
sdt_devices_lookup(GPtrArray *devices, const gchar *name, GError **error)
{
	g_autofree gchar *disk = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(devices != NULL, NULL);
	g_return_val_if_fail(name != NULL, NULL);

	disk = sdt_devices_disk_name(name);
	for (guint i = 0; disk != NULL && i < devices->len; i++) {
		SdtDevice *device = g_ptr_array_index(devices, i);
		if (g_strcmp0(device->name, disk) == 0)
			return device;
	}
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_NOT_FOUND,
		    _("%s is not a block device SD Tuner knows"),
		    name);
	return NULL;
}
