/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * `bench --device` (issue 34): the benchmark of a whole unmounted card, in a USB reader or
 * a second slot.  The read tests run on any card `sdtunerctl devices` offers, on a region
 * of the device opened O_RDONLY | O_DIRECT | O_EXCL; the write tests only where nothing
 * can be lost: a card with no partition table and no file system signature (libblkid, as
 * `devices` reads it), or after --destroy-data-on named the same device.  Otherwise they
 * are skipped with a note, and there is no A1/A2 verdict.  Not added to the running
 * card's history: the record says target.whole_device and the node, so that a history
 * of device checks could take it.
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sdt-bench.h"
#include "sdt-devices.h"
#include "sdt-error.h"
#include "sdt-mounts.h"
#include "sdt-ops.h"
#include "sdt-ops-private.h"

#define MIB (G_GUINT64_CONSTANT(1024) * 1024)

/* the sequential read at or above this share of the reader's link: the reader caps it */
#define SDT_OPS_BENCH_DEVICE_BOTTLENECK_PERCENT 85.0

/*
 * What a USB mass-storage reader carries in practice at a link speed (Mbit/s), in MB/s:
 * USB 2.0's 480 Mbit/s gives 35-42 MB/s with the bulk-only protocol, USB 3's 5 Gbit/s
 * some 400 MB/s; 0 when unknown
 */
gdouble
sdt_ops_bench_device_usb_ceiling(gdouble mbit_s)
{
	if (!(mbit_s > 0))
		return 0;
	if (mbit_s <= 12)
		return 1.0;
	if (mbit_s <= 480)
		return 40.0;
	if (mbit_s <= 5000)
		return 400.0;
	if (mbit_s <= 10000)
		return 800.0;
	return 1600.0;
}

/* the whole-disk device of @devices that @name names: offered, or refused saying why */
static SdtDevice *
sdt_ops_bench_device_find(GPtrArray *devices,
			  const gchar *name,
			  gboolean allow_fixed,
			  GError **error)
{
	SdtDevice *d = sdt_devices_lookup(devices, name, error);
	struct stat st;

	if (d == NULL)
		return NULL;
	/* as the check: a partition is refused, naming the whole card */
	if (stat(name, &st) == 0 && S_ISBLK(st.st_mode) &&
	    st.st_rdev != makedev(d->major, d->minor) && d->offer != SDT_DEVICE_OFFER_SYSTEM_DISK) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    _("%s is a partition; name the whole card, %s"),
			    name,
			    d->devnode);
		return NULL;
	}
	/* a locked card is read: its write tests are skipped */
	if (d->offer == SDT_DEVICE_OFFER_OK || d->offer == SDT_DEVICE_OFFER_READ_ONLY ||
	    (allow_fixed && d->offer == SDT_DEVICE_OFFER_NOT_REMOVABLE))
		return d;
	g_set_error(error,
		    SDT_ERROR,
		    d->offer == SDT_DEVICE_OFFER_MOUNTED || d->offer == SDT_DEVICE_OFFER_IN_USE
			    ? SDT_ERROR_BUSY
		    : d->offer == SDT_DEVICE_OFFER_NO_MEDIUM ? SDT_ERROR_NOT_FOUND
							     : SDT_ERROR_NOT_SUPPORTED,
		    /* TRANSLATORS: a device (/dev/sdb), then why it cannot be benchmarked */
		    _("%s cannot be benchmarked. %s."),
		    d->devnode,
		    sdt_device_offer_to_reason(d->offer));
	return NULL;
}

/* --destroy-data-on must name the same device (any name of it), else nothing is done */
static gboolean
sdt_ops_bench_device_confirmed(SdtDevice *d, const gchar *confirm, GError **error)
{
	g_autofree gchar *node = NULL;
	struct stat st;

	if (confirm == NULL)
		return TRUE;
	/* a kernel name ("sdb") as sdt_devices_lookup() takes it */
	node = strchr(confirm, '/') != NULL ? g_strdup(confirm)
					    : g_strconcat("/dev/", confirm, NULL);
	if (stat(node, &st) == 0 && S_ISBLK(st.st_mode) &&
	    st.st_rdev == makedev(d->major, d->minor))
		return TRUE;
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_ARGUMENT,
		    /* Translators: the confirmation as given, then the device to benchmark */
		    _("The confirmation --destroy-data-on %s does not name the card to "
		      "benchmark, %s; nothing was written"),
		    confirm,
		    d->devnode);
	return FALSE;
}

/* "dos; vfat “bootfs”, ext4 “rootfs”": what blkid found on the card */
static gchar *
sdt_ops_bench_device_holds(SdtDevice *d)
{
	g_autoptr(GString) s = g_string_new(d->partition_table);

	for (guint i = 0; i < d->filesystems->len; i++) {
		SdtDeviceFs *fs = g_ptr_array_index(d->filesystems, i);
		g_string_append(s, i == 0 ? (s->len > 0 ? "; " : "") : ", ");
		g_string_append(s, fs->type != NULL ? fs->type : "?");
		if (fs->label != NULL)
			g_string_append_printf(s, " “%s”", fs->label);
	}
	return g_string_free(g_steal_pointer(&s), FALSE);
}

/* why the write tests may run ("blank", "confirmed"), or NULL and the note why not */
static const gchar *
sdt_ops_bench_device_writes(SdtDevice *d, const gchar *confirm, gchar **note)
{
	g_autofree gchar *holds = NULL;

	*note = NULL;
	if (d->facts.read_only) {
		*note = g_strdup_printf(_("write tests skipped: %s is read-only (a card's lock "
					  "switch, or the reader's)"),
					d->devnode);
		return NULL;
	}
	if (confirm != NULL)
		return "confirmed";
	if (g_strcmp0(d->signatures_from, "blkid") == 0 && d->partition_table == NULL &&
	    d->filesystems->len == 0)
		return "blank";
	if (g_strcmp0(d->signatures_from, "blkid") != 0) {
		*note = g_strdup_printf(_("write tests skipped: what %s holds could not be "
					  "read, so it may hold data; to run them anyway, "
					  "confirm with --destroy-data-on %s"),
					d->devnode,
					d->devnode);
		return NULL;
	}
	holds = sdt_ops_bench_device_holds(d);
	/* Translators: the card, what it holds ("dos; vfat “bootfs”, ext4 “rootfs”"), the card */
	*note = g_strdup_printf(_("write tests skipped: %s holds a partition table or file "
				  "systems (%s), which they would overwrite; to run them anyway, "
				  "confirm with --destroy-data-on %s"),
				d->devnode,
				holds,
				d->devnode);
	return NULL;
}

/* what a USB reader hides, and whether its link capped the reads */
static void
sdt_ops_bench_device_reader_notes(SdtBenchRecord *record, const SdtDevice *d, gdouble ceiling)
{
	if (g_strcmp0(d->bus, "usb") != 0)
		return;
	if (d->usb_speed_mbit_s > 0)
		g_ptr_array_add(record->notes,
				g_strdup_printf(_("Behind a USB reader linked at %.0f Mbit/s: the "
						  "card's registers (CID, CSD) and its own bus "
						  "speed are not visible, and the reader's link "
						  "carries about %.0f MB/s at most"),
						d->usb_speed_mbit_s,
						ceiling));
	else
		g_ptr_array_add(record->notes,
				g_strdup(_("Behind a USB reader: the card's registers (CID, "
					   "CSD) and its own bus speed are not visible")));
	if (record->reader_bottleneck)
		g_ptr_array_add(record->notes,
				g_strdup_printf(_("The reader is the bottleneck: the sequential "
						  "read reached %.0f%% of what its USB link "
						  "carries; the card may well be faster"),
						record->ceiling_percent));
}

SdtBenchRecord *
sdt_ops_bench_device_record(SdtBenchResult *result,
			    SdtBenchTarget *target,
			    const SdtDevice *d,
			    const gchar *writes,
			    gchar *skip_note)
{
	gdouble ceiling = sdt_ops_bench_device_usb_ceiling(d->usb_speed_mbit_s);
	SdtBenchRecord *record;

	if (skip_note != NULL) {
		g_ptr_array_insert(result->notes, 0, skip_note);
		g_ptr_array_insert(result->notes,
				   1,
				   g_strdup(_("A1/A2 cannot be judged without the write tests: "
					      "the read figures are reported alone")));
	} else if (g_strcmp0(writes, "confirmed") == 0) {
		g_ptr_array_insert(
			result->notes,
			0,
			g_strdup_printf(_("The write tests overwrote %" PRIu64 " MiB of %s from "
					  "%" PRIu64 " MiB on, as --destroy-data-on confirmed"),
					target->size / MIB,
					d->devnode,
					target->offset / MIB));
	}
	record = sdt_bench_result_to_record(result, target, ceiling);
	record->writes = g_strdup(writes);
	record->bus = g_strdup(d->bus);
	record->usb_speed_mbit_s = d->usb_speed_mbit_s > 0 ? d->usb_speed_mbit_s : NAN;
	record->reader_bottleneck =
		ceiling > 0 && isfinite(record->ceiling_percent) &&
		record->ceiling_percent >= SDT_OPS_BENCH_DEVICE_BOTTLENECK_PERCENT;
	sdt_ops_bench_device_reader_notes(record, d, ceiling);
	return record;
}

SdtBenchRecord *
sdt_ops_bench_device(SdtContext *ctx,
		     const gchar *profile,
		     const gchar *device,
		     const gchar *confirm,
		     gboolean allow_fixed,
		     SdtBenchProgressFunc progress,
		     gpointer user_data,
		     GCancellable *cancellable,
		     GError **error)
{
	g_autoptr(SdtContext) host = NULL;
	g_autoptr(GPtrArray) mounts = NULL;
	g_autoptr(GPtrArray) devices = NULL;
	g_autoptr(SdtBenchTarget) target = NULL;
	g_autoptr(SdtBenchResult) result = NULL;
	g_autofree gchar *skip_note = NULL;
	SdtBenchConfig config;
	const gchar *writes;
	gboolean read_only = FALSE;
	SdtDevice *d;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(SDT_IS_CONTEXT(ctx) && device != NULL, NULL);

	if (g_strcmp0(profile, "soak") == 0) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_NOT_SUPPORTED,
				    _("The soak test runs on the running card's file system only, "
				      "not on a whole card"));
		return NULL;
	}
	if (!sdt_bench_config_for_profile(profile, &config, error))
		return NULL;
	/* the kernel's own mount table, under --root too: the devices are the real ones,
	 * and without it the system disk is unknown and nothing may be benchmarked */
	host = sdt_context_new("/", error);
	mounts = host != NULL ? sdt_mounts_load(host, error) : NULL;
	devices = mounts != NULL ? sdt_devices_list(mounts, error) : NULL;
	d = devices != NULL ? sdt_ops_bench_device_find(devices, device, allow_fixed, error) : NULL;
	/* a confirmation that names another device is refused before anything is opened */
	if (d == NULL || !sdt_ops_bench_device_confirmed(d, confirm, error))
		return NULL;
	writes = sdt_ops_bench_device_writes(d, confirm, &skip_note);
	if (progress != NULL)
		progress("prepare", 0.0, 0.0, user_data);
	target = sdt_bench_target_open_device(d->devnode,
					      config.file_size,
					      writes != NULL,
					      &read_only,
					      error);
	if (target == NULL)
		return NULL;
	if (read_only && writes != NULL) {
		/* BLKROGET says so, though sysfs did not */
		writes = NULL;
		g_free(skip_note);
		skip_note = g_strdup_printf(_("write tests skipped: %s is read-only (a card's "
					      "lock switch, or the reader's)"),
					    d->devnode);
	}
	result = sdt_bench_run(target, &config, progress, user_data, cancellable, error);
	if (result == NULL)
		return NULL;
	return sdt_ops_bench_device_record(result, target, d, writes, g_steal_pointer(&skip_note));
}
