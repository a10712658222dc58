/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * SdtSession (src/app/sdt-session.c) on a real dbus-daemon (GTestDBus) set
 * as the system bus: it connects, gets the Manager proxy and the Simulated
 * flag, tells the pages to read the helper's state ("changed"), reports a
 * helper that leaves ("service-vanished", the flag remembered), a bus that
 * goes away (the manager cleared, an error) and a bus it cannot reach.
 * The helper is a stand-in here: the generated Manager skeleton with
 * Simulated=true owns the helper's name (the real helper, which needs polkit
 * and a board, is driven through the app by tests/gui).
 */

#include "config.h"

#include <glib/gstdio.h>

#include "sdt-client.h"
#include "sdt-session.h"

typedef struct {
	guint manager_notifies;
	guint simulated_notifies;
	guint changed;
	guint changed_with_manager; /* "changed" while the manager was already set */
	guint vanished;
	guint errors;
	gint last_action;
	GError *last_error;
	guint notices;
	GtkMessageType last_type;
	gchar *last_text;
	guint dismissed;
} Seen;

static void
seen_clear(Seen *seen)
{
	g_clear_error(&seen->last_error);
	g_clear_pointer(&seen->last_text, g_free);
}

static void
on_notify(SdtSession *session, GParamSpec *pspec, Seen *seen)
{
	if (g_strcmp0(pspec->name, "manager") == 0)
		seen->manager_notifies++;
	else if (g_strcmp0(pspec->name, "simulated") == 0)
		seen->simulated_notifies++;
}

static void
on_changed(SdtSession *session, Seen *seen)
{
	seen->changed++;
	if (sdt_session_get_manager(session) != NULL)
		seen->changed_with_manager++;
}

static void
on_vanished(SdtSession *session, Seen *seen)
{
	seen->vanished++;
}

static void
on_error(SdtSession *session, gint action, const GError *error, Seen *seen)
{
	seen->errors++;
	seen->last_action = action;
	g_clear_error(&seen->last_error);
	seen->last_error = error != NULL ? g_error_copy(error) : NULL;
}

static void
on_notice(SdtSession *session, GtkMessageType type, const gchar *text, Seen *seen)
{
	seen->notices++;
	seen->last_type = type;
	g_free(seen->last_text);
	seen->last_text = g_strdup(text);
}

static void
on_dismiss(SdtSession *session, Seen *seen)
{
	seen->dismissed++;
}

static SdtSession *
session_new(Seen *seen)
{
	SdtSession *session = g_object_new(SDT_TYPE_SESSION, NULL);

	g_signal_connect(session, "notify", G_CALLBACK(on_notify), seen);
	g_signal_connect(session, "changed", G_CALLBACK(on_changed), seen);
	g_signal_connect(session, "service-vanished", G_CALLBACK(on_vanished), seen);
	g_signal_connect(session, "error", G_CALLBACK(on_error), seen);
	g_signal_connect(session, "notice", G_CALLBACK(on_notice), seen);
	g_signal_connect(session, "dismiss", G_CALLBACK(on_dismiss), seen);
	return session;
}

/* iterate the main context until *@counter reaches @want (or fail after 20 s) */
static void
wait_for(const guint *counter, guint want, const gchar *what)
{
	gint64 deadline = g_get_monotonic_time() + 20 * G_USEC_PER_SEC;

	while (*counter < want) {
		if (g_get_monotonic_time() > deadline)
			g_error("timed out waiting for %s", what);
		g_main_context_iteration(NULL, FALSE);
		g_usleep(1000);
	}
}

/* the stand-in helper: a Manager skeleton that owns the helper's name */
typedef struct {
	GDBusConnection *connection;
	SdtManager *skeleton;
	guint owner_id;
	guint acquired;
} Helper;

static void
helper_name_acquired(GDBusConnection *connection, const gchar *name, gpointer user_data)
{
	((Helper *) user_data)->acquired++;
}

static void
helper_start(Helper *helper, const gchar *address)
{
	g_autoptr(GError) error = NULL;

	helper->connection = g_dbus_connection_new_for_address_sync(
		address,
		G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
			G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
		NULL,
		NULL,
		&error);
	g_assert_no_error(error);
	g_dbus_connection_set_exit_on_close(helper->connection, FALSE);
	helper->skeleton = sdt_manager_skeleton_new();
	sdt_manager_set_simulated(helper->skeleton, TRUE);
	g_dbus_interface_skeleton_export(G_DBUS_INTERFACE_SKELETON(helper->skeleton),
					 helper->connection,
					 SDT_MANAGER_PATH,
					 &error);
	g_assert_no_error(error);
	helper->owner_id = g_bus_own_name_on_connection(helper->connection,
							SDT_BUS_NAME,
							G_BUS_NAME_OWNER_FLAGS_NONE,
							helper_name_acquired,
							NULL,
							helper,
							NULL);
	wait_for(&helper->acquired, 1, "the stand-in helper's name");
}

/* like the real helper's idle exit: the name goes, the connection too */
static void
helper_stop(Helper *helper)
{
	g_bus_unown_name(helper->owner_id);
	g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(helper->skeleton));
	g_clear_object(&helper->skeleton);
	g_dbus_connection_close_sync(helper->connection, NULL, NULL);
	g_clear_object(&helper->connection);
	helper->acquired = 0;
}

static void
test_session_connect_and_lose(void)
{
	g_autoptr(GTestDBus) bus = g_test_dbus_new(G_TEST_DBUS_NONE);
	g_autoptr(SdtSession) session = NULL;
	Helper helper = {0};
	Seen seen = {0};

	g_test_dbus_up(bus);
	g_setenv("DBUS_SYSTEM_BUS_ADDRESS", g_test_dbus_get_bus_address(bus), TRUE);
	helper_start(&helper, g_test_dbus_get_bus_address(bus));
	session = session_new(&seen);
	g_assert_null(sdt_session_get_manager(session));

	/* no manager yet: refresh is a no-op, reload connects */
	sdt_session_refresh(session);
	g_assert_cmpuint(seen.changed, ==, 0);
	sdt_session_reload(session);
	wait_for(&seen.changed, 1, "changed after connecting");
	g_assert_cmpuint(seen.errors, ==, 0);
	g_assert_cmpuint(seen.manager_notifies, ==, 1);
	g_assert_cmpuint(seen.changed_with_manager, ==, 1);
	g_assert_nonnull(sdt_session_get_manager(session));
	g_assert_true(sdt_session_get_simulated(session));
	g_assert_cmpuint(seen.simulated_notifies, >=, 1);

	/* connected: refresh and reload both just ask the pages to read again */
	sdt_session_refresh(session);
	g_assert_cmpuint(seen.changed, ==, 2);
	sdt_session_reload(session);
	g_assert_cmpuint(seen.changed, ==, 3);
	g_assert_cmpuint(seen.manager_notifies, ==, 1);

	/* the helper leaves (idle exit): jobs fail, the proxy and the flag stay */
	helper_stop(&helper);
	wait_for(&seen.vanished, 1, "service-vanished after the helper left");
	g_assert_nonnull(sdt_session_get_manager(session));
	g_assert_true(sdt_session_get_simulated(session));
	g_assert_cmpuint(seen.errors, ==, 0);

	/* the bus goes away: the manager is cleared and the user is told */
	seen.vanished = 0;
	g_test_dbus_down(bus);
	wait_for(&seen.errors, 1, "an error after the bus went away");
	g_assert_cmpuint(seen.vanished, >=, 1);
	g_assert_null(sdt_session_get_manager(session));
	g_assert_cmpuint(seen.manager_notifies, ==, 2);
	g_assert_cmpint(seen.last_action, ==, SDT_USER_ACTION_CONNECT);
	g_assert_error(seen.last_error, G_IO_ERROR, G_IO_ERROR_CLOSED);

	/* nothing to refresh now; reload tries to connect again, and says it failed */
	sdt_session_refresh(session);
	g_assert_cmpuint(seen.changed, ==, 3);
	sdt_session_reload(session);
	wait_for(&seen.errors, 2, "an error when the bus cannot be reached again");
	g_assert_cmpint(seen.last_action, ==, SDT_USER_ACTION_CONNECT);
	g_assert_cmpuint(seen.changed, ==, 3);
	seen_clear(&seen);
	g_unsetenv("DBUS_SYSTEM_BUS_ADDRESS");
}

static void
test_session_no_bus(void)
{
	g_autofree gchar *dir = g_dir_make_tmp("sdt-session-XXXXXX", NULL);
	g_autofree gchar *address = g_strdup_printf("unix:path=%s/no-bus", dir);
	g_autoptr(SdtSession) session = NULL;
	Seen seen = {0};

	g_setenv("DBUS_SYSTEM_BUS_ADDRESS", address, TRUE);
	session = session_new(&seen);
	sdt_session_reload(session);
	wait_for(&seen.errors, 1, "an error without a bus");
	g_assert_cmpint(seen.last_action, ==, SDT_USER_ACTION_CONNECT);
	g_assert_nonnull(seen.last_error);
	g_assert_null(sdt_session_get_manager(session));
	g_assert_cmpuint(seen.changed, ==, 0);
	g_assert_false(sdt_session_get_simulated(session));
	seen_clear(&seen);
	g_unsetenv("DBUS_SYSTEM_BUS_ADDRESS");
	g_rmdir(dir);
}

/* what a page reports reaches the window's handlers unchanged */
static void
test_session_reports(void)
{
	g_autoptr(SdtSession) session = NULL;
	g_autoptr(GError) error = g_error_new_literal(G_IO_ERROR, G_IO_ERROR_FAILED, "it failed");
	Seen seen = {0};

	session = session_new(&seen);
	sdt_session_report_error(session, SDT_USER_ACTION_APPLY, error);
	g_assert_cmpuint(seen.errors, ==, 1);
	g_assert_cmpint(seen.last_action, ==, SDT_USER_ACTION_APPLY);
	g_assert_error(seen.last_error, G_IO_ERROR, G_IO_ERROR_FAILED);
	g_assert_cmpstr(seen.last_error->message, ==, "it failed");

	sdt_session_report_notice(session, GTK_MESSAGE_WARNING, "look");
	g_assert_cmpuint(seen.notices, ==, 1);
	g_assert_cmpint(seen.last_type, ==, GTK_MESSAGE_WARNING);
	g_assert_cmpstr(seen.last_text, ==, "look");

	sdt_session_dismiss(session);
	g_assert_cmpuint(seen.dismissed, ==, 1);

	g_assert_null(sdt_session_get_board_model(session));
	sdt_session_set_board_model(session, "Raspberry Pi 3 Model B Rev 1.2");
	g_assert_cmpstr(sdt_session_get_board_model(session), ==, "Raspberry Pi 3 Model B Rev 1.2");
	seen_clear(&seen);
}

int
main(int argc, char *argv[])
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/session/connect-and-lose", test_session_connect_and_lose);
	g_test_add_func("/session/no-bus", test_session_no_bus);
	g_test_add_func("/session/reports", test_session_reports);
	return g_test_run();
}
