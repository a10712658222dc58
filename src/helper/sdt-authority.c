/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <polkit/polkit.h>

#include "sdt-authority.h"
#include "sdt-error.h"

struct _SdtAuthority {
	GObject parent_instance;
};

G_DEFINE_TYPE(SdtAuthority, sdt_authority, G_TYPE_OBJECT)

typedef struct {
	gchar *bus_name;
	gchar *action_id;
	gboolean interactive;
	PolkitSubject *subject;
} SdtAuthorityCheck;

static void
sdt_authority_check_free(SdtAuthorityCheck *check)
{
	g_free(check->bus_name);
	g_free(check->action_id);
	g_clear_object(&check->subject);
	g_free(check);
}

static void
sdt_authority_class_init(SdtAuthorityClass *klass)
{
}

static void
sdt_authority_init(SdtAuthority *self)
{
}

SdtAuthority *
sdt_authority_new(void)
{
	return g_object_new(SDT_TYPE_AUTHORITY, NULL);
}

static void
sdt_authority_return_policy(GTask *task, SdtAuthorityCheck *check)
{
	g_task_return_new_error(task,
				SDT_ERROR,
				SDT_ERROR_NOT_AUTHORIZED,
				/* Translators: %s is a polkit action id */
				_("Not authorized: the system policy does not allow %s"),
				check->action_id);
}

/* polkitd answers with a challenge when no agent is registered for the caller */
static void
sdt_authority_return_no_agent(GTask *task, SdtAuthorityCheck *check)
{
	g_task_return_new_error(
		task,
		SDT_ERROR,
		SDT_ERROR_NOT_AUTHORIZED,
		/* Translators: %s is a polkit action id; do not translate sdtunerctl */
		_("Not authorized: %s needs an administrator's password, and no password "
		  "dialog can appear here: no polkit authentication agent is running for "
		  "this session. Start SD Tuner from the desktop's own session, or run "
		  "sdtunerctl in a terminal, which asks for the password itself"),
		check->action_id);
}

/* after a refusal that followed the agent: would the policy ask for a password? */
static void
sdt_authority_rechecked_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(GTask) task = G_TASK(user_data);
	SdtAuthorityCheck *check = g_task_get_task_data(task);
	g_autoptr(PolkitAuthorizationResult) result =
		polkit_authority_check_authorization_finish(POLKIT_AUTHORITY(source), res, NULL);

	if (result != NULL && polkit_authorization_result_get_is_challenge(result)) {
		/* an agent that ends without the authorization and without "dismissed":
		 * a failed password (a text agent), but also lxpolkit's Cancel, after
		 * which polkitd says the same; so the message names both */
		g_debug("%s: the agent finished without authenticating", check->action_id);
		g_task_return_new_error(
			task,
			SDT_ERROR,
			SDT_ERROR_NOT_AUTHORIZED,
			_("Not authorized: the password dialog ended without a correct "
			  "password (it was cancelled, or the password was wrong)"));
		return;
	}
	sdt_authority_return_policy(task, check);
}

static void
sdt_authority_checked_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(GTask) task = G_TASK(user_data);
	SdtAuthorityCheck *check = g_task_get_task_data(task);
	g_autoptr(GError) error = NULL;
	g_autoptr(PolkitAuthorizationResult) result =
		polkit_authority_check_authorization_finish(POLKIT_AUTHORITY(source), res, &error);

	if (result == NULL) {
		g_dbus_error_strip_remote_error(error);
		g_debug("polkit check of %s for %s failed: %s",
			check->action_id,
			check->bus_name,
			error->message);
		g_task_return_new_error(task,
					SDT_ERROR,
					SDT_ERROR_NOT_AUTHORIZED,
					/* Translators: %s is a polkit error message */
					_("Could not check authorization with polkit, so the "
					  "request is refused: %s"),
					error->message);
		return;
	}
	if (polkit_authorization_result_get_is_authorized(result)) {
		g_debug("%s authorized for %s", check->action_id, check->bus_name);
		g_task_return_boolean(task, TRUE);
		return;
	}
	g_debug("%s refused for %s (challenge %d, dismissed %d)",
		check->action_id,
		check->bus_name,
		polkit_authorization_result_get_is_challenge(result),
		polkit_authorization_result_get_dismissed(result));
	if (polkit_authorization_result_get_dismissed(result)) {
		/* the agent's Cancel, also after a wrong password (polkit.dismissed) */
		g_task_return_new_error(task,
					SDT_ERROR,
					SDT_ERROR_NOT_AUTHORIZED,
					_("Not authorized: the password dialog was cancelled"));
		return;
	}
	if (polkit_authorization_result_get_is_challenge(result) && !check->interactive) {
		g_task_return_new_error(
			task,
			SDT_ERROR,
			SDT_ERROR_NOT_AUTHORIZED,
			/* Translators: %s is a polkit action id; do not translate
			 * auth.no_user_interaction */
			_("Not authorized: %s needs an administrator's password and the "
			  "caller asked not to be prompted (auth.no_user_interaction)"),
			check->action_id);
		return;
	}
	if (polkit_authorization_result_get_is_challenge(result)) {
		sdt_authority_return_no_agent(task, check);
		return;
	}
	if (check->interactive) {
		/* refused after the agent was asked, not cancelled: a wrong password, unless
		 * the policy refuses outright (then it is no challenge without the agent) */
		polkit_authority_check_authorization(POLKIT_AUTHORITY(source),
						     check->subject,
						     check->action_id,
						     NULL,
						     POLKIT_CHECK_AUTHORIZATION_FLAGS_NONE,
						     g_task_get_cancellable(task),
						     sdt_authority_rechecked_cb,
						     g_object_ref(task));
		return;
	}
	sdt_authority_return_policy(task, check);
}

static void
sdt_authority_got_authority_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(GTask) task = G_TASK(user_data);
	SdtAuthorityCheck *check = g_task_get_task_data(task);
	g_autoptr(GError) error = NULL;
	g_autoptr(PolkitAuthority) authority = polkit_authority_get_finish(res, &error);

	if (authority == NULL) {
		g_dbus_error_strip_remote_error(error);
		g_task_return_new_error(task,
					SDT_ERROR,
					SDT_ERROR_NOT_AUTHORIZED,
					/* Translators: %s is a polkit error message */
					_("Could not reach polkit, so the request is refused: %s"),
					error->message);
		return;
	}
	check->subject = polkit_system_bus_name_new(check->bus_name);
	polkit_authority_check_authorization(
		authority,
		check->subject,
		check->action_id,
		NULL,
		check->interactive ? POLKIT_CHECK_AUTHORIZATION_FLAGS_ALLOW_USER_INTERACTION
				   : POLKIT_CHECK_AUTHORIZATION_FLAGS_NONE,
		g_task_get_cancellable(task),
		sdt_authority_checked_cb,
		g_object_ref(task));
}

void
sdt_authority_check_async(SdtAuthority *self,
			  const gchar *bus_name,
			  const gchar *action_id,
			  gboolean interactive,
			  GCancellable *cancellable,
			  GAsyncReadyCallback callback,
			  gpointer user_data)
{
	g_autoptr(GTask) task = NULL;
	SdtAuthorityCheck *check;

	g_return_if_fail(SDT_IS_AUTHORITY(self));
	g_return_if_fail(bus_name != NULL && action_id != NULL);

	task = g_task_new(self, cancellable, callback, user_data);
	check = g_new0(SdtAuthorityCheck, 1);
	check->bus_name = g_strdup(bus_name);
	check->action_id = g_strdup(action_id);
	check->interactive = interactive;
	g_task_set_task_data(task, check, (GDestroyNotify) sdt_authority_check_free);
	g_task_set_source_tag(task, sdt_authority_check_async);
	/* polkit keeps one authority per process and follows polkitd restarts */
	polkit_authority_get_async(cancellable,
				   sdt_authority_got_authority_cb,
				   g_steal_pointer(&task));
}

gboolean
sdt_authority_check_finish(SdtAuthority *self, GAsyncResult *res, GError **error)
{
	g_return_val_if_fail(g_task_is_valid(res, self), FALSE);
	return g_task_propagate_boolean(G_TASK(res), error);
}
