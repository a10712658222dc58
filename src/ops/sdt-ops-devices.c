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
#include "sdt-json.h"
#include "sdt-mounts.h"
#include "sdt-ops.h"

static void
sdt_ops_devices_add_strings(JsonBuilder *b, const gchar *name, GPtrArray *strings)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_array(b);
	for (guint i = 0; i < strings->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(strings, i));
	json_builder_end_array(b);
}

static void
sdt_ops_devices_add_filesystems(JsonBuilder *b, GPtrArray *filesystems)
{
	json_builder_set_member_name(b, "filesystems");
	json_builder_begin_array(b);
	for (guint i = 0; i < filesystems->len; i++) {
		SdtDeviceFs *fs = g_ptr_array_index(filesystems, i);
		json_builder_begin_object(b);
		sdt_json_string_or_null(b, "device", fs->device);
		sdt_json_string_or_null(b, "type", fs->type);
		sdt_json_string_or_null(b, "label", fs->label);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void
sdt_ops_devices_add_bool(JsonBuilder *b, const gchar *name, gboolean value)
{
	json_builder_set_member_name(b, name);
	json_builder_add_boolean_value(b, value);
}

static void
sdt_ops_devices_add(JsonBuilder *b, SdtDevice *d)
{
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, "device", d->name);
	sdt_json_string_or_null(b, "path", d->devnode);
	sdt_json_string_or_null(b, "vendor", d->vendor);
	sdt_json_string_or_null(b, "model", d->model);
	sdt_json_string_or_null(b, "serial", d->serial);
	sdt_json_string_or_null(b, "bus", d->bus);
	sdt_json_string_or_null(b, "card_type", d->card_type);
	/* the reader's USB link (issue 34): null when not behind USB */
	sdt_json_number_or_null(b,
				"usb_speed_mbit_s",
				d->usb_speed_mbit_s > 0 ? d->usb_speed_mbit_s : NAN);
	json_builder_set_member_name(b, "size_bytes");
	json_builder_add_int_value(b, (gint64) MIN(d->size_bytes, (guint64) G_MAXINT64));
	sdt_ops_devices_add_bool(b, "offered", sdt_device_offer_is_offered(d->offer));
	sdt_json_string_or_null(b, "reason_code", sdt_device_offer_to_code(d->offer));
	sdt_json_string_or_null(b, "reason", sdt_device_offer_to_reason(d->offer));
	sdt_ops_devices_add_bool(b, "system_disk", d->facts.system_disk);
	sdt_ops_devices_add_bool(b, "removable", d->facts.removable);
	sdt_ops_devices_add_bool(b, "sd_card", d->facts.sd_card);
	sdt_ops_devices_add_bool(b, "medium", d->facts.medium);
	sdt_ops_devices_add_bool(b, "mounted", d->facts.mounted);
	sdt_ops_devices_add_bool(b, "in_use", d->facts.held);
	sdt_ops_devices_add_bool(b, "read_only", d->facts.read_only);
	sdt_ops_devices_add_strings(b, "mount_points", d->mount_points);
	sdt_json_string_or_null(b, "partition_table", d->partition_table);
	sdt_ops_devices_add_filesystems(b, d->filesystems);
	sdt_json_string_or_null(b, "signatures_from", d->signatures_from);
	json_builder_end_object(b);
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
sdt_ops_devices_repair(SdtContext *ctx, JsonBuilder *b)
{
	g_auto(GStrv) dirs = sdt_check_journal_dirs(ctx);
	g_autofree gchar *device = NULL;
	g_autoptr(GError) error = NULL;
	gint count = sdt_check_repair_seen((const gchar *const *) dirs, &device, &error);

	json_builder_set_member_name(b, "repaired");
	json_builder_begin_array(b);
	if (count > 0 && device != NULL) {
		json_builder_begin_object(b);
		sdt_json_string_or_null(b, "device", device);
		json_builder_set_member_name(b, "blocks");
		json_builder_add_int_value(b, count);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	sdt_json_string_or_null(b, "repair_waiting", error != NULL ? error->message : NULL);
}

JsonNode *
sdt_ops_devices(SdtContext *ctx, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(ctx != NULL, NULL);
	g_autoptr(GPtrArray) mounts = NULL;
	g_autoptr(GPtrArray) devices = NULL;
	g_autoptr(JsonBuilder) b = json_builder_new();

	/* without the mount table the system disk is unknown: nothing may be offered */
	mounts = sdt_mounts_load(ctx, error);
	if (mounts == NULL)
		return NULL;
	json_builder_begin_object(b);
	sdt_ops_devices_repair(ctx, b);
	devices = sdt_devices_list(mounts, error);
	if (devices == NULL)
		return NULL;
	if (sdt_context_is_simulated(ctx) && !sdt_ops_devices_stand_ins(devices, error))
		return NULL;
	json_builder_set_member_name(b, "devices");
	json_builder_begin_array(b);
	for (guint i = 0; i < devices->len; i++)
		sdt_ops_devices_add(b, g_ptr_array_index(devices, i));
	json_builder_end_array(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}
