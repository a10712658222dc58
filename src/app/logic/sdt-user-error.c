/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "sdt-client.h"
#include "sdt-error.h"
#include "sdt-l10n.h"
#include "sdt-user-error.h"

gboolean
sdt_user_error_is_service_gone(const GError *error)
{
	if (error == NULL)
		return FALSE;
	if (error->domain == G_DBUS_ERROR) {
		switch (error->code) {
		case G_DBUS_ERROR_SERVICE_UNKNOWN:
		case G_DBUS_ERROR_NAME_HAS_NO_OWNER:
		case G_DBUS_ERROR_NO_REPLY:
		case G_DBUS_ERROR_DISCONNECTED:
		case G_DBUS_ERROR_SPAWN_EXEC_FAILED:
		case G_DBUS_ERROR_SPAWN_FORK_FAILED:
		case G_DBUS_ERROR_SPAWN_CHILD_EXITED:
		case G_DBUS_ERROR_SPAWN_CHILD_SIGNALED:
		case G_DBUS_ERROR_SPAWN_FAILED:
		case G_DBUS_ERROR_SPAWN_SERVICE_INVALID:
		case G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND:
		case G_DBUS_ERROR_SPAWN_PERMISSIONS_INVALID:
		case G_DBUS_ERROR_SPAWN_FILE_INVALID:
		case G_DBUS_ERROR_UNKNOWN_METHOD:
		case G_DBUS_ERROR_UNKNOWN_OBJECT:
		case G_DBUS_ERROR_UNKNOWN_INTERFACE:
			return TRUE;
		default:
			return FALSE;
		}
	}
	if (error->domain == G_IO_ERROR) {
		return error->code == G_IO_ERROR_CLOSED || error->code == G_IO_ERROR_NOT_FOUND ||
		       error->code == G_IO_ERROR_CONNECTION_REFUSED ||
		       error->code == G_IO_ERROR_BROKEN_PIPE;
	}
	return FALSE;
}

static const gchar *
sdt_user_error_what_failed(SdtUserAction action)
{
	switch (action) {
	case SDT_USER_ACTION_CONNECT:
		return _("SD Tuner could not reach its system service.");
	case SDT_USER_ACTION_INFO:
		return _("SD Tuner could not read the board and card details.");
	case SDT_USER_ACTION_BENCHMARK:
		return _("The benchmark did not finish.");
	case SDT_USER_ACTION_APPLY:
		return _("The setting was not applied.");
	case SDT_USER_ACTION_REVERT:
		return _("The change was not reverted.");
	case SDT_USER_ACTION_REBOOT:
		return _("The computer was not restarted.");
	case SDT_USER_ACTION_CHECK:
		return _("The card check did not finish.");
	default:
		return _("Something went wrong.");
	}
}

static const gchar *
sdt_user_error_what_to_do(SdtUserAction action, const GError *error)
{
	/* the bus itself is not there: nothing SD Tuner can do about it */
	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ||
	    g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED) ||
	    g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CLOSED) ||
	    g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_DISCONNECTED)) {
		return _("The system message bus is not running. Restart the computer, "
			 "then open SD Tuner again.");
	}
	if (g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY)) {
		return _("The SD Tuner system service stopped unexpectedly. Press Retry; if it "
			 "happens again, reinstall SD Tuner.");
	}
	if (sdt_user_error_is_service_gone(error)) {
		return _("The SD Tuner system service (sd-tuner-helper) is not installed or "
			 "could not start. Reinstall SD Tuner, then press Retry.");
	}
	if (error->domain == SDT_ERROR) {
		switch (error->code) {
		case SDT_ERROR_NOT_AUTHORIZED:
			/* the helper's detail says why: cancelled, wrong password, no
			 * password dialog possible here (and what to do), or the policy */
			return _("Permission was not given.");
		case SDT_ERROR_CANCELLED:
			if (action == SDT_USER_ACTION_CHECK)
				return _("It was stopped, and the space it had reserved was "
					 "released. Press Quick check to start again.");
			return action == SDT_USER_ACTION_BENCHMARK
				       ? _("It was cancelled. Press Benchmark to start again.")
				       : _("The password prompt was dismissed. Try again when you "
					   "are "
					   "ready.");
		case SDT_ERROR_BUSY:
			return _("Another benchmark or change is in progress. Wait for it to "
				 "finish, then try again.");
		case SDT_ERROR_CONFIG_CHANGED:
			return _("config.txt was changed by another program at the same time, "
				 "so nothing was written. Press Retry to read it again, then "
				 "try again.");
		case SDT_ERROR_NOT_FOUND:
			if (action == SDT_USER_ACTION_REVERT)
				return _("SD Tuner has no change in place to revert.");
			if (action == SDT_USER_ACTION_APPLY)
				return _("This setting is no longer recommended. Press Retry to "
					 "read the recommendations again.");
			return _("No SD card was found. Insert the card the system runs from, "
				 "then press Retry.");
		case SDT_ERROR_NO_SPACE:
			return _("The SD card is full. Free some space (the benchmark needs "
				 "room for its test file), then try again.");
		case SDT_ERROR_READ_ONLY:
			return _("The file system is mounted read-only. Remount it read-write, "
				 "then try again.");
		case SDT_ERROR_IO:
			return _("Reading or writing the SD card failed. The card may be "
				 "failing or was removed: check it, then press Retry.");
		case SDT_ERROR_NOT_SUPPORTED:
			return _("This board or file system cannot do this.");
		case SDT_ERROR_INVALID_DATA:
			return _("SD Tuner will not edit this file. Check config.txt by hand.");
		default:
			break;
		}
	}
	return _("Press Retry. If it keeps failing, report the message above.");
}

/* the bus daemon has no such service, or cannot start it: its own message is English */
static gboolean
sdt_user_error_is_not_startable(const GError *error)
{
	return error->domain == G_DBUS_ERROR && (error->code == G_DBUS_ERROR_SERVICE_UNKNOWN ||
						 error->code == G_DBUS_ERROR_NAME_HAS_NO_OWNER ||
						 (error->code >= G_DBUS_ERROR_SPAWN_EXEC_FAILED &&
						  error->code <= G_DBUS_ERROR_SPAWN_FILE_INVALID));
}

gchar *
sdt_user_error_describe(SdtUserAction action, const GError *error)
{
	g_autoptr(GError) copy = NULL;

	g_return_val_if_fail(error != NULL, NULL);

	if (sdt_user_error_is_not_startable(error)) {
		/* the bus daemon's own words ("The name … was not provided by any .service
		 * files") are English that no catalogue of ours has */
		g_autofree gchar *detail = g_strdup_printf(
			/* Translators: %s is the helper's D-Bus name, org.example.SdTuner1 */
			_("the system bus has no running or startable service %s"),
			SDT_BUS_NAME);
		return g_strdup_printf(_("%s %s\n(%s)"),
				       sdt_user_error_what_failed(action),
				       sdt_user_error_what_to_do(action, error),
				       detail);
	}
	/* the helper's own message says what failed, on which file or device */
	copy = g_error_copy(error);
	g_dbus_error_strip_remote_error(copy);
	/* Translators: what failed, what to do, then the detailed message */
	return g_strdup_printf(_("%s %s\n(%s)"),
			       sdt_user_error_what_failed(action),
			       sdt_user_error_what_to_do(action, error),
			       sdt_l10n_tr(copy->message));
}
