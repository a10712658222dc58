/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-context.h"
#include "sdt-check.h"
#include "sdt-devices.h"
#include "sdt-device-list.h"
#include "sdt-mounts.h"
#include "sdt-ops.h"

static void
sdt_ops_devices_add(SdtDeviceList *list, SdtDevice *d)
{
	SdtDeviceListEntry *e = sdt_device_list_add(list);

	e->device = g_strdup(d->name);
	e->path = g_strdup(d->devnode);
	e->vendor = g_strdup(d->vendor);
	e->model = g_strdup(d->model);
	e->serial = g_strdup(d->serial);
	e->bus = g_strdup(d->bus);
	e->card_type = g_strdup(d->card_type);
	/* the reader's USB link (issue 34): null when not behind USB */
	e->usb_speed_mbit_s = d->usb_speed_mbit_s > 0 ? d->usb_speed_mbit_s : NAN;
	e->size_bytes = (gint64) MIN(d->size_bytes, (guint64) G_MAXINT64);
	e->offered = sdt_device_offer_is_offered(d->offer);
	e->reason_code = g_strdup(sdt_device_offer_to_code(d->offer));
	e->reason = g_strdup(sdt_device_offer_to_reason(d->offer));
	e->system_disk = d->facts.system_disk;
	e->removable = d->facts.removable;
	e->sd_card = d->facts.sd_card;
	e->medium = d->facts.medium;
	e->mounted = d->facts.mounted;
	e->in_use = d->facts.held;
	e->read_only = d->facts.read_only;
	for (guint i = 0; i < d->mount_points->len; i++)
		g_ptr_array_add(e->mount_points, g_strdup(g_ptr_array_index(d->mount_points, i)));
	e->partition_table = g_strdup(d->partition_table);
	for (guint i = 0; i < d->filesystems->len; i++) {
		SdtDeviceFs *fs = g_ptr_array_index(d->filesystems, i);
		sdt_device_list_add_fs(e, fs->device, fs->type, fs->label);
	}
	e->signatures_from = g_strdup(d->signatures_from);
}

/*
 * On a simulated board (a root prefix: the tests, tools/run.sh) a loop device is the
 * host's own, not the simulated board's: it is judged against the host's mount table, as
 * the check judges it, and one that nothing but being fixed keeps from a check stands in
 * for a card (sdt_device_offer_decide_stand_in(), docs/DESIGN.md "Stand-ins").
 */
static gboolean
sdt_ops_devices_stand_ins(GPtrArray *devices, GError **error)
{
	g_autoptr(SdtContext) host = NULL;
	g_autoptr(GPtrArray) mounts = NULL;
	g_autoptr(GPtrArray) host_devices = NULL;
	gboolean any = FALSE;

	for (guint i = 0; i < devices->len; i++)
		any |= ((SdtDevice *) g_ptr_array_index(devices, i))->facts.loop;
	if (!any)
		return TRUE;
	host = sdt_context_new("/", error);
	mounts = host != NULL ? sdt_mounts_load(host, error) : NULL;
	host_devices = mounts != NULL ? sdt_devices_list(mounts, error) : NULL;
	if (host_devices == NULL)
		return FALSE;
	for (guint i = 0; i < devices->len; i++) {
		SdtDevice *d = g_ptr_array_index(devices, i);
		SdtDevice *h = NULL;

		if (!d->facts.loop)
			continue;
		h = sdt_devices_lookup(host_devices, d->name, NULL);
		if (h == NULL || h->major != d->major || h->minor != d->minor)
			continue; /* gone meanwhile: judged on the root's table, as a fixed disk */
		d->facts = h->facts;
		g_ptr_array_set_size(d->mount_points, 0);
		for (guint m = 0; m < h->mount_points->len; m++)
			g_ptr_array_add(d->mount_points,
					g_strdup(g_ptr_array_index(h->mount_points, m)));
		d->offer = sdt_device_offer_decide_stand_in(&d->facts);
	}
	return TRUE;
}

/*
 * A card a killed check left changed is repaired when it is seen (docs/DESIGN.md "A
 * card put back where it is seen"): wherever it is now, before its signatures are
 * read.  What was put back, and a journal still waiting for its card, are said.
 */
static void
sdt_ops_devices_repair(SdtContext *ctx, SdtDeviceList *list)
{
	g_auto(GStrv) dirs = sdt_check_journal_dirs(ctx);
	g_autofree gchar *device = NULL;
	g_autoptr(GError) error = NULL;
	gint count = sdt_check_repair_seen((const gchar *const *) dirs, &device, &error);

	if (count > 0 && device != NULL)
		sdt_device_list_add_repair(list, device, count);
	list->repair_waiting = error != NULL ? g_strdup(error->message) : NULL;
}

gchar *
sdt_ops_devices(SdtContext *ctx, GError **error)
{
	g_autoptr(GPtrArray) mounts = NULL;
	g_autoptr(GPtrArray) devices = NULL;
	g_autoptr(SdtDeviceList) list = sdt_device_list_new();

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(ctx != NULL, NULL);

	/* without the mount table the system disk is unknown: nothing may be offered */
	mounts = sdt_mounts_load(ctx, error);
	if (mounts == NULL)
		return NULL;
	sdt_ops_devices_repair(ctx, list);
	devices = sdt_devices_list(mounts, error);
	if (devices == NULL)
		return NULL;
	if (sdt_context_is_simulated(ctx) && !sdt_ops_devices_stand_ins(devices, error))
		return NULL;
	for (guint i = 0; i < devices->len; i++)
		sdt_ops_devices_add(list, g_ptr_array_index(devices, i));
	return sdt_device_list_to_string(list);
}
