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
sdt_cli_devices_print_repair(JsonObject *obj)
{
	JsonArray *repaired = json_object_has_member(obj, "repaired")
				      ? json_object_get_array_member(obj, "repaired")
				      : NULL;
	const gchar *waiting = json_object_has_member(obj, "repair_waiting")
				       ? json_object_get_string_member(obj, "repair_waiting")
				       : NULL;

	for (guint i = 0; repaired != NULL && i < json_array_get_length(repaired); i++) {
		JsonObject *r = json_array_get_object_element(repaired, i);
		gint64 n = r != NULL ? json_object_get_int_member_with_default(r, "blocks", 0) : 0;
		const gchar *device =
			r != NULL ? json_object_get_string_member_with_default(r, "device", "?")
				  : "?";
		/* TRANSLATORS: a number of 4 KiB blocks, then a device (/dev/sdc) */
		g_print(ngettext("Put back %" PRId64 " block that an interrupted check had "
				 "changed on %s.\n",
				 "Put back %" PRId64 " blocks that an interrupted check had "
				 "changed on %s.\n",
				 (gulong) n),
			n,
			device);
	}
	if (waiting != NULL)
		g_print("%s\n", waiting);
}

/* one line per device: its name, what it is, whether it can be checked (or why not) and
 * what is on it */
static gboolean
sdt_cli_devices_print_human(JsonObject *obj, GError **error)
{
	static const SdtCliTableAlign align[] = {SDT_CLI_TABLE_START,
						 SDT_CLI_TABLE_START,
						 SDT_CLI_TABLE_START,
						 SDT_CLI_TABLE_START};
	static const glong min_width[] = {0, 0, 0, 0};
	g_autoptr(GPtrArray) devices = sdt_client_devices_from_json(obj, error);
	g_autoptr(SdtCliTable) table = NULL;
	g_autofree gchar *text = NULL;

	if (devices == NULL)
		return FALSE;
	sdt_cli_devices_print_repair(obj);
	if (devices->len == 0) {
		g_print("%s\n", _("No block devices found"));
		return TRUE;
	}
	table = sdt_cli_table_new(G_N_ELEMENTS(align), align, min_width, "  ");
	for (guint i = 0; i < devices->len; i++) {
		SdtClientDevice *d = g_ptr_array_index(devices, i);
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
	return TRUE;
}

gint
sdtunerctl_devices(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autoptr(JsonNode) node = NULL;
	gint rc;

	if (!sdt_cli_no_args(cli, argc, argv, &rc, error))
		return rc;
	node = sdt_cli_ops_read(cli, sdt_ops_devices, sdt_manager_call_get_devices_sync, error);
	if (node == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		sdt_cli_print_json(cli, node);
		return SDT_CLI_EXIT_OK;
	}
	if (!sdt_cli_devices_print_human(json_node_get_object(node), error))
		return SDT_CLI_EXIT_FAILED;
	return SDT_CLI_EXIT_OK;
}
