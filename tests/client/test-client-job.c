/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The job follower of the client layer (sdt-client-job.h), as the app and
 * sdtunerctl use it, on a real private dbus-daemon (GTestDBus).  The helper
 * here is a stand-in (a mock: the real one needs root and polkitd, see
 * tests/integration/test_cli_bus.py for sdtunerctl against it): a second
 * connection that owns the helper's name and answers StartBenchmark.  A third
 * connection forges the job's Completed signal, broadcast and sent straight
 * to the follower; only the helper's own signal may end the job.
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "sdt-client-job.h"
#include "sdt-client.h"

#define JOB_PATH SDT_JOBS_PATH "/1"

typedef enum {
	MODE_FORGED_THEN_REAL, /* a forger's Completed, then the helper's */
	MODE_EARLY,            /* forged and real Completed before the method's reply */
	MODE_HELPER_DIES,      /* the helper leaves the bus after its reply */
} Mode;

typedef struct {
	GTestDBus *bus;
	gchar *service_dir;
	GDBusConnection *helper;
	GDBusConnection *forger;
	GDBusConnection *client;
	guint registration;
	Mode mode;
	gboolean done;
	gchar *result;
	GError *error;
} Fixture;

static GDBusConnection *
fixture_connect(Fixture *f)
{
	g_autoptr(GError) error = NULL;
	GDBusConnection *c = g_dbus_connection_new_for_address_sync(
		g_test_dbus_get_bus_address(f->bus),
		G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
			G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
		NULL,
		NULL,
		&error);
	g_assert_no_error(error);
	return c;
}

static void
emit_completed(GDBusConnection *from, const gchar *dest, const gchar *result)
{
	g_autoptr(GError) error = NULL;

	g_dbus_connection_emit_signal(from,
				      dest,
				      JOB_PATH,
				      SDT_JOB_IFACE,
				      "Completed",
				      g_variant_new("(sss)", result, "", ""),
				      &error);
	g_assert_no_error(error);
	g_dbus_connection_flush_sync(from, NULL, &error);
	g_assert_no_error(error);
}

/* the forger's signals, broadcast and unicast, routed by the bus before we go on */
static void
forge(Fixture *f)
{
	g_autoptr(GVariant) id = NULL;

	emit_completed(f->forger, NULL, "{\"forged\": \"broadcast\"}");
	emit_completed(f->forger, g_dbus_connection_get_unique_name(f->client), "{\"forged\": 1}");
	id = g_dbus_connection_call_sync(f->forger,
					 "org.freedesktop.DBus",
					 "/org/freedesktop/DBus",
					 "org.freedesktop.DBus",
					 "GetId",
					 NULL,
					 NULL,
					 G_DBUS_CALL_FLAGS_NONE,
					 -1,
					 NULL,
					 NULL);
	g_assert_nonnull(id);
}

static void
helper_method_cb(GDBusConnection *connection,
		 const gchar *sender,
		 const gchar *path,
		 const gchar *iface,
		 const gchar *method,
		 GVariant *params,
		 GDBusMethodInvocation *invocation,
		 gpointer user_data)
{
	Fixture *f = user_data;

	g_assert_cmpstr(method, ==, "StartBenchmark");
	g_assert_cmpstr(sender, ==, g_dbus_connection_get_unique_name(f->client));
	if (f->mode == MODE_EARLY) {
		forge(f);
		emit_completed(f->helper, NULL, "{\"real\": true}");
	}
	g_dbus_method_invocation_return_value(invocation, g_variant_new("(o)", JOB_PATH));
	g_dbus_connection_flush_sync(f->helper, NULL, NULL);
	if (f->mode == MODE_FORGED_THEN_REAL) {
		forge(f);
		emit_completed(f->helper, NULL, "{\"real\": true}");
	} else if (f->mode == MODE_HELPER_DIES) {
		g_dbus_connection_close_sync(f->helper, NULL, NULL);
	}
}

static const GDBusInterfaceVTable helper_vtable = {helper_method_cb, NULL, NULL, {NULL}};

static void
fixture_set_up(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = NULL;
	g_autofree gchar *service = NULL;

	f->mode = GPOINTER_TO_INT(data);
	f->bus = g_test_dbus_new(G_TEST_DBUS_NONE);
	/* activatable, as when installed (the bus refuses StartServiceByName
	 * for a name without a .service file); it already runs, so never started */
	f->service_dir = g_dir_make_tmp("sdt-client-job-XXXXXX", &error);
	g_assert_no_error(error);
	service = g_build_filename(f->service_dir, SDT_BUS_NAME ".service", NULL);
	g_file_set_contents(service,
			    "[D-BUS Service]\nName=" SDT_BUS_NAME "\nExec=/bin/false\n",
			    -1,
			    &error);
	g_assert_no_error(error);
	g_test_dbus_add_service_dir(f->bus, f->service_dir);
	g_test_dbus_up(f->bus);
	f->helper = fixture_connect(f);
	f->forger = fixture_connect(f);
	f->client = fixture_connect(f);
	f->registration = g_dbus_connection_register_object(f->helper,
							    SDT_MANAGER_PATH,
							    sdt_manager_interface_info(),
							    &helper_vtable,
							    f,
							    NULL,
							    &error);
	g_assert_no_error(error);
	reply = g_dbus_connection_call_sync(f->helper,
					    "org.freedesktop.DBus",
					    "/org/freedesktop/DBus",
					    "org.freedesktop.DBus",
					    "RequestName",
					    g_variant_new("(su)", SDT_BUS_NAME, 0),
					    G_VARIANT_TYPE("(u)"),
					    G_DBUS_CALL_FLAGS_NONE,
					    -1,
					    NULL,
					    &error);
	g_assert_no_error(error);
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
	g_autofree gchar *service = NULL;

	if (!g_dbus_connection_is_closed(f->helper))
		g_dbus_connection_unregister_object(f->helper, f->registration);
	g_clear_object(&f->helper);
	g_clear_object(&f->forger);
	g_clear_object(&f->client);
	g_test_dbus_down(f->bus);
	g_clear_object(&f->bus);
	service = g_build_filename(f->service_dir, SDT_BUS_NAME ".service", NULL);
	g_unlink(service);
	g_rmdir(f->service_dir);
	g_free(f->service_dir);
	g_free(f->result);
	g_clear_error(&f->error);
}

static void
done_cb(const gchar *result, const GError *error, gpointer user_data)
{
	Fixture *f = user_data;

	g_assert_false(f->done);
	f->done = TRUE;
	f->result = g_strdup(result);
	f->error = error != NULL ? g_error_copy(error) : NULL;
}

static void
follow(Fixture *f, const gchar *helper, gboolean *vanished)
{
	SdtClientJob *job = sdt_client_job_start(f->client,
						 helper,
						 "StartBenchmark",
						 "quick",
						 NULL,
						 10000,
						 NULL,
						 done_cb,
						 f);

	while (!f->done)
		g_main_context_iteration(NULL, TRUE);
	if (vanished != NULL)
		*vanished = sdt_client_job_helper_vanished(job);
	sdt_client_job_free(job);
}

/* activated by name: the forged Completed, broadcast or unicast, is not the job's end */
static void
test_forged_completed_ignored(Fixture *f, gconstpointer data)
{
	follow(f, NULL, NULL);
	g_assert_no_error(f->error);
	g_assert_cmpstr(f->result, ==, "{\"real\": true}");
}

/* the helper's unique name given, as the app does from its manager proxy */
static void
test_forged_completed_ignored_unique(Fixture *f, gconstpointer data)
{
	g_autofree gchar *owner = g_strdup(g_dbus_connection_get_unique_name(f->helper));

	follow(f, owner, NULL);
	g_assert_no_error(f->error);
	g_assert_cmpstr(f->result, ==, "{\"real\": true}");
}

static void
test_helper_dies(Fixture *f, gconstpointer data)
{
	gboolean vanished = FALSE;

	follow(f, NULL, &vanished);
	g_assert_null(f->result);
	g_assert_error(f->error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY);
	g_assert_true(vanished);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	if (!g_file_test("/usr/bin/dbus-daemon", G_FILE_TEST_IS_EXECUTABLE) &&
	    g_find_program_in_path("dbus-daemon") == NULL) {
		g_test_skip("no dbus-daemon to run a private bus");
		return g_test_run();
	}
	g_test_add("/sdtuner/client-job/forged-completed-ignored",
		   Fixture,
		   GINT_TO_POINTER(MODE_FORGED_THEN_REAL),
		   fixture_set_up,
		   test_forged_completed_ignored,
		   fixture_tear_down);
	g_test_add("/sdtuner/client-job/forged-completed-ignored-unique-name",
		   Fixture,
		   GINT_TO_POINTER(MODE_FORGED_THEN_REAL),
		   fixture_set_up,
		   test_forged_completed_ignored_unique,
		   fixture_tear_down);
	g_test_add("/sdtuner/client-job/completed-before-reply",
		   Fixture,
		   GINT_TO_POINTER(MODE_EARLY),
		   fixture_set_up,
		   test_forged_completed_ignored,
		   fixture_tear_down);
	g_test_add("/sdtuner/client-job/helper-dies",
		   Fixture,
		   GINT_TO_POINTER(MODE_HELPER_DIES),
		   fixture_set_up,
		   test_helper_dies,
		   fixture_tear_down);
	return g_test_run();
}
