/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <unistd.h>
#include <umockdev.h>

#include "sdt-client-device-monitor.h"
#include "sdt-device-offer.h"
#include "sdt-device-offer-private.h"
#include "sdt-devices.h"
#include "sdt-error.h"
#include "sdt-mounts.h"

/*
 * Which block devices are offered for a check (issue 34): the pure decision on its facts,
 * then sdt_devices_list() on a UMockdevTestbed (this binary runs under umockdev-wrapper)
 * of tests/data/umockdev/card-readers.umockdev: the running system's SD card (pi3), a USB
 * reader with a card, an empty reader, a USB SSD, a reader whose card is mounted and a
 * built-in second SD slot, with the mount table of tests/data/roots/card-readers.
 */

static void
test_decide(void)
{
	SdtDeviceOfferFacts card = {.removable = TRUE, .medium = TRUE};
	SdtDeviceOfferFacts f;

	g_assert_cmpint(sdt_device_offer_decide(&card), ==, SDT_DEVICE_OFFER_OK);
	/* an SD card in a slot whose host says "not removable" is still a card */
	f = (SdtDeviceOfferFacts){.sd_card = TRUE, .medium = TRUE};
	g_assert_cmpint(sdt_device_offer_decide(&f), ==, SDT_DEVICE_OFFER_OK);
	f = card;
	f.system_disk = TRUE;
	f.mounted = TRUE;
	g_assert_cmpint(sdt_device_offer_decide(&f), ==, SDT_DEVICE_OFFER_SYSTEM_DISK);
	f = (SdtDeviceOfferFacts){.medium = TRUE};
	g_assert_cmpint(sdt_device_offer_decide(&f), ==, SDT_DEVICE_OFFER_NOT_REMOVABLE);
	f = (SdtDeviceOfferFacts){.removable = TRUE};
	g_assert_cmpint(sdt_device_offer_decide(&f), ==, SDT_DEVICE_OFFER_NO_MEDIUM);
	f = card;
	f.mounted = TRUE;
	f.read_only = TRUE;
	g_assert_cmpint(sdt_device_offer_decide(&f), ==, SDT_DEVICE_OFFER_MOUNTED);
	f = card;
	f.held = TRUE;
	g_assert_cmpint(sdt_device_offer_decide(&f), ==, SDT_DEVICE_OFFER_IN_USE);
	f = card;
	f.read_only = TRUE;
	g_assert_cmpint(sdt_device_offer_decide(&f), ==, SDT_DEVICE_OFFER_READ_ONLY);

	g_assert_null(sdt_device_offer_to_code(SDT_DEVICE_OFFER_OK));
	g_assert_null(sdt_device_offer_to_reason(SDT_DEVICE_OFFER_OK));
	g_assert_cmpstr(sdt_device_offer_to_code(SDT_DEVICE_OFFER_SYSTEM_DISK), ==, "system-disk");
	g_assert_cmpstr(sdt_device_offer_to_reason(SDT_DEVICE_OFFER_SYSTEM_DISK),
			==,
			"It is the system disk");
	g_assert_cmpstr(sdt_device_offer_to_code(SDT_DEVICE_OFFER_NO_MEDIUM), ==, "no-medium");
}

/* issue 34: on a simulated board a loop device stands in for a card, decided as a card in
 * a reader would be for every other reason; nothing else changes */
static void
test_decide_stand_in(void)
{
	SdtDeviceOfferFacts loop = {.loop = TRUE, .medium = TRUE};
	SdtDeviceOfferFacts f;

	g_assert_cmpint(sdt_device_offer_decide(&loop), ==, SDT_DEVICE_OFFER_NOT_REMOVABLE);
	g_assert_cmpint(sdt_device_offer_decide_stand_in(&loop), ==, SDT_DEVICE_OFFER_STAND_IN);
	g_assert_true(sdt_device_offer_is_offered(SDT_DEVICE_OFFER_STAND_IN));
	g_assert_true(sdt_device_offer_is_offered(SDT_DEVICE_OFFER_OK));
	g_assert_false(sdt_device_offer_is_offered(SDT_DEVICE_OFFER_NOT_REMOVABLE));
	g_assert_cmpstr(sdt_device_offer_to_code(SDT_DEVICE_OFFER_STAND_IN), ==, "stand-in");
	g_assert_nonnull(sdt_device_offer_to_reason(SDT_DEVICE_OFFER_STAND_IN));
	/* what hides behind "not removable" counts for a loop device */
	f = loop;
	f.mounted = TRUE;
	g_assert_cmpint(sdt_device_offer_decide_stand_in(&f), ==, SDT_DEVICE_OFFER_MOUNTED);
	f = loop;
	f.read_only = TRUE;
	g_assert_cmpint(sdt_device_offer_decide_stand_in(&f), ==, SDT_DEVICE_OFFER_READ_ONLY);
	f = loop;
	f.held = TRUE;
	g_assert_cmpint(sdt_device_offer_decide_stand_in(&f), ==, SDT_DEVICE_OFFER_IN_USE);
	f = loop;
	f.medium = FALSE;
	g_assert_cmpint(sdt_device_offer_decide_stand_in(&f), ==, SDT_DEVICE_OFFER_NO_MEDIUM);
	f = loop;
	f.system_disk = TRUE;
	g_assert_cmpint(sdt_device_offer_decide_stand_in(&f), ==, SDT_DEVICE_OFFER_SYSTEM_DISK);
	/* a fixed disk that is not a loop device stays what it is */
	f = (SdtDeviceOfferFacts){.medium = TRUE};
	g_assert_cmpint(sdt_device_offer_decide_stand_in(&f), ==, SDT_DEVICE_OFFER_NOT_REMOVABLE);
	f = (SdtDeviceOfferFacts){.removable = TRUE, .medium = TRUE};
	g_assert_cmpint(sdt_device_offer_decide_stand_in(&f), ==, SDT_DEVICE_OFFER_OK);
}

typedef struct {
	UMockdevTestbed *testbed;
	GPtrArray *mounts;
	GPtrArray *devices;
} Fixture;

static void
fixture_setup(Fixture *fx, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *umockdev = g_test_build_filename(G_TEST_DIST,
							   "data",
							   "umockdev",
							   "card-readers.umockdev",
							   NULL);
	g_autofree gchar *mountinfo = g_test_build_filename(G_TEST_DIST,
							    "data",
							    "roots",
							    "card-readers",
							    "proc",
							    "self",
							    "mountinfo",
							    NULL);
	g_autofree gchar *text = NULL;

	fx->testbed = umockdev_testbed_new();
	g_assert_true(umockdev_testbed_add_from_file(fx->testbed, umockdev, &error));
	g_assert_no_error(error);
	g_assert_true(g_file_get_contents(mountinfo, &text, NULL, &error));
	fx->mounts = sdt_mounts_parse(text, NULL);
}

static void
fixture_list(Fixture *fx)
{
	g_autoptr(GError) error = NULL;

	fx->devices = sdt_devices_list(fx->mounts, &error);
	g_assert_no_error(error);
	g_assert_nonnull(fx->devices);
}

static void
fixture_teardown(Fixture *fx, gconstpointer data)
{
	g_clear_pointer(&fx->devices, g_ptr_array_unref);
	g_clear_pointer(&fx->mounts, g_ptr_array_unref);
	g_clear_object(&fx->testbed);
}

static SdtDevice *
find(Fixture *fx, const gchar *name)
{
	for (guint i = 0; i < fx->devices->len; i++) {
		SdtDevice *d = g_ptr_array_index(fx->devices, i);
		if (g_strcmp0(d->name, name) == 0)
			return d;
	}
	g_assert_not_reached();
	return NULL;
}

static void
test_list(Fixture *fx, gconstpointer data)
{
	SdtDevice *d;

	fixture_list(fx);
	g_assert_cmpuint(fx->devices->len, ==, 6);

	/* the built-in slot holding the running system (/ and /boot/firmware) */
	d = find(fx, "mmcblk0");
	g_assert_cmpint(d->offer, ==, SDT_DEVICE_OFFER_SYSTEM_DISK);
	g_assert_true(d->facts.system_disk);
	g_assert_true(d->facts.sd_card);
	g_assert_cmpstr(d->bus, ==, "mmc");
	g_assert_cmpstr(d->card_type, ==, "SD");
	g_assert_cmpuint(d->mount_points->len, ==, 2);
	/* not behind USB: no reader's link speed */
	g_assert_cmpfloat(d->usb_speed_mbit_s, ==, 0);

	/* a USB reader with a card: offered, named as udev names it */
	d = find(fx, "sda");
	g_assert_cmpint(d->offer, ==, SDT_DEVICE_OFFER_OK);
	g_assert_cmpstr(d->vendor, ==, "Generic");
	g_assert_cmpstr(d->model, ==, "STORAGE DEVICE");
	g_assert_cmpstr(d->serial, ==, "000000000819");
	g_assert_cmpstr(d->bus, ==, "usb");
	g_assert_cmpstr(d->devnode, ==, "/dev/sda");
	g_assert_cmpuint(d->size_bytes, ==, G_GUINT64_CONSTANT(62333952) * 512);
	/* the reader's own USB device's sysfs "speed" (a USB 3 reader on a Pi 3's USB 2 hub) */
	g_assert_cmpfloat(d->usb_speed_mbit_s, ==, 480);
	g_assert_true(d->facts.removable);
	g_assert_cmpuint(d->mount_points->len, ==, 0);

	/* the reader's empty slot */
	d = find(fx, "sdb");
	g_assert_cmpint(d->offer, ==, SDT_DEVICE_OFFER_NO_MEDIUM);
	g_assert_cmpuint(d->size_bytes, ==, 0);
	g_assert_null(d->signatures_from);

	/* a USB SSD: not removable, not an SD card */
	d = find(fx, "sdc");
	g_assert_cmpint(d->offer, ==, SDT_DEVICE_OFFER_NOT_REMOVABLE);
	g_assert_cmpstr(d->model, ==, "PSSD T7");

	/* a card whose partition is mounted (at a path with a space) */
	d = find(fx, "sdd");
	g_assert_cmpint(d->offer, ==, SDT_DEVICE_OFFER_MOUNTED);
	g_assert_cmpuint(d->mount_points->len, ==, 1);
	g_assert_cmpstr(g_ptr_array_index(d->mount_points, 0), ==, "/media/pi/NIKON D");
	/* a full-speed (USB 1.1) reader: the speed of its own usb_device, not the hub's */
	g_assert_cmpfloat(d->usb_speed_mbit_s, ==, 12);

	/* a second, built-in SD slot whose host says "not removable": an SD card all the same */
	d = find(fx, "mmcblk1");
	g_assert_cmpint(d->offer, ==, SDT_DEVICE_OFFER_OK);
	g_assert_false(d->facts.removable);
	g_assert_true(d->facts.sd_card);
	g_assert_cmpstr(d->model, ==, "SC64G");
	g_assert_cmpstr(d->serial, ==, "0x5a3c0e1b");
}

/* the system disk under another name: a by-id link, a partition, a partition's node */
static void
test_lookup(Fixture *fx, gconstpointer data)
{
	const gchar *system_names[] = {"mmcblk0",
				       "/dev/mmcblk0",
				       "/dev/disk/by-id/mmc-SU08G_0x1e4c2983",
				       "mmcblk0p2",
				       "/dev/mmcblk0p1",
				       "/dev/disk/by-label/bootfs"};
	g_autoptr(GError) error = NULL;
	SdtDevice *d;

	fixture_list(fx);
	for (guint i = 0; i < G_N_ELEMENTS(system_names); i++) {
		d = sdt_devices_lookup(fx->devices, system_names[i], &error);
		g_assert_no_error(error);
		g_assert_cmpstr(d->name, ==, "mmcblk0");
		g_assert_cmpint(d->offer, ==, SDT_DEVICE_OFFER_SYSTEM_DISK);
	}
	d = sdt_devices_lookup(fx->devices,
			       "/dev/disk/by-id/usb-Generic_STORAGE_DEVICE_000000000819-0:0",
			       &error);
	g_assert_no_error(error);
	g_assert_cmpstr(d->name, ==, "sda");
	d = sdt_devices_lookup(fx->devices, "sdd1", &error);
	g_assert_no_error(error);
	g_assert_cmpint(d->offer, ==, SDT_DEVICE_OFFER_MOUNTED);

	g_assert_null(sdt_devices_lookup(fx->devices, "/dev/nothing", &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
	g_clear_error(&error);
	g_assert_null(sdt_devices_lookup(fx->devices, "sdz", &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
}

/* libblkid reads the device: an MBR partition table written into the reader's card */
static void
test_blkid(Fixture *fx, gconstpointer data)
{
	g_autofree gchar *node =
		g_build_filename(umockdev_testbed_get_root_dir(fx->testbed), "dev", "sda", NULL);
	guint8 mbr[512] = {0};
	FILE *f;
	SdtDevice *d;

	mbr[446 + 4] = 0x0c;      /* FAT32 LBA */
	mbr[446 + 8 + 1] = 0x20;  /* first sector 8192 */
	mbr[446 + 12 + 2] = 0x10; /* 1 Mi sectors */
	mbr[510] = 0x55;
	mbr[511] = 0xaa;
	f = fopen(node, "r+b");
	g_assert_nonnull(f);
	g_assert_cmpuint(fwrite(mbr, 1, sizeof(mbr), f), ==, sizeof(mbr));
	/* libblkid wants more than the table: a card of 2 MiB */
	g_assert_cmpint(ftruncate(fileno(f), 2 * 1024 * 1024), ==, 0);
	fclose(f);

	fixture_list(fx);
	d = find(fx, "sda");
	g_assert_cmpstr(d->signatures_from, ==, "blkid");
	g_assert_cmpstr(d->partition_table, ==, "dos");
	/* the empty node of another card: read, nothing on it */
	d = find(fx, "mmcblk1");
	g_assert_cmpstr(d->signatures_from, ==, "blkid");
	g_assert_null(d->partition_table);
	g_assert_cmpuint(d->filesystems->len, ==, 0);
}

/* a mount table that says nothing of the system: nothing is the system disk, and the
 * listing still works (the ops refuse to list without a mount table at all) */
static void
test_no_mounts(Fixture *fx, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) devices = sdt_devices_list(NULL, &error);

	g_assert_no_error(error);
	for (guint i = 0; i < devices->len; i++) {
		SdtDevice *d = g_ptr_array_index(devices, i);
		g_assert_false(d->facts.system_disk);
		g_assert_false(d->facts.mounted);
	}
}

static void
monitor_cb(const gchar *action, const gchar *name, gpointer user_data)
{
	GPtrArray *seen = user_data;
	g_ptr_array_add(seen, g_strdup_printf("%s %s", action, name));
}

static gboolean
seen_has(GPtrArray *seen, const gchar *what)
{
	for (guint i = 0; i < seen->len; i++) {
		if (g_strcmp0(g_ptr_array_index(seen, i), what) == 0)
			return TRUE;
	}
	return FALSE;
}

/* a card put into a reader and taken out: udev's add and remove events reach the monitor
 * (block devices only: the USB device and its SCSI parent are not passed on) */
static void
test_monitor(Fixture *fx, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(SdtClientDeviceMonitor) monitor =
		sdt_client_device_monitor_new(monitor_cb, seen, &error);
	g_autofree gchar *disk = NULL;
	g_autofree gchar *usb = NULL;
	gint64 end;

	g_assert_no_error(error);
	g_assert_nonnull(monitor);
	usb = umockdev_testbed_add_device(fx->testbed,
					  "usb",
					  "3-1",
					  NULL,
					  "idVendor",
					  "05e3",
					  NULL,
					  "DEVTYPE",
					  "usb_device",
					  NULL);
	disk = umockdev_testbed_add_device(fx->testbed,
					   "block",
					   "sde",
					   usb,
					   "size",
					   "62333952",
					   "removable",
					   "1",
					   NULL,
					   "DEVTYPE",
					   "disk",
					   "ID_BUS",
					   "usb",
					   NULL);
	g_assert_nonnull(disk);
	end = g_get_monotonic_time() + 5 * G_USEC_PER_SEC;
	while (!seen_has(seen, "add sde") && g_get_monotonic_time() < end)
		g_main_context_iteration(NULL, FALSE);
	g_assert_true(seen_has(seen, "add sde"));
	g_assert_false(seen_has(seen, "add 3-1"));

	umockdev_testbed_uevent(fx->testbed, disk, "remove");
	umockdev_testbed_remove_device(fx->testbed, disk);
	end = g_get_monotonic_time() + 5 * G_USEC_PER_SEC;
	while (!seen_has(seen, "remove sde") && g_get_monotonic_time() < end)
		g_main_context_iteration(NULL, FALSE);
	g_assert_true(seen_has(seen, "remove sde"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/devices/decide", test_decide);
	g_test_add_func("/sdtuner/devices/decide-stand-in", test_decide_stand_in);
	g_test_add("/sdtuner/devices/list",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_list,
		   fixture_teardown);
	g_test_add("/sdtuner/devices/lookup",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_lookup,
		   fixture_teardown);
	g_test_add("/sdtuner/devices/blkid",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_blkid,
		   fixture_teardown);
	g_test_add("/sdtuner/devices/no-mounts",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_no_mounts,
		   fixture_teardown);
	g_test_add("/sdtuner/devices/monitor",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_monitor,
		   fixture_teardown);
	return g_test_run();
}
