/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-state-lock.h"
#include "sdt-verify.h"
#include "sdt-verify-pending.h"

/* the pending state: <state>/pending.json carries a change across reboots */

#define SDT_VERIFY_PENDING     "pending.json"
#define SDT_VERIFY_PENDING_MAX (256 * 1024)

gchar *
sdt_verify_pending_setting_line(const gchar *id)
{
	SdtVerifyChange change;

	if (!sdt_verify_change_parse(id, &change))
		return NULL;
	if (change.kind == SDT_VERIFY_CHANGE_OVERCLOCK)
		return g_strdup_printf("dtparam=sd_overclock=%u", change.overclock_mhz);
	return g_strdup_printf("dtparam=sd_cqe=%u", change.cqe_value);
}

SdtVerifyPendingState *
sdt_verify_pending_parse(const gchar *data, gsize len, GError **error)
{
	g_autoptr(SdtVerifyPendingState) p = NULL;
	SdtVerifyChange change;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	p = sdt_verify_pending_state_parse(data, len, error);
	if (p == NULL)
		return NULL;
	/* the codec checks the id's form; only the decision knows the ids SD Tuner writes */
	if (!sdt_verify_change_parse(p->id, &change)) {
		sdt_verify_pending_state_damaged("id", error);
		return NULL;
	}
	return g_steal_pointer(&p);
}

static gchar *
sdt_verify_pending_path(SdtContext *ctx)
{
	g_autofree gchar *dir = sdt_context_get_state_dir(ctx);
	return g_build_filename(dir, SDT_VERIFY_PENDING, NULL);
}

gboolean
sdt_verify_pending_load(SdtContext *ctx, SdtVerifyPendingState **pending, GError **error)
{
	g_autofree gchar *path = NULL;
	g_autofree gchar *dir = NULL;
	g_autofree gchar *data = NULL;
	g_autoptr(GError) local = NULL;
	gsize len = 0;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	path = sdt_verify_pending_path(ctx);
	dir = sdt_context_get_state_dir(ctx);
	*pending = NULL;
	/* a record another user could have written is never acted on (issue 33) */
	if (!sdt_state_lock_check_dir(dir, error))
		return FALSE;
	if (!sdt_file_read_bounded(path, SDT_VERIFY_PENDING_MAX, &data, &len, &local)) {
		if (g_error_matches(local, SDT_ERROR, SDT_ERROR_NOT_FOUND))
			return TRUE;
		/* sdt_file_read_bounded()'s errors name the file already */
		g_propagate_error(error, g_steal_pointer(&local));
		return FALSE;
	}
	*pending = sdt_verify_pending_parse(data, len, error);
	if (*pending == NULL) {
		/* Translators: the file, then what is wrong in it ("in the file
		 * /var/lib/sd-tuner/pending.json: the pending change is not valid JSON: …") */
		g_prefix_error(error, _("in the file %s: "), path);
		return FALSE;
	}
	return TRUE;
}

gboolean
sdt_verify_pending_save(SdtContext *ctx, const SdtVerifyPendingState *pending, GError **error)
{
	g_autofree gchar *dir = NULL;
	g_autofree gchar *path = NULL;
	g_autofree gchar *text = NULL;
	gboolean ok;
	gint lock;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	dir = sdt_context_get_state_dir(ctx);
	path = sdt_verify_pending_path(ctx);
	if (!sdt_state_lock_make_dir(dir, error))
		return FALSE;
	/* also removes what a run killed in the middle of this left (pending.json.XXXXXX) */
	lock = sdt_state_lock(dir, SDT_VERIFY_PENDING, error);
	if (lock < 0)
		return FALSE;
	text = sdt_verify_pending_state_to_string(pending);
	ok = g_file_set_contents_full(path,
				      text,
				      -1,
				      G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
				      0600,
				      error);
	close(lock);
	sdt_file_kill_point();
	return ok;
}

gboolean
sdt_verify_pending_remove(SdtContext *ctx, GError **error)
{
	g_autofree gchar *dir = NULL;
	g_autofree gchar *path = NULL;
	gint lock;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	dir = sdt_context_get_state_dir(ctx);
	path = sdt_verify_pending_path(ctx);
	if (!g_file_test(dir, G_FILE_TEST_IS_DIR))
		return TRUE;
	lock = sdt_state_lock(dir, SDT_VERIFY_PENDING, error);
	if (lock < 0)
		return FALSE;
	if (g_unlink(path) != 0 && errno != ENOENT) {
		gint errsv = errno;
		close(lock);
		return sdt_error_set_from_errno(error, errsv, _("cannot remove %s"), path);
	}
	close(lock);
	sdt_file_kill_point();
	return TRUE;
}

GBytes *
sdt_verify_pending_read_raw(SdtContext *ctx)
{
	g_autofree gchar *path = sdt_verify_pending_path(ctx);
	gchar *data = NULL;
	gsize len = 0;

	if (!sdt_file_read_bounded(path, SDT_VERIFY_PENDING_MAX, &data, &len, NULL))
		return NULL;
	return g_bytes_new_take(data, len);
}

gboolean
sdt_verify_pending_restore_raw(SdtContext *ctx, GBytes *raw, GError **error)
{
	g_autofree gchar *dir = NULL;
	g_autofree gchar *path = NULL;
	gsize len = 0;
	const gchar *data;
	gboolean ok;
	gint lock;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	dir = sdt_context_get_state_dir(ctx);
	path = sdt_verify_pending_path(ctx);
	if (raw == NULL)
		return sdt_verify_pending_remove(ctx, error);
	lock = sdt_state_lock(dir, SDT_VERIFY_PENDING, error);
	if (lock < 0)
		return FALSE;
	data = g_bytes_get_data(raw, &len);
	ok = g_file_set_contents_full(path,
				      data,
				      (gssize) len,
				      G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
				      0600,
				      error);
	close(lock);
	sdt_file_kill_point();
	return ok;
}
