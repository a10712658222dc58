/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <unistd.h>

#include "sdt-cli-ops.h"
#include "sdt-error.h"
#include "sdtunerctl.h"
#include "sdtunerctl-bench.h"
#include "sdtunerctl-check.h"
#include "sdtunerctl-config.h"
#include "sdtunerctl-info.h"

typedef struct {
	const gchar *name;
	const gchar *args;
	const gchar *description;
	SdtCliCommandFunc func;
} SdtCliCommand;

static const SdtCliCommand commands[] = {
	/* filled in by each command's source file */
	{"bench",
	 "[--profile quick|standard|full] [--dir DIR] [--json]",
	 N_("Measure the SD card: sequential and 4k random I/O, A1/A2 verdict"),
	 sdt_cli_bench},
	{"check",
	 "[--full] [--dir DIR] [--json]",
	 N_("Check whether the SD card is as large as it claims (a fake)"),
	 sdt_cli_check},
	{"health",
	 "",
	 N_("Show how much was written to the card and what the kernel says about it"),
	 sdt_cli_health},
	{"info", "", N_("Show the board, the SD card and how its bus runs"), sdt_cli_info},
	{"recommend", "", N_("Show the config.txt setting that would help"), sdt_cli_recommend},
	{"apply", "ID [--trial]", N_("Write a recommendation into config.txt"), sdt_cli_apply},
	{"revert", "", N_("Take SD Tuner's change out of config.txt"), sdt_cli_revert},
	{"status", "", N_("Show SD Tuner's change and whether it works"), sdt_cli_status},
	{"history", "", N_("List config changes and benchmark results"), sdt_cli_history},
	{NULL, NULL, NULL, NULL},
};

gboolean
sdt_cli_is_tty(void)
{
	return isatty(STDOUT_FILENO);
}

void
sdt_cli_print_json(SdtCli *cli, JsonNode *node)
{
	g_autofree gchar *text = json_to_string(node, TRUE);
	g_print("%s\n", text);
}

/* a command without arguments; --json may also come after it */
gboolean
sdt_cli_no_args(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	for (gint i = 1; i < argc; i++) {
		if (g_strcmp0(argv[i], "--json") == 0 || g_strcmp0(argv[i], "-j") == 0) {
			cli->json = TRUE;
			continue;
		}
		g_set_error(error,
			    G_OPTION_ERROR,
			    G_OPTION_ERROR_BAD_VALUE,
			    _("“%s” takes no arguments (got “%s”)"),
			    argv[0],
			    argv[i]);
		return FALSE;
	}
	return TRUE;
}

static void
sdt_cli_print_error(SdtCli *cli, const GError *error)
{
	g_printerr("sdtunerctl: %s\n", error->message);
	if (cli->json) {
		g_autoptr(JsonBuilder) builder = json_builder_new();
		g_autoptr(JsonNode) root = NULL;
		g_autofree gchar *remote = NULL;

		json_builder_begin_object(builder);
		json_builder_set_member_name(builder, "error");
		json_builder_begin_object(builder);
		json_builder_set_member_name(builder, "name");
		if (error->domain == SDT_ERROR)
			json_builder_add_string_value(builder, sdt_error_to_dbus_name(error->code));
		else if ((remote = g_dbus_error_get_remote_error(error)) != NULL)
			json_builder_add_string_value(builder, remote);
		else
			json_builder_add_string_value(builder, g_quark_to_string(error->domain));
		json_builder_set_member_name(builder, "code");
		json_builder_add_int_value(builder, error->code);
		json_builder_set_member_name(builder, "message");
		json_builder_add_string_value(builder, error->message);
		json_builder_end_object(builder);
		json_builder_end_object(builder);
		root = json_builder_get_root(builder);
		sdt_cli_print_json(cli, root);
	}
}

static gchar *
sdt_cli_summary(void)
{
	GString *str = g_string_new(_("Commands:"));
	for (guint i = 0; commands[i].name != NULL; i++) {
		g_autofree gchar *left = g_strdup_printf("%s%s%s",
							 commands[i].name,
							 commands[i].args[0] != '\0' ? " " : "",
							 commands[i].args);
		/* a long synopsis gets its description on the next line, aligned */
		if (g_utf8_strlen(left, -1) > 22)
			g_string_append_printf(str,
					       "\n  %s\n  %-22s %s",
					       left,
					       "",
					       _(commands[i].description));
		else
			g_string_append_printf(str,
					       "\n  %-22s %s",
					       left,
					       _(commands[i].description));
	}
	return g_string_free(str, FALSE);
}

static void
sdt_cli_clear(SdtCli *cli)
{
	sdt_cli_ops_shutdown(cli);
	g_clear_object(&cli->ctx);
	g_clear_pointer(&cli->root, g_free);
}

int
main(int argc, char *argv[])
{
	SdtCli cli = {NULL};
	g_autoptr(GOptionContext) context = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *summary = NULL;
	gboolean version = FALSE;
	gint rc;
	const GOptionEntry entries[] = {
		{"root",
		 'r',
		 0,
		 G_OPTION_ARG_FILENAME,
		 &cli.root,
		 N_("Read everything under DIR instead of this machine (no helper, no polkit)"),
		 N_("DIR")},
		{"json", 'j', 0, G_OPTION_ARG_NONE, &cli.json, N_("Print JSON"), NULL},
		{"version", 0, 0, G_OPTION_ARG_NONE, &version, N_("Print the version"), NULL},
		{NULL},
	};

	setlocale(LC_ALL, "");
	bindtextdomain(GETTEXT_PACKAGE,
		       g_getenv("SDTUNER_LOCALEDIR") != NULL ? g_getenv("SDTUNER_LOCALEDIR")
							     : LOCALEDIR);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);

	context = g_option_context_new(_("COMMAND [ARGS…] - tune the SD card of a Raspberry Pi"));
	summary = sdt_cli_summary();
	g_option_context_set_summary(context, summary);
	g_option_context_add_main_entries(context, entries, GETTEXT_PACKAGE);
	g_option_context_set_strict_posix(context, TRUE);
	g_option_context_set_translation_domain(context, GETTEXT_PACKAGE);
	if (!g_option_context_parse(context, &argc, &argv, &error)) {
		g_printerr("sdtunerctl: %s\n", error->message);
		g_printerr(_("Try “sdtunerctl --help”.\n"));
		return SDT_CLI_EXIT_USAGE;
	}
	if (version) {
		g_print("sdtunerctl %s\n", PACKAGE_VERSION);
		return SDT_CLI_EXIT_OK;
	}
	if (argc < 2) {
		g_printerr(_("sdtunerctl: no command given\n"));
		g_printerr("%s\n", summary);
		return SDT_CLI_EXIT_USAGE;
	}
	if (cli.root == NULL && g_getenv("SDTUNER_ROOT") != NULL && g_getenv("SDTUNER_ROOT")[0])
		cli.root = g_strdup(g_getenv("SDTUNER_ROOT"));

	for (guint i = 0; commands[i].name != NULL; i++) {
		if (g_strcmp0(commands[i].name, argv[1]) != 0)
			continue;
		if (cli.root != NULL) {
			cli.ctx = sdt_context_new(cli.root, &error);
			if (cli.ctx == NULL) {
				sdt_cli_print_error(&cli, error);
				sdt_cli_clear(&cli);
				return SDT_CLI_EXIT_USAGE;
			}
		}
		rc = commands[i].func(&cli, argc - 1, argv + 1, &error);
		if (error != NULL) {
			sdt_cli_print_error(&cli, error);
			if (rc == SDT_CLI_EXIT_OK)
				rc = SDT_CLI_EXIT_FAILED;
		}
		sdt_cli_clear(&cli);
		return rc;
	}
	g_printerr(_("sdtunerctl: unknown command “%s”\n"), argv[1]);
	g_printerr("%s\n", summary);
	sdt_cli_clear(&cli);
	return SDT_CLI_EXIT_USAGE;
}
