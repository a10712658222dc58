/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "sdt-context.h"

G_BEGIN_DECLS

/* exit statuses, DESIGN.md "sdtunerctl contract" */
#define SDT_CLI_EXIT_OK     0
#define SDT_CLI_EXIT_FAILED 1
#define SDT_CLI_EXIT_USAGE  2

typedef struct {
	gchar *root;     /* --root, or $SDTUNER_ROOT; NULL: talk to the helper over D-Bus */
	gboolean json;   /* --json */
	SdtContext *ctx; /* in-process mode only */
	gpointer bus;    /* bus mode: the helper's proxy, see sdt-cli-ops.c */
} SdtCli;

/*
 * One command: parses its own arguments (@argv[0] is the command name) and
 * returns an exit status.  On failure it sets @error and returns
 * SDT_CLI_EXIT_FAILED (or SDT_CLI_EXIT_USAGE for bad arguments, with @error in
 * the G_OPTION_ERROR domain); the caller prints the error.
 */
typedef gint (*SdtCliCommandFunc)(SdtCli *cli, gint argc, gchar **argv, GError **error);

void sdt_cli_print_json(SdtCli *cli, JsonNode *node);
gboolean sdt_cli_no_args(SdtCli *cli, gint argc, gchar **argv, GError **error);
gboolean sdt_cli_is_tty(void);

G_END_DECLS
