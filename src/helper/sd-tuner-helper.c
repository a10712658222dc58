/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * sd-tuner-helper: the privileged half of SD Tuner.  Started by D-Bus
 * activation as root; owns org.example.SdTuner1 on the system bus, answers the
 * Manager API (sdt-daemon.c) and exits after --idle-timeout seconds without
 * calls or running jobs.
 */

#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <stdlib.h>

#include "sdt-context.h"
#include "sdt-check.h"
#include "sdt-daemon.h"
#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-kmsg.h"
#include "sdt-l10n.h"

#define SDT_HELPER_EXIT_OK    0
#define SDT_HELPER_EXIT_FAIL  1
#define SDT_HELPER_EXIT_USAGE 2

/* on SIGTERM, how long a cancelled job may take to clean up */
#define SDT_HELPER_SHUTDOWN_WAIT_S 3

typedef struct {
	GMainLoop *loop;
	SdtDaemon *daemon;
	guint idle_timeout_s;
	guint idle_id;
	gboolean name_owned;
	gint exit_status;
} SdtHelper;

static void
sdt_helper_quit(SdtHelper *helper, gint status)
{
	helper->exit_status = status;
	g_main_loop_quit(helper->loop);
}

static gboolean
sdt_helper_idle_cb(gpointer user_data)
{
	SdtHelper *helper = user_data;
	helper->idle_id = 0;
	/* "busy-changed" re-arms the timer when the last call or job ends */
	if (helper->daemon != NULL && sdt_daemon_is_busy(helper->daemon))
		return G_SOURCE_REMOVE;
	g_debug("idle for %u s, exiting", helper->idle_timeout_s);
	sdt_helper_quit(helper, SDT_HELPER_EXIT_OK);
	return G_SOURCE_REMOVE;
}

/* every call and every job end restarts the idle time */
static void
sdt_helper_arm_idle(SdtHelper *helper)
{
	if (helper->idle_id != 0)
		g_source_remove(helper->idle_id);
	helper->idle_id = 0;
	if (helper->idle_timeout_s == 0)
		return;
	helper->idle_id = g_timeout_add_seconds(helper->idle_timeout_s, sdt_helper_idle_cb, helper);
}

static void
sdt_helper_busy_changed_cb(SdtDaemon *daemon, SdtHelper *helper)
{
	sdt_helper_arm_idle(helper);
}

static void
sdt_helper_bus_acquired_cb(GDBusConnection *connection, const gchar *name, gpointer user_data)
{
	SdtHelper *helper = user_data;
	g_autoptr(GError) error = NULL;

	if (!sdt_daemon_export(helper->daemon, connection, &error)) {
		g_printerr("sd-tuner-helper: %s\n", error->message);
		sdt_helper_quit(helper, SDT_HELPER_EXIT_FAIL);
	}
}

static void
sdt_helper_name_acquired_cb(GDBusConnection *connection, const gchar *name, gpointer user_data)
{
	SdtHelper *helper = user_data;
	helper->name_owned = TRUE;
	g_debug("owns %s", name);
}

static void
sdt_helper_name_lost_cb(GDBusConnection *connection, const gchar *name, gpointer user_data)
{
	SdtHelper *helper = user_data;
	/* replaced (--replace) or the bus went away: a normal end */
	if (helper->name_owned) {
		g_debug("no longer owns %s", name);
		sdt_helper_quit(helper, SDT_HELPER_EXIT_OK);
		return;
	}
	if (connection == NULL) {
		g_printerr(_("sd-tuner-helper: cannot connect to the system bus\n"));
	} else {
		/* Translators: %s is a D-Bus name */
		g_printerr(_("sd-tuner-helper: lost or could not own %s (another helper "
			     "running, or the bus policy forbids it)\n"),
			   name);
	}
	sdt_helper_quit(helper, SDT_HELPER_EXIT_FAIL);
}

static gboolean
sdt_helper_signal_cb(gpointer user_data)
{
	sdt_helper_quit(user_data, SDT_HELPER_EXIT_OK);
	return G_SOURCE_REMOVE;
}

/*
 * The kernel log is read once, now: its SD lines (all start with "mmcN:" or
 * "mmcblkN:") are what `info` and the recommendations need, and the ring
 * buffer may have dropped the boot messages by the time a client asks.
 */
static void
sdt_helper_keep_kernel_log(SdtContext *ctx)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *text = NULL;
	g_autofree gchar *kept = NULL;
	g_autoptr(GBytes) bytes = NULL;
	gsize len = 0;
	gsize kept_len = 0;

	text = sdt_kmsg_read(ctx, &len, &error);
	if (text == NULL) {
		/* every `info` will try again and say why it failed */
		g_debug("kernel log not kept: %s", error->message);
		return;
	}
	kept = sdt_kmsg_filter(text, len, "mmc", &kept_len);
	g_debug("kept %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " bytes of the kernel log",
		kept_len,
		len);
	bytes = g_bytes_new_take(g_steal_pointer(&kept), kept_len);
	sdt_context_set_kernel_log(ctx, bytes);
}

/*
 * A check killed in the instant its reserved file had a name (file systems
 * without O_TMPFILE) leaves that one file; it goes at the next start.
 */
static void
sdt_helper_remove_stale_checks(SdtContext *ctx, const gchar *bench_dir)
{
	const gchar *mount_points[] = {"/", "/boot/firmware", "/boot"};
	g_autofree gchar *state = sdt_context_get_state_dir(ctx);
	g_auto(GStrv) journal_dirs = sdt_check_journal_dirs(ctx);
	g_autoptr(GError) error = NULL;

	/* a check killed during its probe: its saved blocks go back first */
	if (sdt_check_repair((const gchar *const *) journal_dirs, &error) < 0)
		g_warning("%s", error->message);

	if (bench_dir != NULL && sdt_check_remove_stale(bench_dir))
		g_message("removed a stale reserved file of a killed check in %s", bench_dir);
	if (sdt_check_remove_stale(state))
		g_message("removed a stale reserved file of a killed check in %s", state);
	for (guint i = 0; i < G_N_ELEMENTS(mount_points); i++) {
		g_autofree gchar *dir = sdt_context_build_path(ctx, mount_points[i]);
		if (sdt_check_remove_stale(dir))
			g_message("removed a stale reserved file of a killed check in %s", dir);
	}
}

/* the command line */
typedef struct {
	gchar *root;
	gchar *bench_dir;
	gint idle_timeout;
	gboolean verbose;
	gboolean replace;
} SdtHelperArgs;

static void
sdt_helper_args_clear(SdtHelperArgs *args)
{
	g_clear_pointer(&args->root, g_free);
	g_clear_pointer(&args->bench_dir, g_free);
}

static void
sdt_helper_init_locale(void)
{
	setlocale(LC_ALL, "");
	bindtextdomain(GETTEXT_PACKAGE,
		       g_getenv("SDTUNER_LOCALEDIR") != NULL ? g_getenv("SDTUNER_LOCALEDIR")
							     : LOCALEDIR);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);
}

/* parses and checks the options: FALSE after saying what is wrong (exit: usage) */
static gboolean
sdt_helper_parse_args(gint *argc, gchar ***argv, SdtHelperArgs *args)
{
	g_autoptr(GOptionContext) context = NULL;
	g_autoptr(GError) error = NULL;
	const GOptionEntry entries[] = {
		{"root",
		 'r',
		 0,
		 G_OPTION_ARG_FILENAME,
		 &args->root,
		 N_("Read and write everything under DIR instead of / (tests, simulated board)"),
		 N_("DIR")},
		{"bench-dir",
		 0,
		 0,
		 G_OPTION_ARG_FILENAME,
		 &args->bench_dir,
		 N_("With --root only: benchmark on the file system of DIR (tests)"),
		 N_("DIR")},
		{"idle-timeout",
		 0,
		 0,
		 G_OPTION_ARG_INT,
		 &args->idle_timeout,
		 N_("Exit after SECONDS without work (0: never; default 60)"),
		 N_("SECONDS")},
		{"verbose",
		 'v',
		 0,
		 G_OPTION_ARG_NONE,
		 &args->verbose,
		 N_("Print debug messages"),
		 NULL},
		{"replace",
		 0,
		 0,
		 G_OPTION_ARG_NONE,
		 &args->replace,
		 N_("Replace a running helper"),
		 NULL},
		{NULL},
	};

	context = g_option_context_new(_("- the SD Tuner system service"));
	g_option_context_add_main_entries(context, entries, GETTEXT_PACKAGE);
	g_option_context_set_translation_domain(context, GETTEXT_PACKAGE);
	if (!g_option_context_parse(context, argc, argv, &error)) {
		g_printerr("sd-tuner-helper: %s\n", error->message);
		return FALSE;
	}
	/* JSON and D-Bus errors go to programs (sdtunerctl --json): English, C numbers;
	 * the app and sdtunerctl translate them for people (sdt-l10n.c) */
	sdt_l10n_use_c_locale_for_output();
	if (args->idle_timeout < 0) {
		g_printerr(_("sd-tuner-helper: --idle-timeout must be 0 or more\n"));
		return FALSE;
	}
	if (args->root == NULL && g_getenv("SDTUNER_ROOT") != NULL && g_getenv("SDTUNER_ROOT")[0])
		args->root = g_strdup(g_getenv("SDTUNER_ROOT"));
	/* the benchmark goes where the card is, never where a client says; a test
	 * directory is for a root prefix only */
	if (args->bench_dir != NULL && args->root == NULL) {
		g_printerr(_("sd-tuner-helper: --bench-dir needs --root\n"));
		return FALSE;
	}
	return TRUE;
}

/* what killed helpers left behind, before the first request */
static void
sdt_helper_clean_up(SdtContext *ctx, const gchar *bench_dir)
{
	g_autoptr(GError) error = NULL;

	sdt_helper_keep_kernel_log(ctx);
	/* history writes killed before their rename leave temporary files */
	if (sdt_history_remove_stale(ctx, &error) == 0 && error != NULL)
		g_warning("%s", error->message);
	sdt_helper_remove_stale_checks(ctx, bench_dir);
}

/* owns the bus name and serves until the loop quits */
static void
sdt_helper_serve(SdtHelper *helper, SdtContext *ctx, const SdtHelperArgs *args)
{
	guint owner_id;

	/* registers org.example.SdTuner1.Error.* before the first reply */
	(void) SDT_ERROR;
	/* when activated, the bus that started us is the one to serve */
	if (g_getenv("DBUS_STARTER_ADDRESS") != NULL && g_getenv("DBUS_SYSTEM_BUS_ADDRESS") == NULL)
		g_setenv("DBUS_SYSTEM_BUS_ADDRESS", g_getenv("DBUS_STARTER_ADDRESS"), TRUE);

	helper->loop = g_main_loop_new(NULL, FALSE);
	helper->idle_timeout_s = (guint) args->idle_timeout;
	helper->daemon = sdt_daemon_new(ctx, args->bench_dir);
	g_signal_connect(helper->daemon,
			 "busy-changed",
			 G_CALLBACK(sdt_helper_busy_changed_cb),
			 helper);
	g_unix_signal_add(SIGTERM, sdt_helper_signal_cb, helper);
	g_unix_signal_add(SIGINT, sdt_helper_signal_cb, helper);
	owner_id = g_bus_own_name(G_BUS_TYPE_SYSTEM,
				  SDT_BUS_NAME,
				  G_BUS_NAME_OWNER_FLAGS_ALLOW_REPLACEMENT |
					  (args->replace ? G_BUS_NAME_OWNER_FLAGS_REPLACE : 0),
				  sdt_helper_bus_acquired_cb,
				  sdt_helper_name_acquired_cb,
				  sdt_helper_name_lost_cb,
				  helper,
				  NULL);
	sdt_helper_arm_idle(helper);
	g_main_loop_run(helper->loop);
	g_bus_unown_name(owner_id);
}

/* a running benchmark is cancelled and given time to remove its file */
static void
sdt_helper_shut_down(SdtHelper *helper)
{
	gint64 deadline;

	if (helper->idle_id != 0)
		g_source_remove(helper->idle_id);
	sdt_daemon_unexport(helper->daemon);
	deadline = g_get_monotonic_time() + SDT_HELPER_SHUTDOWN_WAIT_S * G_USEC_PER_SEC;
	while (sdt_daemon_is_busy(helper->daemon) && g_get_monotonic_time() < deadline) {
		if (!g_main_context_iteration(NULL, FALSE))
			g_usleep(10 * 1000);
	}
	g_signal_handlers_disconnect_by_data(helper->daemon, helper);
	g_clear_object(&helper->daemon);
	g_main_loop_unref(helper->loop);
}

int
main(int argc, char *argv[])
{
	SdtHelper helper = {NULL};
	SdtHelperArgs args = {NULL, NULL, 60, FALSE, FALSE};
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtContext) ctx = NULL;

	sdt_helper_init_locale();
	if (!sdt_helper_parse_args(&argc, &argv, &args)) {
		sdt_helper_args_clear(&args);
		return SDT_HELPER_EXIT_USAGE;
	}
	if (args.verbose)
		g_setenv("G_MESSAGES_DEBUG", "all", TRUE);
	ctx = sdt_context_new(args.root, &error);
	if (ctx == NULL) {
		g_printerr("sd-tuner-helper: %s\n", error->message);
		sdt_helper_args_clear(&args);
		return SDT_HELPER_EXIT_USAGE;
	}
	sdt_helper_clean_up(ctx, args.bench_dir);
	sdt_helper_serve(&helper, ctx, &args);
	sdt_helper_shut_down(&helper);
	sdt_helper_args_clear(&args);
	return helper.exit_status;
}
