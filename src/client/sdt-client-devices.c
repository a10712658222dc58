/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "sdt-client-devices.h"
#include "sdt-l10n.h"

gchar *
sdt_client_devices_repair_words(const SdtDeviceList *list)
{
	g_return_val_if_fail(list != NULL, NULL);
	g_autoptr(GString) text = g_string_new(NULL);

	for (guint i = 0; i < list->repaired->len; i++) {
		const SdtDeviceListRepair *r = g_ptr_array_index(list->repaired, i);
		if (text->len > 0)
			g_string_append_c(text, '\n');
		/* TRANSLATORS: a number of 4 KiB blocks, then a device (/dev/sdc) */
		g_string_append_printf(text,
				       ngettext("Put back %" PRId64 " block that an "
						"interrupted check had changed on %s.",
						"Put back %" PRId64 " blocks that an "
						"interrupted check had changed on %s.",
						(gulong) r->blocks),
				       r->blocks,
				       r->device != NULL ? r->device : "?");
	}
	if (list->repair_waiting != NULL) {
		if (text->len > 0)
			g_string_append_c(text, '\n');
		g_string_append(text, sdt_l10n_tr(list->repair_waiting));
	}
	return text->len > 0 ? g_string_free(g_steal_pointer(&text), FALSE) : NULL;
}

gchar *
sdt_client_devices_title(const SdtDeviceListEntry *device)
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
sdt_client_devices_verdict(const SdtDeviceListEntry *device)
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
sdt_client_devices_contents(const SdtDeviceListEntry *device)
{
	g_return_val_if_fail(device != NULL, NULL);
	g_autofree gchar *types = NULL;

	if (device->size_bytes <= 0)
		return NULL;
	if (device->signatures_from == NULL)
		return g_strdup(_("What is on it is unknown: it cannot be read"));
	for (guint i = 0; i < device->filesystems->len; i++) {
		const gchar *type =
			((SdtDeviceListFs *) g_ptr_array_index(device->filesystems, i))->type;
		gchar *joined;
		if (type == NULL)
			continue;
		joined = types == NULL ? g_strdup(type)
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
