/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "sdt-cli-ops.h"
#include "sdt-cli-table.h"
#include "sdt-client-devices.h"
#include "sdt-ops.h"
#include "sdtunerctl-devices.h"

/* what a check killed on a card left changed and `devices` put back, or why not yet */
static void
sdt_cli_devices_print_repair(const SdtDeviceList *list)
{
	for (guint i = 0; i < list->repaired->len; i++) {
		const SdtDeviceListRepair *r = g_ptr_array_index(list->repaired, i);
		/* TRANSLATORS: a number of 4 KiB blocks, then a device (/dev/sdc) */
		g_print(ngettext("Put back %" PRId64 " block that an interrupted check had "
				 "changed on %s.\n",
				 "Put back %" PRId64 " blocks that an interrupted check had "
				 "changed on %s.\n",
				 (gulong) r->blocks),
			r->blocks,
			r->device != NULL ? r->device : "?");
	}
	if (list->repair_waiting != NULL)
		g_print("%s\n", list->repair_waiting);
}

/* one line per device: its name, what it is, whether it can be checked (or why not) and
 * what is on it */
static void
sdt_cli_devices_print_human(const SdtDeviceList *list)
{
	static const SdtCliTableAlign align[] = {SDT_CLI_TABLE_START,
						 SDT_CLI_TABLE_START,
						 SDT_CLI_TABLE_START,
						 SDT_CLI_TABLE_START};
	static const glong min_width[] = {0, 0, 0, 0};
	g_autoptr(SdtCliTable) table = NULL;
	g_autofree gchar *text = NULL;

	sdt_cli_devices_print_repair(list);
	if (list->devices->len == 0) {
		g_print("%s\n", _("No block devices found"));
		return;
	}
	table = sdt_cli_table_new(G_N_ELEMENTS(align), align, min_width, "  ");
	for (guint i = 0; i < list->devices->len; i++) {
		const SdtDeviceListEntry *d = g_ptr_array_index(list->devices, i);
		g_autofree gchar *title = sdt_client_devices_title(d);
		g_autofree gchar *verdict = sdt_client_devices_verdict(d);
		g_autofree gchar *contents = sdt_client_devices_contents(d);
		const gchar *cells[] = {d->path != NULL ? d->path : d->device,
					title,
					verdict,
					contents};
		sdt_cli_table_add(table, cells);
	}
	text = sdt_cli_table_format(table);
	g_print("%s", text);
}

gint
sdtunerctl_devices(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autofree gchar *text = NULL;
	g_autoptr(SdtDeviceList) list = NULL;
	gint rc;

	if (!sdt_cli_no_args(cli, argc, argv, &rc, error))
		return rc;
	text = sdt_cli_ops_read_text(cli,
				     sdt_ops_devices,
				     sdt_manager_call_get_devices_sync,
				     error);
	list = text != NULL ? sdt_device_list_parse(text, error) : NULL;
	if (list == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		g_autofree gchar *json = sdt_device_list_to_string(list);
		sdt_cli_print_text(cli, json);
		return SDT_CLI_EXIT_OK;
	}
	sdt_cli_devices_print_human(list);
	return SDT_CLI_EXIT_OK;
}
