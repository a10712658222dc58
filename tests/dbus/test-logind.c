/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The logind inhibitor below the helper and the app (src/dbus/sdt-logind.h):
 *   - against the REAL systemd-logind of this machine and the real polkitd, on a private
 *     system bus (tests/dbus/logind-bus.py starts them and passes the bus's address in
 *     SDTUNER_TEST_LOGIND_BUS): root gets a block inhibitor that logind lists until it is
 *     released; a reply that comes after the release is closed at once and never reported;
 *     nobody is refused a block (polkit's defaults) and gets a delay, released from inside
 *     its answer as the app does;
 *   - without logind: no system bus at all, and a private bus (GTestDBus) where nobody
 *     owns org.freedesktop.login1;
 *   - the answers the real logind never gives (no reply in time, a reply without a file
 *     descriptor): a STAND-IN logind on the GTestDBus bus, named as such.
 */

#include "config.h"

#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <unistd.h>

#include "sdt-logind.h"
#include "sdt-logind-private.h"

#define LOGIND_NAME    "org.freedesktop.login1"
#define LOGIND_PATH    "/org/freedesktop/login1"
#define LOGIND_MANAGER "org.freedesktop.login1.Manager"
#define WHO            "SD Tuner test"

typedef struct {
	guint calls;
	SdtLogindAnswer answer;
	GError *error;
	gint fd;                      /* the inhibitor's, when it answered */
	gboolean release_in_callback; /* as the app does with a refused block */
	SdtLogindInhibitor *inhibitor;
} Answer;

static void
answer_clear(Answer *a)
{
	g_clear_error(&a->error);
	g_clear_pointer(&a->inhibitor, sdt_logind_inhibitor_release);
}

static void
answer_cb(SdtLogindInhibitor *inhibitor,
	  SdtLogindAnswer answer,
	  const GError *error,
	  gpointer user_data)
{
	Answer *a = user_data;

	a->calls++;
	a->answer = answer;
	g_clear_error(&a->error);
	a->error = error != NULL ? g_error_copy(error) : NULL;
	a->fd = sdt_logind_inhibitor_get_fd(inhibitor);
	g_assert_true(inhibitor == a->inhibitor);
	if (a->release_in_callback)
		g_clear_pointer(&a->inhibitor, sdt_logind_inhibitor_release);
}

static gboolean
timeout_cb(gpointer user_data)
{
	gboolean *timed_out = user_data;
	*timed_out = TRUE;
	return G_SOURCE_REMOVE;
}

/* runs the main context until @a has an answer, or for @msec when @a is NULL */
static void
spin(Answer *a, guint msec)
{
	gboolean timed_out = FALSE;
	guint id = g_timeout_add(msec, timeout_cb, &timed_out);

	while (!timed_out && (a == NULL || a->calls == 0))
		g_main_context_iteration(NULL, TRUE);
	if (!timed_out)
		g_source_remove(id);
}

static void
ask(Answer *a, GDBusConnection *bus, const gchar *what, const gchar *why, const gchar *mode)
{
	SdtLogindRequest request = {what, WHO, why, mode, 10 * 1000};

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	a->inhibitor = sdt_logind_inhibitor_new(bus, &request, answer_cb, a);
	g_assert_nonnull(a->inhibitor);
}

static GDBusConnection *
connect_to(const gchar *address)
{
	g_autoptr(GError) error = NULL;
	GDBusConnection *c = g_dbus_connection_new_for_address_sync(
		address,
		G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
			G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
		NULL,
		NULL,
		&error);
	g_assert_no_error(error);
	return c;
}

/* ---- the real systemd-logind ------------------------------------------------------ */

/* the private system bus with the real logind and polkitd, or NULL: the test skips
 * (fails under CI=true) */
static const gchar *
logind_bus(void)
{
	const gchar *address = g_getenv("SDTUNER_TEST_LOGIND_BUS");

	if (address != NULL && *address != '\0')
		return address;
	if (g_strcmp0(g_getenv("CI"), "true") == 0)
		g_test_fail_printf("CI=true: no private bus with systemd-logind (run through "
				   "tests/dbus/logind-bus.py, as root)");
	else
		g_test_skip("no private bus with systemd-logind: tests/dbus/logind-bus.py runs "
			    "this as root");
	return NULL;
}

/* what logind lists for @why, one "what who mode uid pid" line per inhibitor */
static gchar *
listed(GDBusConnection *bus, const gchar *why)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariantIter) iter = NULL;
	g_autoptr(GVariant) reply = NULL;
	GString *out = g_string_new(NULL);
	const gchar *what, *who, *w, *mode;
	guint32 uid, pid;

	reply = g_dbus_connection_call_sync(bus,
					    LOGIND_NAME,
					    LOGIND_PATH,
					    LOGIND_MANAGER,
					    "ListInhibitors",
					    NULL,
					    G_VARIANT_TYPE("(a(ssssuu))"),
					    G_DBUS_CALL_FLAGS_NO_AUTO_START,
					    10 * 1000,
					    NULL,
					    &error);
	g_assert_no_error(error);
	g_variant_get(reply, "(a(ssssuu))", &iter);
	while (g_variant_iter_loop(iter, "(&s&s&s&suu)", &what, &who, &w, &mode, &uid, &pid)) {
		if (g_strcmp0(w, why) == 0)
			g_string_append_printf(out, "%s %s %s %u %u\n", what, who, mode, uid, pid);
	}
	return g_string_free(out, FALSE);
}

/* logind notices a closed fd in its own time: waits (10 s at most) until it lists @expected */
static void
assert_listed(GDBusConnection *bus, const gchar *why, const gchar *expected)
{
	g_autofree gchar *now = NULL;

	for (guint i = 0; i < 200; i++) {
		g_free(now);
		now = listed(bus, why);
		if (g_strcmp0(now, expected) == 0)
			return;
		g_usleep(50 * 1000);
	}
	g_assert_cmpstr(now, ==, expected);
}

static gchar *
expected_line(const gchar *what, const gchar *mode)
{
	return g_strdup_printf("%s %s %s %u %u\n",
			       what,
			       WHO,
			       mode,
			       (guint) getuid(),
			       (guint) getpid());
}

/* root (CAP_SYS_BOOT: logind asks no polkit) blocks shutdown and sleep, on the caller's
 * connection as the helper asks, and on the system bus the module connects to as the
 * app asks; logind lists it while the fd is open and drops it on release */
static void
test_held(void)
{
	const gchar *address = logind_bus();
	g_autoptr(GDBusConnection) bus = NULL;

	if (address == NULL)
		return;
	g_setenv("DBUS_SYSTEM_BUS_ADDRESS", address, TRUE);
	bus = connect_to(address);
	for (guint own = 0; own < 2; own++) {
		g_autofree gchar *why = g_strdup_printf("sdt-logind test: held, %s",
							own ? "own bus" : "system bus");
		g_autofree gchar *line = expected_line("shutdown:sleep", "block");
		Answer a;

		ask(&a, own ? bus : NULL, "shutdown:sleep", why, "block");
		spin(&a, 30 * 1000);
		g_assert_cmpuint(a.calls, ==, 1);
		g_assert_no_error(a.error);
		g_assert_cmpstr(sdt_logind_answer_to_string(a.answer), ==, "held");
		g_assert_cmpint(a.fd, >=, 0);
		g_assert_cmpint(sdt_logind_inhibitor_get_fd(a.inhibitor), ==, a.fd);
		g_assert_cmpstr(sdt_logind_inhibitor_get_what(a.inhibitor), ==, "shutdown:sleep");
		g_assert_cmpstr(sdt_logind_inhibitor_get_mode(a.inhibitor), ==, "block");
		g_assert_cmpstr(sdt_logind_inhibitor_get_why(a.inhibitor), ==, why);
		assert_listed(bus, why, line);
		g_clear_pointer(&a.inhibitor, sdt_logind_inhibitor_release);
		assert_listed(bus, why, "");
		spin(NULL, 200);
		g_assert_cmpuint(a.calls, ==, 1);
		answer_clear(&a);
	}
}

/* logind's reply is in (the inhibitor exists, its fd is in this process) but not yet
 * handed over when the caller releases: the fd is closed as the main context next runs
 * and the caller never hears of it; and released before anything was sent, on the system
 * bus: nothing at all */
static void
test_released_before_answer(void)
{
	const gchar *address = logind_bus();
	g_autoptr(GDBusConnection) bus = NULL;
	g_autofree gchar *line = expected_line("shutdown:sleep", "block");
	const gchar *why = "sdt-logind test: released before the answer";
	Answer a, b;

	if (address == NULL)
		return;
	g_setenv("DBUS_SYSTEM_BUS_ADDRESS", address, TRUE);
	bus = connect_to(address);
	/* the main context does not run: the reply waits in GDBus's queue */
	ask(&a, bus, "shutdown:sleep", why, "block");
	assert_listed(bus, why, line);
	g_clear_pointer(&a.inhibitor, sdt_logind_inhibitor_release);
	/* the reply's fd goes when GDBus hands it over, in the main context */
	spin(NULL, 500);
	assert_listed(bus, why, "");
	g_assert_cmpuint(a.calls, ==, 0);
	answer_clear(&a);

	ask(&b, NULL, "shutdown:sleep", "sdt-logind test: released at once", "block");
	g_clear_pointer(&b.inhibitor, sdt_logind_inhibitor_release);
	spin(NULL, 500);
	assert_listed(bus, "sdt-logind test: released at once", "");
	g_assert_cmpuint(b.calls, ==, 0);
	answer_clear(&b);
}

static void
become_nobody(void)
{
	struct passwd *pw = getpwnam("nobody");

	g_assert_nonnull(pw);
	g_assert_cmpint(setgroups(0, NULL), ==, 0);
	g_assert_cmpint(setgid(pw->pw_gid), ==, 0);
	g_assert_cmpint(setuid(pw->pw_uid), ==, 0);
	g_assert_cmpint(getuid(), ==, pw->pw_uid);
}

/* nobody, outside any session: polkit's defaults refuse a block (inhibit-block-sleep:
 * allow_any no) and give a delay (allow_any yes), the app's fallback */
static void
test_refused_then_delay(void)
{
	const gchar *address = logind_bus();
	g_autoptr(GDBusConnection) bus = NULL;
	g_autofree gchar *remote = NULL;
	g_autofree gchar *line = NULL;
	const gchar *why = "sdt-logind test: nobody";
	Answer a, b;

	if (address == NULL)
		return;
	if (!g_test_subprocess()) {
		g_test_trap_subprocess(NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
		g_test_trap_assert_passed();
		return;
	}
	become_nobody();
	bus = connect_to(address);

	ask(&a, bus, "sleep", why, "block");
	a.release_in_callback = TRUE;
	spin(&a, 30 * 1000);
	g_assert_cmpuint(a.calls, ==, 1);
	g_assert_cmpstr(sdt_logind_answer_to_string(a.answer), ==, "refused");
	g_assert_nonnull(a.error);
	remote = g_dbus_error_get_remote_error(a.error);
	g_test_message("logind to nobody's block: %s (%s)", remote, a.error->message);
	g_assert_true(
		g_strcmp0(remote, "org.freedesktop.DBus.Error.AccessDenied") == 0 ||
		g_strcmp0(remote, "org.freedesktop.DBus.Error.InteractiveAuthorizationRequired") ==
			0);
	g_assert_cmpint(a.fd, ==, -1);
	g_assert_null(a.inhibitor); /* released in its answer */
	assert_listed(bus, why, "");

	ask(&b, bus, "sleep", why, "delay");
	spin(&b, 30 * 1000);
	g_assert_cmpuint(b.calls, ==, 1);
	g_assert_no_error(b.error);
	g_assert_cmpstr(sdt_logind_answer_to_string(b.answer), ==, "held");
	line = expected_line("sleep", "delay");
	assert_listed(bus, why, line);
	g_clear_pointer(&b.inhibitor, sdt_logind_inhibitor_release);
	assert_listed(bus, why, "");
	answer_clear(&a);
	answer_clear(&b);
}

/* ---- without logind, and the stand-in ---------------------------------------------- */

/* no system bus at all (a container): absent, from the connection's own error */
static void
test_no_bus(void)
{
	Answer a;

	if (!g_test_subprocess()) {
		g_test_trap_subprocess(NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
		g_test_trap_assert_passed();
		return;
	}
	g_setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/sdt-test/bus", TRUE);
	ask(&a, NULL, "shutdown:sleep", "sdt-logind test: no bus", "block");
	spin(&a, 30 * 1000);
	g_assert_cmpuint(a.calls, ==, 1);
	g_assert_cmpstr(sdt_logind_answer_to_string(a.answer), ==, "absent");
	g_assert_nonnull(a.error);
	g_assert_cmpint(sdt_logind_inhibitor_get_fd(a.inhibitor), ==, -1);
	answer_clear(&a);
}

typedef struct {
	GTestDBus *bus;
	GDBusConnection *client;
	GDBusConnection *logind; /* the stand-in's connection, or NULL */
	guint registration;
	GDBusMethodInvocation *silent; /* the call the stand-in never answers */
} Fixture;

static const gchar stand_in_xml[] = "<node><interface name='" LOGIND_MANAGER "'>"
				    "<method name='Inhibit'>"
				    "<arg type='s' direction='in'/><arg type='s' direction='in'/>"
				    "<arg type='s' direction='in'/><arg type='s' direction='in'/>"
				    "<arg type='h' direction='out'/>"
				    "</method></interface></node>";

/* the stand-in's Inhibit: why "silent" is never answered, "no fd" gets handle 0 and no
 * descriptor, "bad handle" gets handle 3 and one descriptor */
static void
stand_in_call_cb(GDBusConnection *connection,
		 const gchar *sender,
		 const gchar *object_path,
		 const gchar *interface_name,
		 const gchar *method_name,
		 GVariant *parameters,
		 GDBusMethodInvocation *invocation,
		 gpointer user_data)
{
	Fixture *f = user_data;
	const gchar *why = NULL;
	g_autoptr(GUnixFDList) fds = g_unix_fd_list_new();

	g_variant_get_child(parameters, 2, "&s", &why);
	if (g_strcmp0(why, "silent") == 0) {
		g_clear_object(&f->silent);
		f->silent = g_object_ref(invocation);
	} else if (g_strcmp0(why, "no fd") == 0) {
		g_dbus_method_invocation_return_value(invocation, g_variant_new("(h)", 0));
	} else {
		g_assert_cmpint(g_unix_fd_list_append(fds, STDERR_FILENO, NULL), ==, 0);
		g_dbus_method_invocation_return_value_with_unix_fd_list(invocation,
									g_variant_new("(h)", 3),
									fds);
	}
}

static const GDBusInterfaceVTable stand_in_vtable = {stand_in_call_cb, NULL, NULL, {0}};

static void
fixture_setup(Fixture *f, gconstpointer data)
{
	f->bus = g_test_dbus_new(G_TEST_DBUS_NONE);
	g_test_dbus_up(f->bus);
	f->client = connect_to(g_test_dbus_get_bus_address(f->bus));
}

static void
fixture_stand_in(Fixture *f)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusNodeInfo) node = g_dbus_node_info_new_for_xml(stand_in_xml, &error);
	g_autoptr(GVariant) reply = NULL;

	g_assert_no_error(error);
	f->logind = connect_to(g_test_dbus_get_bus_address(f->bus));
	f->registration = g_dbus_connection_register_object(f->logind,
							    LOGIND_PATH,
							    node->interfaces[0],
							    &stand_in_vtable,
							    f,
							    NULL,
							    &error);
	g_assert_no_error(error);
	reply = g_dbus_connection_call_sync(
		f->logind,
		"org.freedesktop.DBus",
		"/org/freedesktop/DBus",
		"org.freedesktop.DBus",
		"RequestName",
		g_variant_new("(su)", LOGIND_NAME, 4 /* DO_NOT_QUEUE */),
		G_VARIANT_TYPE("(u)"),
		G_DBUS_CALL_FLAGS_NONE,
		10 * 1000,
		NULL,
		&error);
	g_assert_no_error(error);
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	g_clear_object(&f->silent);
	if (f->registration != 0)
		g_dbus_connection_unregister_object(f->logind, f->registration);
	g_clear_object(&f->logind);
	g_clear_object(&f->client);
	g_test_dbus_down(f->bus);
	g_clear_object(&f->bus);
}

/* a bus where nobody owns org.freedesktop.login1 (no systemd) */
static void
test_absent(Fixture *f, gconstpointer data)
{
	Answer a;

	ask(&a, f->client, "shutdown:sleep", "sdt-logind test: absent", "block");
	spin(&a, 30 * 1000);
	g_assert_cmpuint(a.calls, ==, 1);
	g_assert_cmpstr(sdt_logind_answer_to_string(a.answer), ==, "absent");
	g_assert_true(g_error_matches(a.error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
		      g_error_matches(a.error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN));
	answer_clear(&a);
}

/* the STAND-IN: no reply within the call's timeout; replies without a usable fd */
static void
test_stand_in(Fixture *f, gconstpointer data)
{
	SdtLogindRequest request = {"shutdown:sleep", WHO, "silent", "block", 300};
	const gchar *const bad[] = {"no fd", "bad handle"};
	Answer a;

	fixture_stand_in(f);
	memset(&a, 0, sizeof(a));
	a.inhibitor = sdt_logind_inhibitor_new(f->client, &request, answer_cb, &a);
	spin(&a, 30 * 1000);
	g_assert_cmpuint(a.calls, ==, 1);
	g_assert_nonnull(f->silent);
	g_assert_cmpstr(sdt_logind_answer_to_string(a.answer), ==, "failed");
	g_assert_error(a.error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
	answer_clear(&a);

	for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
		ask(&a, f->client, "shutdown:sleep", bad[i], "block");
		spin(&a, 30 * 1000);
		g_assert_cmpuint(a.calls, ==, 1);
		g_assert_cmpstr(sdt_logind_answer_to_string(a.answer), ==, "no-fd");
		g_assert_nonnull(a.error);
		g_assert_cmpint(sdt_logind_inhibitor_get_fd(a.inhibitor), ==, -1);
		answer_clear(&a);
	}
}

/* ---- what an error means ----------------------------------------------------------- */

static void
test_answer_from_error(void)
{
	const struct {
		const gchar *dbus_name; /* NULL: a local error */
		GQuark domain;
		gint code;
		const gchar *answer;
	} cases[] = {
		{"org.freedesktop.DBus.Error.AccessDenied", 0, 0, "refused"},
		{"org.freedesktop.DBus.Error.InteractiveAuthorizationRequired", 0, 0, "refused"},
		{"org.freedesktop.DBus.Error.LimitsExceeded", 0, 0, "refused"},
		{"org.freedesktop.DBus.Error.InvalidArgs", 0, 0, "refused"},
		{"org.freedesktop.login1.NoSuchThing", 0, 0, "refused"},
		{"org.freedesktop.DBus.Error.ServiceUnknown", 0, 0, "absent"},
		{"org.freedesktop.DBus.Error.NameHasNoOwner", 0, 0, "absent"},
		{"org.freedesktop.DBus.Error.NoReply", 0, 0, "failed"},
		{"org.freedesktop.DBus.Error.Timeout", 0, 0, "failed"},
		{"org.freedesktop.DBus.Error.TimedOut", 0, 0, "failed"},
		{NULL, G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "failed"},
		{NULL, G_IO_ERROR, G_IO_ERROR_CANCELLED, "failed"},
		{NULL, G_IO_ERROR, G_IO_ERROR_CLOSED, "failed"},
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error =
			cases[i].dbus_name != NULL
				? g_dbus_error_new_for_dbus_error(cases[i].dbus_name, "test")
				: g_error_new_literal(cases[i].domain, cases[i].code, "test");
		SdtLogindAnswer answer = sdt_logind_answer_from_error(error);

		g_test_message("%s: %s",
			       cases[i].dbus_name != NULL ? cases[i].dbus_name : error->message,
			       sdt_logind_answer_to_string(answer));
		g_assert_cmpstr(sdt_logind_answer_to_string(answer), ==, cases[i].answer);
	}
	g_assert_cmpstr(sdt_logind_answer_to_string(SDT_LOGIND_ANSWER_HELD), ==, "held");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/logind/answer-from-error", test_answer_from_error);
	g_test_add_func("/logind/no-bus", test_no_bus);
	g_test_add("/logind/absent", Fixture, NULL, fixture_setup, test_absent, fixture_teardown);
	g_test_add("/logind/stand-in",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_stand_in,
		   fixture_teardown);
	g_test_add_func("/logind/held", test_held);
	g_test_add_func("/logind/released-before-answer", test_released_before_answer);
	g_test_add_func("/logind/refused-then-delay", test_refused_then_delay);
	return g_test_run();
}
