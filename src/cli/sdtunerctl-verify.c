/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-error.h"
#include "sdt-ops.h"
#include "sdtunerctl-verify.h"

gint
sdt_cli_verify(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autoptr(JsonNode) node = NULL;
	g_autofree gchar *evidence = NULL;
	JsonObject *obj;
	const gchar *decision;
	gint rc;
	const GOptionEntry entries[] = {
		{"evidence",
		 0,
		 0,
		 G_OPTION_ARG_FILENAME,
		 &evidence,
		 N_("Take the soak and benchmark results from FILE (only with --root, for "
		    "tests)"),
		 N_("FILE")},
		{NULL},
	};

	if (!sdt_cli_parse(cli, entries, 0, 0, &argc, &argv, &rc, error))
		return rc;
	if (cli->ctx == NULL) {
		if (evidence != NULL) {
			g_set_error_literal(error,
					    G_OPTION_ERROR,
					    G_OPTION_ERROR_BAD_VALUE,
					    _("verify: --evidence is accepted only with --root"));
			return SDT_CLI_EXIT_USAGE;
		}
		/* the decision may rewrite config.txt: it runs as root, in-process */
		g_set_error_literal(
			error,
			SDT_ERROR,
			SDT_ERROR_NOT_SUPPORTED,
			_("verify runs as root without the helper: use “sudo sdtunerctl "
			  "--root / verify” (the sd-tuner-verify service runs it after "
			  "every boot)"));
		return SDT_CLI_EXIT_FAILED;
	}
	node = sdt_ops_verify(cli->ctx, evidence, error);
	if (node == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		sdt_cli_print_json(cli, node);
		return SDT_CLI_EXIT_OK;
	}
	obj = json_node_get_object(node);
	decision = json_object_get_string_member_with_default(obj, "decision", NULL);
	if (decision == NULL) {
		g_print("%s\n", json_object_get_string_member_with_default(obj, "reason", ""));
		return SDT_CLI_EXIT_OK;
	}
	if (g_strcmp0(decision, "keep") == 0)
		/* Translators: a recommendation id */
		g_print(_("Kept %s.\n"), json_object_get_string_member(obj, "id"));
	else if (g_strcmp0(decision, "step-down") == 0)
		/* Translators: two recommendation ids */
		g_print(_("Stepped down from %s to %s.\n"),
			json_object_get_string_member(obj, "id"),
			json_object_get_string_member(obj, "next_id"));
	else if (g_strcmp0(decision, "undo") == 0)
		/* Translators: a recommendation id */
		g_print(_("Undid %s.\n"), json_object_get_string_member(obj, "id"));
	else
		/* Translators: a recommendation id */
		g_print(_("%s is waiting for a restart.\n"),
			json_object_get_string_member(obj, "id"));
	g_print("%s\n", json_object_get_string_member_with_default(obj, "reason", ""));
	return SDT_CLI_EXIT_OK;
}
