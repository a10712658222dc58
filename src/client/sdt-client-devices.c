/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "sdt-client-devices.h"
#include "sdt-json-strict.h"
#include "sdt-l10n.h"

static void
sdt_client_devices_free(SdtClientDevice *device)
{
	if (device == NULL)
		return;
	g_free(device->device);
	g_free(device->path);
	g_free(device->vendor);
	g_free(device->model);
	g_free(device->serial);
	g_free(device->bus);
	g_free(device->reason_code);
	g_free(device->reason);
	g_ptr_array_unref(device->mount_points);
	g_free(device->partition_table);
	g_ptr_array_unref(device->filesystem_types);
	g_free(device->signatures_from);
	g_free(device);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtClientDevice, sdt_client_devices_free)

static gboolean
sdt_client_devices_read_fs(JsonArray *fss, const gchar *where, GPtrArray *out, GError **error)
{
	for (guint i = 0; fss != NULL && i < json_array_get_length(fss); i++) {
		g_autofree gchar *at = sdt_json_strict_element(where, "filesystems", i);
		JsonObject *fs =
			sdt_json_strict_element_object(json_array_get_element(fss, i), at, error);
		gchar *type = NULL;
		if (fs == NULL || !sdt_json_strict_string(fs, at, "type", &type, error))
			return FALSE;
		if (type != NULL)
			g_ptr_array_add(out, type);
	}
	return TRUE;
}

static SdtClientDevice *
sdt_client_devices_read(JsonObject *obj, const gchar *at, GError **error)
{
	g_autoptr(SdtClientDevice) d = g_new0(SdtClientDevice, 1);
	JsonArray *fss = NULL;

	d->mount_points = g_ptr_array_new_with_free_func(g_free);
	d->filesystem_types = g_ptr_array_new_with_free_func(g_free);
	if (!sdt_json_strict_string(obj, at, "device", &d->device, error) ||
	    !sdt_json_strict_string(obj, at, "path", &d->path, error) ||
	    !sdt_json_strict_string(obj, at, "vendor", &d->vendor, error) ||
	    !sdt_json_strict_string(obj, at, "model", &d->model, error) ||
	    !sdt_json_strict_string(obj, at, "serial", &d->serial, error) ||
	    !sdt_json_strict_string(obj, at, "bus", &d->bus, error) ||
	    !sdt_json_strict_int(obj, at, "size_bytes", 0, &d->size_bytes, error) ||
	    !sdt_json_strict_bool(obj, at, "offered", FALSE, &d->offered, error) ||
	    !sdt_json_strict_string(obj, at, "reason_code", &d->reason_code, error) ||
	    !sdt_json_strict_string(obj, at, "reason", &d->reason, error) ||
	    !sdt_json_strict_strings(obj, at, "mount_points", d->mount_points, error) ||
	    !sdt_json_strict_string(obj, at, "partition_table", &d->partition_table, error) ||
	    !sdt_json_strict_string(obj, at, "signatures_from", &d->signatures_from, error) ||
	    !sdt_json_strict_array(obj, at, "filesystems", &fss, error) ||
	    !sdt_client_devices_read_fs(fss, at, d->filesystem_types, error))
		return NULL;
	if (d->device == NULL) {
		sdt_json_strict_missing(at, "device", error);
		return NULL;
	}
	return g_steal_pointer(&d);
}

GPtrArray *
sdt_client_devices_from_json(JsonObject *obj, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);
	g_autoptr(GPtrArray) devices =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_client_devices_free);
	JsonArray *list = NULL;

	if (!sdt_json_strict_array(obj, NULL, "devices", &list, error))
		return NULL;
	if (list == NULL) {
		sdt_json_strict_missing(NULL, "devices", error);
		return NULL;
	}
	for (guint i = 0; i < json_array_get_length(list); i++) {
		g_autofree gchar *at = sdt_json_strict_element(NULL, "devices", i);
		JsonObject *o =
			sdt_json_strict_element_object(json_array_get_element(list, i), at, error);
		SdtClientDevice *d = o != NULL ? sdt_client_devices_read(o, at, error) : NULL;
		if (d == NULL)
			return NULL;
		g_ptr_array_add(devices, d);
	}
	return g_steal_pointer(&devices);
}

gchar *
sdt_client_devices_repair_words(JsonObject *obj, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);
	g_autoptr(GString) text = g_string_new(NULL);
	g_autofree gchar *waiting = NULL;
	JsonArray *repaired = NULL;

	if (!sdt_json_strict_array(obj, NULL, "repaired", &repaired, error) ||
	    !sdt_json_strict_string(obj, NULL, "repair_waiting", &waiting, error))
		return NULL;
	for (guint i = 0; repaired != NULL && i < json_array_get_length(repaired); i++) {
		g_autofree gchar *at = sdt_json_strict_element(NULL, "repaired", i);
		JsonObject *o = sdt_json_strict_element_object(json_array_get_element(repaired, i),
							       at,
							       error);
		g_autofree gchar *device = NULL;
		gint64 n = 0;
		if (o == NULL || !sdt_json_strict_string(o, at, "device", &device, error) ||
		    !sdt_json_strict_int(o, at, "blocks", 0, &n, error))
			return NULL;
		if (text->len > 0)
			g_string_append_c(text, '\n');
		/* TRANSLATORS: a number of 4 KiB blocks, then a device (/dev/sdc) */
		g_string_append_printf(text,
				       ngettext("Put back %" PRId64 " block that an "
						"interrupted check had changed on %s.",
						"Put back %" PRId64 " blocks that an "
						"interrupted check had changed on %s.",
						(gulong) n),
				       n,
				       device != NULL ? device : "?");
	}
	if (waiting != NULL) {
		if (text->len > 0)
			g_string_append_c(text, '\n');
		g_string_append(text, sdt_l10n_tr(waiting));
	}
	return text->len > 0 ? g_string_free(g_steal_pointer(&text), FALSE) : NULL;
}

gchar *
sdt_client_devices_title(const SdtClientDevice *device)
{
	g_return_val_if_fail(device != NULL, NULL);
	g_autofree gchar *name = NULL;
	g_autofree gchar *size = NULL;

	if (device->vendor != NULL && device->model != NULL)
		name = g_strdup_printf("%s %s", device->vendor, device->model);
	else if (device->model != NULL || device->vendor != NULL)
		name = g_strdup(device->model != NULL ? device->model : device->vendor);
	if (device->size_bytes <= 0) {
		if (name == NULL)
			return g_strdup(device->device);
		/* Translators: a card reader or disk: "Generic STORAGE DEVICE (sdb)" */
		return g_strdup_printf(_("%s (%s)"), name, device->device);
	}
	size = g_format_size((guint64) device->size_bytes);
	if (name == NULL)
		/* Translators: a disk without a name and its size: "sdb, 31.9 GB" */
		return g_strdup_printf(_("%s, %s"), device->device, size);
	/* Translators: a card or disk, its kernel name and its size:
	 * "Generic STORAGE DEVICE (sdb), 31.9 GB" */
	return g_strdup_printf(_("%s (%s), %s"), name, device->device, size);
}

gchar *
sdt_client_devices_verdict(const SdtClientDevice *device)
{
	g_return_val_if_fail(device != NULL, NULL);

	/* tools/run.sh and the tests: a loop device on a simulated board (DESIGN.md) */
	if (device->offered && g_strcmp0(device->reason_code, "stand-in") == 0)
		return g_strdup(_("Can be checked: a loop device standing in for a card on a "
				  "simulated board"));
	if (device->offered)
		return g_strdup(_("Can be checked"));
	if (device->reason != NULL)
		return g_strdup(sdt_l10n_tr(device->reason));
	return g_strdup(_("Cannot be checked"));
}

gchar *
sdt_client_devices_contents(const SdtClientDevice *device)
{
	g_return_val_if_fail(device != NULL, NULL);
	g_autofree gchar *types = NULL;

	if (device->size_bytes <= 0)
		return NULL;
	if (device->signatures_from == NULL)
		return g_strdup(_("What is on it is unknown: it cannot be read"));
	for (guint i = 0; i < device->filesystem_types->len; i++) {
		const gchar *type = g_ptr_array_index(device->filesystem_types, i);
		gchar *joined =
			types == NULL ? g_strdup(type)
				      : g_strconcat(types, C_("list separator", ", "), type, NULL);
		g_free(types);
		types = joined;
	}
	if (device->partition_table != NULL && types != NULL)
		/* Translators: "dos partition table; file systems: vfat, ext4" */
		return g_strdup_printf(_("%s partition table; file systems: %s"),
				       device->partition_table,
				       types);
	if (device->partition_table != NULL)
		/* Translators: "dos partition table; no file system found" */
		return g_strdup_printf(_("%s partition table; no file system found"),
				       device->partition_table);
	if (types != NULL)
		/* Translators: a file system on the whole device, no partition table */
		return g_strdup_printf(_("No partition table; file systems: %s"), types);
	return g_strdup(_("No partition table or file system found: empty or unreadable"));
}
