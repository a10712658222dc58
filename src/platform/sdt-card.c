/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <libudev.h>
#include <sys/sysmacros.h>

#include "sdt-card.h"
#include "sdt-file.h"
#include "sdt-mounts.h"
#include "sdt-emmc-private.h"

typedef struct udev SdtUdev;
typedef struct udev_device SdtUdevDevice;
typedef struct udev_enumerate SdtUdevEnumerate;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtUdev, udev_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtUdevDevice, udev_device_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtUdevEnumerate, udev_enumerate_unref)

/* where the system lives, in the order the card is looked for */
static const gchar *sdt_card_system_mounts[] = {"/", "/boot/firmware", "/boot"};

static SdtCard *
sdt_card_new(void)
{
	SdtCard *card = g_new0(SdtCard, 1);
	card->size_bytes = -1;
	card->capacity_bytes = -1;
	card->ext_perf = -1;
	card->ext_power = -1;
	sdt_emmc_wear_init(&card->emmc);
	card->emmc_ext_csd_rev = -1;
	card->mount_points = g_ptr_array_new_with_free_func(g_free);
	return card;
}

void
sdt_card_free(SdtCard *card)
{
	if (card == NULL)
		return;
	g_free(card->device);
	g_free(card->devnode);
	g_free(card->mmc_name);
	g_free(card->type);
	g_free(card->host);
	g_free(card->host_device);
	g_free(card->host_driver);
	g_free(card->system_device);
	g_ptr_array_unref(card->mount_points);
	g_free(card->cid_hex);
	g_free(card->csd_hex);
	g_free(card->scr_hex);
	g_free(card->ssr_hex);
	g_free(card->ext_perf_hex);
	g_free(card->ext_power_hex);
	g_free(card->sysfs_name);
	g_free(card->life_time_text);
	g_free(card->pre_eol_text);
	g_free(card->ext_csd_rev_text);
	g_free(card);
}

const gchar *
sdt_card_kind_to_string(SdtCardKind kind)
{
	return kind == SDT_CARD_KIND_EMMC ? "emmc" : "sd";
}

static void
sdt_card_warn(GPtrArray *warnings, gchar *msg)
{
	if (warnings != NULL)
		g_ptr_array_add(warnings, msg);
	else
		g_free(msg);
}

/* EXT_CSD_REV as sysfs "rev" prints it ("0x8"), -1 when unreadable */
static gint
sdt_card_parse_ext_csd_rev(const gchar *text)
{
	gchar *end = NULL;
	guint64 v;

	if (text == NULL || !g_str_has_prefix(text, "0x") || !g_ascii_isxdigit(text[2]))
		return -1;
	v = g_ascii_strtoull(text + 2, &end, 16);
	return *end == '\0' && v <= 0xff ? (gint) v : -1;
}

/* pure: eMMC has no SCR, SSR or SD CID; its CID, EXT_CSD revision and wear report */
static void
sdt_card_decode_emmc(SdtCard *card, GPtrArray *warnings)
{
	g_autoptr(GError) error_cid = NULL;
	g_autoptr(GError) error_life = NULL;
	g_autoptr(GError) error_eol = NULL;

	card->emmc_ext_csd_rev = sdt_card_parse_ext_csd_rev(card->ext_csd_rev_text);
	card->cid_valid = sdt_emmc_cid_parse(card->cid_hex,
					     card->emmc_ext_csd_rev,
					     &card->cid,
					     &card->emmc_oemid,
					     &error_cid);
	if (!card->cid_valid)
		sdt_card_warn(warnings,
			      g_strdup_printf(_("The eMMC identification (CID) cannot be decoded "
						"(%s): maker, name and date are unknown"),
					      error_cid->message));
	/* eMMC above 2 GB gives its size in EXT_CSD, not the CSD: the block device has it */
	card->capacity_bytes = card->size_bytes;
	if (!sdt_emmc_life_time_parse(card->life_time_text,
				      &card->emmc.life_time_a,
				      &card->emmc.life_time_b,
				      &error_life))
		sdt_card_warn(warnings,
			      g_strdup_printf(_("The eMMC life-time estimate cannot be read (%s): "
						"its wear is unknown"),
					      error_life->message));
	if (!sdt_emmc_pre_eol_parse(card->pre_eol_text, &card->emmc.pre_eol, &error_eol))
		sdt_card_warn(
			warnings,
			g_strdup_printf(_("The eMMC pre-EOL information cannot be read "
					  "(%s): the state of its reserved blocks is unknown"),
					error_eol->message));
}

/* pure: decodes the raw register strings; every problem becomes a warning */
static void
sdt_card_decode(SdtCard *card, GPtrArray *warnings)
{
	g_autoptr(GError) error_cid = NULL;
	g_autoptr(GError) error_csd = NULL;
	g_autoptr(GError) error_scr = NULL;
	g_autoptr(GError) error_ssr = NULL;

	card->cid_valid = sdt_card_regs_cid_parse(card->cid_hex, &card->cid, &error_cid);
	if (!card->cid_valid) {
		sdt_card_warn(warnings,
			      g_strdup_printf(_("The card identification (CID) cannot be decoded "
						"(%s): maker, name and date are unknown"),
					      error_cid->message));
	} else if (card->cid.month == 0) {
		sdt_card_warn(warnings,
			      g_strdup(_("The card stores an invalid manufacturing month: the "
					 "date is unknown")));
	}

	card->csd_valid = sdt_card_regs_csd_parse(card->csd_hex, &card->csd, &error_csd);
	if (card->csd_valid) {
		card->capacity_bytes = (gint64) card->csd.capacity_bytes;
	} else if (card->size_bytes >= 0) {
		card->capacity_bytes = card->size_bytes;
		sdt_card_warn(warnings,
			      g_strdup_printf(_("The card-specific data (CSD) cannot be decoded "
						"(%s): the capacity is the block device size"),
					      error_csd->message));
	} else {
		sdt_card_warn(warnings,
			      g_strdup_printf(_("The card-specific data (CSD) cannot be decoded "
						"(%s): the capacity is unknown"),
					      error_csd->message));
	}

	card->scr_valid = sdt_card_regs_scr_parse(card->scr_hex, &card->scr, &error_scr);
	if (!card->scr_valid) {
		sdt_card_warn(warnings,
			      g_strdup_printf(_("The SD configuration register (SCR) cannot be "
						"decoded (%s): the spec version and CMD48 support "
						"are unknown"),
					      error_scr->message));
	}

	card->ssr_valid = sdt_card_regs_ssr_parse(card->ssr_hex, &card->ssr, &error_ssr);
	if (!card->ssr_valid) {
		sdt_card_warn(warnings,
			      g_strdup_printf(_("The SD Status register (SSR) cannot be used (%s): "
						"speed, UHS, video and application classes are "
						"unknown"),
					      error_ssr->message));
	}

	/* ext_perf and ext_power exist only on newer kernels: absence is not a problem */
	card->ext_perf = -1;
	if (card->ext_perf_hex != NULL) {
		g_autoptr(GError) error = NULL;
		guint8 value = 0;
		if (sdt_card_regs_ext_byte_parse(card->ext_perf_hex, &value, &error))
			card->ext_perf = value;
		else
			sdt_card_warn(
				warnings,
				g_strdup_printf(_("ext_perf cannot be read (%s)"), error->message));
	}
	card->ext_power = -1;
	if (card->ext_power_hex != NULL) {
		g_autoptr(GError) error = NULL;
		guint8 value = 0;
		if (sdt_card_regs_ext_byte_parse(card->ext_power_hex, &value, &error))
			card->ext_power = value;
		else
			sdt_card_warn(warnings,
				      g_strdup_printf(_("ext_power cannot be read (%s)"),
						      error->message));
	}
}

/* a sysfs attribute is at most a page: 4 KiB, 64 KiB on kernels with larger pages */
#define SDT_CARD_SYSATTR_MAX_SIZE (64 * 1024)

/* a card register or name in sysfs (the live /sys, or umockdev's), through the one reader */
static gchar *
sdt_card_sysattr(struct udev_device *dev, const gchar *name)
{
	g_autofree gchar *path = g_build_filename(udev_device_get_syspath(dev), name, NULL);
	gchar *value = NULL;

	if (!sdt_file_read_kernel(NULL, path, SDT_CARD_SYSATTR_MAX_SIZE, &value, NULL, NULL))
		return NULL;
	return g_strstrip(value);
}

/* is @mmc storage of @kind? SDIO (WLAN) devices are neither SD cards nor eMMC */
static gboolean
sdt_card_mmc_is(struct udev_device *mmc, SdtCardKind kind)
{
	g_autofree gchar *type = sdt_card_sysattr(mmc, "type");
	if (type == NULL)
		type = g_strdup(udev_device_get_property_value(mmc, "MMC_TYPE"));
	if (kind == SDT_CARD_KIND_EMMC)
		return g_strcmp0(type, "MMC") == 0;
	return g_strcmp0(type, "SD") == 0 || g_strcmp0(type, "SDcombo") == 0;
}

static gboolean
sdt_card_mmc_is_storage(struct udev_device *mmc)
{
	return sdt_card_mmc_is(mmc, SDT_CARD_KIND_SD) || sdt_card_mmc_is(mmc, SDT_CARD_KIND_EMMC);
}

/* the whole-disk block device below an mmc card device */
static struct udev_device *
sdt_card_find_disk(struct udev *udev, struct udev_device *mmc)
{
	g_autoptr(SdtUdevEnumerate) e = udev_enumerate_new(udev);
	struct udev_list_entry *entry;

	udev_enumerate_add_match_parent(e, mmc);
	udev_enumerate_add_match_subsystem(e, "block");
	udev_enumerate_scan_devices(e);
	udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(e))
	{
		struct udev_device *dev =
			udev_device_new_from_syspath(udev, udev_list_entry_get_name(entry));
		if (dev == NULL)
			continue;
		if (g_strcmp0(udev_device_get_devtype(dev), "disk") == 0)
			return dev;
		udev_device_unref(dev);
	}
	return NULL;
}

/* the first SD card (or eMMC) of the mmc subsystem, by sysfs path */
static struct udev_device *
sdt_card_find_any(struct udev *udev, SdtCardKind kind)
{
	g_autoptr(SdtUdevEnumerate) e = udev_enumerate_new(udev);
	struct udev_list_entry *entry;

	udev_enumerate_add_match_subsystem(e, "mmc");
	udev_enumerate_scan_devices(e);
	udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(e))
	{
		struct udev_device *dev =
			udev_device_new_from_syspath(udev, udev_list_entry_get_name(entry));
		if (dev == NULL)
			continue;
		if (sdt_card_mmc_is(dev, kind))
			return dev;
		udev_device_unref(dev);
	}
	return NULL;
}

/* the mmc card device a mounted block device sits on, or NULL */
static struct udev_device *
sdt_card_mmc_for_mount(struct udev *udev, SdtMount *mount)
{
	g_autoptr(SdtUdevDevice) dev = NULL;
	struct udev_device *mmc;

	if (mount->major == 0)
		return NULL; /* overlay, tmpfs, btrfs subvolume ...: no block device */
	dev = udev_device_new_from_devnum(udev, 'b', makedev(mount->major, mount->minor));
	if (dev == NULL)
		return NULL;
	mmc = udev_device_get_parent_with_subsystem_devtype(dev, "mmc", NULL);
	if (mmc == NULL || !sdt_card_mmc_is_storage(mmc))
		return NULL;
	return udev_device_ref(mmc);
}

/* is @mount on @disk or one of its partitions? */
static gboolean
sdt_card_mount_on_disk(struct udev *udev, SdtMount *mount, struct udev_device *disk)
{
	g_autoptr(SdtUdevDevice) dev = NULL;
	struct udev_device *parent;

	if (mount->major == 0)
		return FALSE;
	dev = udev_device_new_from_devnum(udev, 'b', makedev(mount->major, mount->minor));
	if (dev == NULL)
		return FALSE;
	if (g_strcmp0(udev_device_get_syspath(dev), udev_device_get_syspath(disk)) == 0)
		return TRUE;
	parent = udev_device_get_parent_with_subsystem_devtype(dev, "block", "disk");
	return parent != NULL &&
	       g_strcmp0(udev_device_get_syspath(parent), udev_device_get_syspath(disk)) == 0;
}

/* the SD card or eMMC the system runs from (/, else /boot/firmware, /boot), or NULL;
 * records where / is when it is elsewhere */
static struct udev_device *
sdt_card_find_system(struct udev *udev, GPtrArray *mounts, SdtCard *card)
{
	for (guint i = 0; mounts != NULL && i < G_N_ELEMENTS(sdt_card_system_mounts); i++) {
		SdtMount *mount = sdt_mounts_find_mount_point(mounts, sdt_card_system_mounts[i]);
		struct udev_device *mmc;
		if (mount == NULL)
			continue;
		mmc = sdt_card_mmc_for_mount(udev, mount);
		if (mmc != NULL) {
			card->holds_system = TRUE;
			return mmc;
		}
		if (i == 0)
			card->system_device = g_path_get_basename(mount->source);
	}
	return NULL;
}

/* the card's name and its raw registers, as sysfs gives them */
static void
sdt_card_read_registers(SdtCard *card, struct udev_device *mmc)
{
	card->mmc_name = g_strdup(udev_device_get_sysname(mmc));
	card->type = sdt_card_sysattr(mmc, "type");
	card->cid_hex = sdt_card_sysattr(mmc, "cid");
	card->csd_hex = sdt_card_sysattr(mmc, "csd");
	card->scr_hex = sdt_card_sysattr(mmc, "scr");
	card->ssr_hex = sdt_card_sysattr(mmc, "ssr");
	card->ext_perf_hex = sdt_card_sysattr(mmc, "ext_perf");
	card->ext_power_hex = sdt_card_sysattr(mmc, "ext_power");
	card->sysfs_name = sdt_card_sysattr(mmc, "name");
	card->kind =
		sdt_card_mmc_is(mmc, SDT_CARD_KIND_EMMC) ? SDT_CARD_KIND_EMMC : SDT_CARD_KIND_SD;
	if (card->kind == SDT_CARD_KIND_EMMC) {
		card->life_time_text = sdt_card_sysattr(mmc, "life_time");
		/* some vendor kernels split it: life_time_est_typ_a, _b ("0x%02X" each) */
		if (card->life_time_text == NULL) {
			g_autofree gchar *a = sdt_card_sysattr(mmc, "life_time_est_typ_a");
			g_autofree gchar *b = sdt_card_sysattr(mmc, "life_time_est_typ_b");
			if (a != NULL && b != NULL)
				card->life_time_text = g_strdup_printf("%s %s", a, b);
		}
		card->pre_eol_text = sdt_card_sysattr(mmc, "pre_eol_info");
		card->ext_csd_rev_text = sdt_card_sysattr(mmc, "rev");
	}
}

/* the mmc host controller and its platform device and driver */
static void
sdt_card_read_host(SdtCard *card, struct udev_device *mmc, GPtrArray *warnings)
{
	struct udev_device *host =
		udev_device_get_parent_with_subsystem_devtype(mmc, "mmc_host", NULL);
	struct udev_device *platform;

	if (host == NULL) {
		sdt_card_warn(warnings,
			      g_strdup(_("The card's mmc host controller is not in sysfs: the "
					 "controller and bus state are unknown")));
		return;
	}
	card->host = g_strdup(udev_device_get_sysname(host));
	platform = udev_device_get_parent(host);
	if (platform != NULL) {
		card->host_device = g_strdup(udev_device_get_sysname(platform));
		card->host_driver = g_strdup(udev_device_get_driver(platform));
	}
}

/* the card's block device, its size, and where its partitions are mounted */
static void
sdt_card_read_disk(SdtCard *card,
		   struct udev *udev,
		   struct udev_device *mmc,
		   GPtrArray *mounts,
		   GPtrArray *warnings)
{
	g_autoptr(SdtUdevDevice) disk = sdt_card_find_disk(udev, mmc);
	const gchar *size;

	if (disk == NULL) {
		sdt_card_warn(warnings,
			      g_strdup(_("The SD card has no block device (the mmcblk driver is "
					 "not bound)")));
		return;
	}
	size = udev_device_get_sysattr_value(disk, "size");
	card->device = g_strdup(udev_device_get_sysname(disk));
	card->devnode = g_strdup(udev_device_get_devnode(disk));
	if (card->devnode == NULL)
		card->devnode = g_strdup_printf("/dev/%s", card->device);
	if (size != NULL) {
		gchar *end = NULL;
		guint64 sectors = g_ascii_strtoull(size, &end, 10);
		if (end != size && sectors < G_MAXINT64 / 512)
			card->size_bytes = (gint64) sectors * 512;
	}
	for (guint i = 0; mounts != NULL && i < mounts->len; i++) {
		SdtMount *mount = g_ptr_array_index(mounts, i);
		/* where the card is mounted on the system, not a sandbox's bind mounts */
		if (sdt_mounts_is_own_mount(mounts, mount) &&
		    sdt_card_mount_on_disk(udev, mount, disk))
			g_ptr_array_add(card->mount_points, g_strdup(mount->mount_point));
	}
}

SdtCard *
sdt_card_detect(GPtrArray *mounts, GPtrArray *warnings)
{
	g_autoptr(SdtCard) card = sdt_card_new();
	g_autoptr(SdtUdev) udev = udev_new();
	g_autoptr(SdtUdevDevice) mmc = NULL;

	if (udev == NULL) {
		sdt_card_warn(warnings, g_strdup(_("Cannot talk to udev: the card is unknown")));
		return g_steal_pointer(&card);
	}
	mmc = sdt_card_find_system(udev, mounts, card);
	if (mmc == NULL)
		mmc = sdt_card_find_any(udev, SDT_CARD_KIND_SD);
	if (mmc == NULL)
		mmc = sdt_card_find_any(udev, SDT_CARD_KIND_EMMC);
	if (mmc == NULL) {
		sdt_card_warn(warnings,
			      g_strdup(_("No SD card found: there is no card in the slot, or the "
					 "SD controller is disabled")));
		return g_steal_pointer(&card);
	}

	card->present = TRUE;
	sdt_card_read_registers(card, mmc);
	sdt_card_read_host(card, mmc, warnings);
	sdt_card_read_disk(card, udev, mmc, mounts, warnings);

	card->mounts_known = mounts != NULL;
	if (card->mounts_known && !card->holds_system && card->kind == SDT_CARD_KIND_EMMC) {
		if (card->system_device != NULL)
			sdt_card_warn(warnings,
				      g_strdup_printf(_("The system does not run from this eMMC "
							"(/ is on %s)"),
						      card->system_device));
		else
			sdt_card_warn(warnings,
				      g_strdup(_("The system does not run from this eMMC")));
	} else if (card->mounts_known && !card->holds_system) {
		if (card->system_device != NULL)
			sdt_card_warn(warnings,
				      g_strdup_printf(_("The system does not run from this SD card "
							"(/ is on %s)"),
						      card->system_device));
		else
			sdt_card_warn(warnings,
				      g_strdup(_("The system does not run from this SD card")));
	}

	if (card->kind == SDT_CARD_KIND_EMMC)
		sdt_card_decode_emmc(card, warnings);
	else
		sdt_card_decode(card, warnings);
	return g_steal_pointer(&card);
}
