/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sdt-context.h"

G_BEGIN_DECLS

/* exit statuses, DESIGN.md "sdtunerctl contract" */
#define SDT_CLI_EXIT_OK     0
#define SDT_CLI_EXIT_FAILED 1
#define SDT_CLI_EXIT_USAGE  2

typedef struct _SdtCli SdtCli;

/*
 * One command: parses its own arguments (@argv[0] is the command name) and
 * returns an exit status.  On failure it sets @error and returns
 * SDT_CLI_EXIT_FAILED (or SDT_CLI_EXIT_USAGE for bad arguments, with @error in
 * the G_OPTION_ERROR domain); the caller prints the error.
 */
typedef gint (*SdtCliCommandFunc)(SdtCli *cli, gint argc, gchar **argv, GError **error);
typedef struct {
	const gchar *name;
	const gchar *args;       /* the synopsis in the command list */
	const gchar *parameters; /* the positional arguments, for its usage line */
	const gchar *description;
	SdtCliCommandFunc func;
} SdtCliCommand; /* a command as the dispatcher (sdtunerctl.c) lists it */

struct _SdtCli {
	gchar *root;     /* --root, or $SDTUNER_ROOT; NULL: talk to the helper over D-Bus */
	gboolean json;   /* --json */
	SdtContext *ctx; /* in-process mode only */
	gpointer bus;    /* bus mode: the helper's proxy, see sdt-cli-ops.c */
	gchar **argv;    /* the command and its arguments as given (for hints) */
	const SdtCliCommand *command; /* the command running, set by the dispatcher */
};

/* a document's text (its codec's, src/wire) on stdout as it is, and a newline */
void sdt_cli_print_text(SdtCli *cli, const gchar *text);

/*
 * Parses the arguments of cli->command (@argv[0] is its name) with @entries
 * (may be %NULL) plus --json/-j and --help/-h, leaving the positional
 * arguments in @argc/@argv; from @min_args to @max_args of them are allowed.
 * Returns TRUE when the command is to run, with cli->ctx made for --root.
 * Otherwise *@rc is the exit status: SDT_CLI_EXIT_OK after printing the
 * command's help on stdout, SDT_CLI_EXIT_USAGE with @error set.
 */
gboolean sdt_cli_parse(SdtCli *cli,
		       const GOptionEntry *entries,
		       guint min_args,
		       guint max_args,
		       gint *argc,
		       gchar ***argv,
		       gint *rc,
		       GError **error);

/* a command without arguments of its own */
gboolean sdt_cli_no_args(SdtCli *cli, gint argc, gchar **argv, gint *rc, GError **error);

/*
 * Runs @work (@data, a cancellable, an error) in a worker thread while this
 * thread's main loop answers SIGINT and SIGTERM (systemd stopping a unit):
 * @interrupted (may be NULL) is called first, e.g. to end a progress line and
 * say what happens, then the work's cancellable is cancelled.  Returns what
 * the work returned (a document's text), or NULL with its own error (e.g.
 * SDT_ERROR_CANCELLED).
 */
typedef gchar *(*SdtCliWorkFunc)(gpointer data, GCancellable *cancellable, GError **error);
typedef void (*SdtCliInterruptFunc)(gpointer data);
gchar *sdt_cli_run_in_thread(SdtCliWorkFunc work,
			     SdtCliInterruptFunc interrupted,
			     gpointer data,
			     GError **error);

/* text for people through g_print()/g_printerr(), in the locale's charset */
void sdt_cli_set_print_handlers(void);

G_END_DECLS
