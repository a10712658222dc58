/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-cli-ops.h"
#include "sdt-error.h"
#include "sdt-l10n.h"
#include "sdt-ops.h"
#include "sdtunerctl-config.h"

/* a string member, or NULL when it is missing, null or not a string (a tampered
 * history entry must not trip a critical warning) */
static const gchar *
sdt_cli_config_str(JsonObject *obj, const gchar *name)
{
	JsonNode *node = obj != NULL ? json_object_get_member(obj, name) : NULL;

	if (node == NULL || !JSON_NODE_HOLDS_VALUE(node) ||
	    json_node_get_value_type(node) != G_TYPE_STRING)
		return NULL;
	return json_node_get_string(node);
}

/* a boolean member; FALSE when it is missing or not a boolean */
static gboolean
sdt_cli_config_bool(JsonObject *obj, const gchar *name)
{
	JsonNode *node = obj != NULL ? json_object_get_member(obj, name) : NULL;

	return node != NULL && JSON_NODE_HOLDS_VALUE(node) &&
	       json_node_get_value_type(node) == G_TYPE_BOOLEAN && json_node_get_boolean(node);
}

static void
sdt_cli_config_print_wrapped(const gchar *label, const gchar *text)
{
	g_print("    %s %s\n", label, text);
}

gint
sdt_cli_recommend(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autoptr(JsonNode) node = NULL;
	JsonObject *obj;
	JsonArray *recs;
	JsonArray *notes;
	gint rc;

	if (!sdt_cli_no_args(cli, argc, argv, &rc, error))
		return rc;
	node = sdt_cli_ops_read(cli, sdt_cli_ops_recommend, sdt_ops_recommend, error);
	if (node == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		sdt_cli_print_json(cli, node);
		return SDT_CLI_EXIT_OK;
	}
	obj = json_node_get_object(node);
	recs = json_object_get_array_member(obj, "recommendations");
	notes = json_object_get_array_member(obj, "notes");
	if (json_array_get_length(recs) == 0)
		g_print("%s\n", _("Nothing to change in config.txt."));
	for (guint i = 0; i < json_array_get_length(recs); i++) {
		JsonObject *rec = json_array_get_object_element(recs, i);
		JsonArray *lines = json_object_get_array_member(rec, "lines");
		g_print("%s  %s\n",
			json_object_get_string_member(rec, "id"),
			sdt_l10n_tr(json_object_get_string_member(rec, "title")));
		/* Translators: followed by config.txt lines */
		g_print(_("    adds under %s:\n"), json_object_get_string_member(rec, "filter"));
		for (guint j = 0; j < json_array_get_length(lines); j++)
			g_print("      %s\n", json_array_get_string_element(lines, j));
		sdt_cli_config_print_wrapped(
			_("Why:"),
			sdt_l10n_tr(json_object_get_string_member(rec, "reason")));
		sdt_cli_config_print_wrapped(
			_("Effect:"),
			sdt_l10n_tr(json_object_get_string_member(rec, "expected_effect")));
		sdt_cli_config_print_wrapped(
			_("Risk:"),
			sdt_l10n_tr(json_object_get_string_member(rec, "risk")));
		/* Translators: %s is a recommendation id */
		g_print(_("    Apply with: sdtunerctl apply %s\n"),
			json_object_get_string_member(rec, "id"));
	}
	if (notes != NULL && json_array_get_length(notes) > 0) {
		g_print("\n%s\n", _("Notes"));
		for (guint i = 0; i < json_array_get_length(notes); i++)
			g_print("  - %s\n", sdt_l10n_tr(json_array_get_string_element(notes, i)));
	}
	return SDT_CLI_EXIT_OK;
}

static void
sdt_cli_config_print_result(JsonObject *res)
{
	const gchar *diff = sdt_cli_config_str(res, "diff");
	const gchar *backup = sdt_cli_config_str(res, "backup");
	JsonArray *warnings = json_object_has_member(res, "warnings")
				      ? json_object_get_array_member(res, "warnings")
				      : NULL;

	if (diff != NULL)
		g_print("%s", diff);
	for (guint i = 0; warnings != NULL && i < json_array_get_length(warnings); i++)
		g_printerr(_("sdtunerctl: note: %s\n"),
			   sdt_l10n_tr(json_array_get_string_element(warnings, i)));
	if (backup != NULL)
		g_printerr(_("Backup of the previous file: %s\n"), backup);
}

gint
sdt_cli_apply(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autoptr(JsonNode) node = NULL;
	gboolean trial = FALSE;
	JsonObject *res;
	gint rc;
	const GOptionEntry entries[] = {
		{"trial",
		 0,
		 0,
		 G_OPTION_ARG_NONE,
		 &trial,
		 N_("Write tryboot.txt for one trial boot instead of config.txt"),
		 NULL},
		{NULL},
	};

	if (!sdt_cli_parse(cli, entries, 1, 1, &argc, &argv, &rc, error)) {
		if (rc == SDT_CLI_EXIT_USAGE &&
		    g_error_matches(*error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE)) {
			g_clear_error(error);
			g_set_error_literal(
				error,
				G_OPTION_ERROR,
				G_OPTION_ERROR_BAD_VALUE,
				_("“apply” needs one recommendation id, e.g. "
				  "“sdtunerctl apply sd-overclock-100” (see “sdtunerctl "
				  "recommend”)"));
		}
		return rc;
	}
	node = sdt_cli_ops_apply(cli, argv[1], trial, error);
	if (node == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		sdt_cli_print_json(cli, node);
		return SDT_CLI_EXIT_OK;
	}
	res = json_node_get_object(node);
	sdt_cli_config_print_result(res);
	if (json_object_get_boolean_member_with_default(res, "trial", FALSE)) {
		/* Translators: %s is the tryboot.txt path, then the reboot command */
		g_printerr(_("Wrote %s. Boot it once with: %s\nIf the Pi does not come up, "
			     "switch it off and on: it boots the unchanged config.txt.\n"),
			   sdt_cli_config_str(res, "path"),
			   sdt_cli_config_str(res, "reboot_command"));
	} else if (!json_object_get_boolean_member_with_default(res, "changed", TRUE)) {
		g_printerr("%s\n", _("Already applied: nothing changed."));
	} else if (json_object_get_boolean_member_with_default(res, "reboot_required", FALSE)) {
		g_printerr("%s\n", _("Reboot to use the new setting."));
	}
	return SDT_CLI_EXIT_OK;
}

gint
sdt_cli_revert(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autoptr(JsonNode) node = NULL;
	gint rc;

	if (!sdt_cli_no_args(cli, argc, argv, &rc, error))
		return rc;
	node = sdt_cli_ops_revert(cli, error);
	if (node == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		sdt_cli_print_json(cli, node);
		return SDT_CLI_EXIT_OK;
	}
	sdt_cli_config_print_result(json_node_get_object(node));
	g_printerr("%s\n", _("Reboot to go back to the previous setting."));
	return SDT_CLI_EXIT_OK;
}

/* what a verification decided, as one sentence per decision (the JSON's
 * "decision" stays English for scripts), with its reason in the user's language */
static gchar *
sdt_cli_verify_outcome(JsonObject *obj, const gchar *reason_en)
{
	const gchar *id = sdt_cli_config_str(obj, "id");
	const gchar *decision = sdt_cli_config_str(obj, "decision");
	const gchar *reason = reason_en != NULL ? sdt_l10n_tr(reason_en) : "";

	if (id == NULL)
		id = "?";
	if (g_strcmp0(decision, "keep") == 0)
		/* Translators: a recommendation id, then the reason */
		return g_strdup_printf(_("kept %s after verification. %s"), id, reason);
	if (g_strcmp0(decision, "step-down") == 0)
		/* Translators: a recommendation id, then the reason */
		return g_strdup_printf(_("stepped %s down after verification. %s"), id, reason);
	if (g_strcmp0(decision, "undo") == 0)
		/* Translators: a recommendation id, then the reason */
		return g_strdup_printf(_("undid %s after verification. %s"), id, reason);
	/* Translators: a recommendation id, then where its verification stands */
	return g_strdup_printf(_("verification of %s: %s"), id, reason);
}

gint
sdt_cli_status(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autoptr(JsonNode) node = NULL;
	JsonObject *obj;
	JsonObject *trial;
	gint rc;

	if (!sdt_cli_no_args(cli, argc, argv, &rc, error))
		return rc;
	node = sdt_cli_ops_read(cli, sdt_cli_ops_status, sdt_ops_status, error);
	if (node == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		sdt_cli_print_json(cli, node);
		return SDT_CLI_EXIT_OK;
	}
	obj = json_node_get_object(node);
	if (sdt_cli_config_str(obj, "error") != NULL) {
		g_print("%s\n", sdt_l10n_tr(sdt_cli_config_str(obj, "error")));
	} else if (json_object_get_boolean_member(obj, "applied")) {
		JsonArray *lines = json_object_get_array_member(obj, "lines");
		JsonArray *disabled = json_object_get_array_member(obj, "disabled");
		/* Translators: recommendation id, then the config.txt path */
		g_print(_("SD Tuner's change %s is in %s:\n"),
			sdt_cli_config_str(obj, "id"),
			sdt_cli_config_str(obj, "path"));
		if (sdt_cli_config_str(obj, "filter") != NULL)
			g_print("  %s\n", sdt_cli_config_str(obj, "filter"));
		for (guint i = 0; i < json_array_get_length(lines); i++)
			g_print("  %s\n", json_array_get_string_element(lines, i));
		for (guint i = 0; i < json_array_get_length(disabled); i++)
			g_print(_("  switched off: %s\n"),
				json_array_get_string_element(disabled, i));
		if (json_object_get_boolean_member(obj, "verified"))
			g_print(_("Verified: %s\n"),
				sdt_l10n_tr(sdt_cli_config_str(obj, "verification")));
		else if (json_object_get_boolean_member(obj, "failed"))
			g_print(_("Problem: %s\n"),
				sdt_l10n_tr(sdt_cli_config_str(obj, "verification")));
		else
			g_print(_("Pending: %s\n"),
				sdt_l10n_tr(sdt_cli_config_str(obj, "verification")));
	} else {
		g_print(_("SD Tuner has no change in %s.\n"), sdt_cli_config_str(obj, "path"));
	}
	trial = json_object_has_member(obj, "trial") && !json_object_get_null_member(obj, "trial")
			? json_object_get_object_member(obj, "trial")
			: NULL;
	if (trial != NULL)
		/* Translators: recommendation id, tryboot.txt path, reboot command */
		g_print(_("A trial of %s is ready in %s: boot it once with %s\n"),
			sdt_cli_config_str(trial, "id"),
			sdt_cli_config_str(trial, "path"),
			sdt_cli_config_str(trial, "reboot_command"));
	if (json_object_get_boolean_member_with_default(obj, "tryboot_active", FALSE))
		g_print("%s\n", _("This boot is a tryboot trial."));
	{
		JsonNode *pn = json_object_get_member(obj, "pending_verification");
		JsonNode *ln = json_object_get_member(obj, "last_verification");
		if (pn != NULL && JSON_NODE_HOLDS_OBJECT(pn))
			/* Translators: a recommendation id */
			g_print(_("%s will be verified after the next restart.\n"),
				sdt_cli_config_str(json_node_get_object(pn), "id"));
		if (ln != NULL && JSON_NODE_HOLDS_OBJECT(ln)) {
			JsonObject *l = json_node_get_object(ln);
			g_autofree gchar *when = sdt_l10n_time(sdt_cli_config_str(l, "time"));
			g_autofree gchar *what =
				sdt_cli_verify_outcome(l, sdt_cli_config_str(l, "reason"));
			/* Translators: the time of the last verification, then what it did
			 * and why */
			g_print(_("Last verification (%s): %s\n"), when, what);
		}
	}
	return SDT_CLI_EXIT_OK;
}

gint
sdt_cli_history(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autoptr(JsonNode) node = NULL;
	JsonArray *entries;
	gint rc;

	if (!sdt_cli_no_args(cli, argc, argv, &rc, error))
		return rc;
	node = sdt_cli_ops_read(cli, sdt_cli_ops_history, sdt_ops_history, error);
	if (node == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		sdt_cli_print_json(cli, node);
		return SDT_CLI_EXIT_OK;
	}
	entries = json_object_get_array_member(json_node_get_object(node), "entries");
	if (json_object_has_member(json_node_get_object(node), "warnings")) {
		JsonArray *warnings =
			json_object_get_array_member(json_node_get_object(node), "warnings");
		for (guint i = 0; i < json_array_get_length(warnings); i++)
			g_printerr(_("sdtunerctl: note: %s\n"),
				   json_array_get_string_element(warnings, i));
	}
	if (json_array_get_length(entries) == 0)
		g_print("%s\n", _("No history yet."));
	for (guint i = 0; i < json_array_get_length(entries); i++) {
		JsonNode *element = json_array_get_element(entries, i);
		JsonObject *e =
			JSON_NODE_HOLDS_OBJECT(element) ? json_node_get_object(element) : NULL;
		const gchar *kind = sdt_cli_config_str(e, "kind");
		const gchar *time = sdt_cli_config_str(e, "time");
		g_autofree gchar *summary = NULL;

		if (time == NULL)
			time = "?";
		if (g_strcmp0(kind, "bench") == 0) {
			const gchar *profile = sdt_cli_config_str(e, "profile");
			JsonNode *target_node = json_object_get_member(e, "target");
			JsonObject *target =
				target_node != NULL && JSON_NODE_HOLDS_OBJECT(target_node)
					? json_node_get_object(target_node)
					: NULL;
			const gchar *path = sdt_cli_config_str(target, "path");
			if (profile == NULL)
				profile = "?";
			if (sdt_cli_config_bool(target, "stand_in"))
				/* Translators: benchmark profile, then the directory it used */
				summary = g_strdup_printf(
					_("benchmark (%s) of a stand-in, not the SD "
					  "card: %s"),
					profile,
					path != NULL ? path : "?");
			else
				/* Translators: benchmark profile: quick, standard or full */
				summary = g_strdup_printf(_("benchmark (%s)"), profile);
		} else if (g_strcmp0(kind, "apply") == 0) {
			const gchar *id = sdt_cli_config_str(e, "id");
			summary = sdt_cli_config_bool(e, "trial")
					  ? g_strdup_printf(_("trial of %s"), id != NULL ? id : "?")
					  : g_strdup_printf(_("applied %s"), id != NULL ? id : "?");
		} else if (g_strcmp0(kind, "revert") == 0) {
			const gchar *id = sdt_cli_config_str(e, "id");
			summary = g_strdup_printf(_("reverted %s"), id != NULL ? id : "?");
		} else if (g_strcmp0(kind, "verify") == 0) {
			const gchar *reason = sdt_cli_config_str(e, "reason");
			summary = sdt_cli_verify_outcome(e, reason);
		} else {
			summary = g_strdup(kind != NULL ? kind : "?");
		}
		{
			g_autofree gchar *when = sdt_l10n_time(time);
			g_print("%s  %s\n", when, summary);
		}
	}
	return SDT_CLI_EXIT_OK;
}
