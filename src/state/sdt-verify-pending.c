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
#include "sdt-json.h"
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

void
sdt_verify_pending_free(SdtVerifyPending *p)
{
	if (p == NULL)
		return;
	g_free(p->id);
	g_free(p->original_id);
	g_free(p->boot_id);
	g_strfreev(p->tries);
	g_free(p->time);
	g_free(p->config_sha256);
	g_clear_pointer(&p->before, json_object_unref);
	g_clear_pointer(&p->steps, json_array_unref);
	g_free(p->filter);
	g_clear_pointer(&p->decided, json_object_unref);
	g_free(p);
}

static gboolean
sdt_verify_member(JsonObject *obj, const gchar *name, GType type, gboolean nullable, JsonNode **out)
{
	JsonNode *node = json_object_get_member(obj, name);
	*out = node;
	if (node == NULL)
		return FALSE;
	if (JSON_NODE_HOLDS_NULL(node))
		return nullable;
	if (type == JSON_TYPE_OBJECT)
		return JSON_NODE_HOLDS_OBJECT(node);
	if (type == JSON_TYPE_ARRAY)
		return JSON_NODE_HOLDS_ARRAY(node);
	return JSON_NODE_HOLDS_VALUE(node) && json_node_get_value_type(node) == type;
}

static gboolean
sdt_verify_id_valid(const gchar *id)
{
	gsize n = strlen(id);
	return n > 0 && n <= 64 && strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789-_.") == n &&
	       strstr(id, "..") == NULL;
}

/* an integer member within [@min, @max] */
static gboolean
sdt_verify_int(JsonObject *obj, const gchar *name, gint64 min, gint64 max, gint64 *out)
{
	JsonNode *n;
	if (!sdt_verify_member(obj, name, G_TYPE_INT64, FALSE, &n) || json_node_get_int(n) < min ||
	    json_node_get_int(n) > max)
		return FALSE;
	*out = json_node_get_int(n);
	return TRUE;
}

/* a string member (NULL for a null one when @nullable), copied into *@out */
static gboolean
sdt_verify_string(JsonObject *obj, const gchar *name, gboolean nullable, gchar **out)
{
	JsonNode *n;
	if (!sdt_verify_member(obj, name, G_TYPE_STRING, nullable, &n))
		return FALSE;
	*out = JSON_NODE_HOLDS_NULL(n) ? NULL : g_strdup(json_node_get_string(n));
	return TRUE;
}

/* an id member SD Tuner could have written */
static gboolean
sdt_verify_id(JsonObject *obj, const gchar *name, gchar **out)
{
	JsonNode *n;
	if (!sdt_verify_member(obj, name, G_TYPE_STRING, FALSE, &n) ||
	    !sdt_verify_id_valid(json_node_get_string(n)))
		return FALSE;
	*out = g_strdup(json_node_get_string(n));
	return TRUE;
}

/* "tries": an array of boot id strings */
static gboolean
sdt_verify_tries(JsonObject *obj, SdtVerifyPending *p)
{
	JsonNode *n;
	JsonArray *a;
	guint len;

	if (!sdt_verify_member(obj, "tries", JSON_TYPE_ARRAY, FALSE, &n))
		return FALSE;
	a = json_node_get_array(n);
	len = json_array_get_length(a);
	p->tries = g_new0(gchar *, len + 1);
	for (guint i = 0; i < len; i++) {
		JsonNode *e = json_array_get_element(a, i);
		if (!JSON_NODE_HOLDS_VALUE(e) || json_node_get_value_type(e) != G_TYPE_STRING)
			return FALSE;
		p->tries[i] = g_strdup(json_node_get_string(e));
	}
	return TRUE;
}

/* version, id, original_id, step, trial: the change; the member at fault in *@bad */
static gboolean
sdt_verify_parse_change(JsonObject *obj, SdtVerifyPending *p, const gchar **bad)
{
	gint64 v = 0;
	JsonNode *n;

	if (!sdt_verify_int(obj, "version", 1, 1, &v))
		return (*bad = "version", FALSE);
	if (!sdt_verify_id(obj, "id", &p->id))
		return (*bad = "id", FALSE);
	if (!sdt_verify_id(obj, "original_id", &p->original_id))
		return (*bad = "original_id", FALSE);
	if (!sdt_verify_int(obj, "step", 0, SDT_VERIFY_MAX_STEPS, &v))
		return (*bad = "step", FALSE);
	p->step = (guint) v;
	if (!sdt_verify_member(obj, "trial", G_TYPE_BOOLEAN, FALSE, &n))
		return (*bad = "trial", FALSE);
	p->trial = json_node_get_boolean(n);
	return TRUE;
}

/* boot_id, attempts, tries, time, config_sha256: the verification's own state */
static gboolean
sdt_verify_parse_progress(JsonObject *obj, SdtVerifyPending *p, const gchar **bad)
{
	gint64 v = 0;

	if (!sdt_verify_string(obj, "boot_id", TRUE, &p->boot_id))
		return (*bad = "boot_id", FALSE);
	if (!sdt_verify_int(obj, "attempts", 0, 1000, &v))
		return (*bad = "attempts", FALSE);
	p->attempts = (guint) v;
	if (!sdt_verify_tries(obj, p))
		return (*bad = "tries", FALSE);
	if (!sdt_verify_string(obj, "time", FALSE, &p->time))
		return (*bad = "time", FALSE);
	if (!sdt_verify_string(obj, "config_sha256", TRUE, &p->config_sha256))
		return (*bad = "config_sha256", FALSE);
	return TRUE;
}

/* before, steps, filter, type_code, replaces: the evidence and the block */
static gboolean
sdt_verify_parse_block(JsonObject *obj, SdtVerifyPending *p, const gchar **bad)
{
	gint64 v = 0;
	JsonNode *n;

	if (!sdt_verify_member(obj, "before", JSON_TYPE_OBJECT, TRUE, &n))
		return (*bad = "before", FALSE);
	if (!JSON_NODE_HOLDS_NULL(n))
		p->before = json_object_ref(json_node_get_object(n));
	if (!sdt_verify_member(obj, "steps", JSON_TYPE_ARRAY, FALSE, &n))
		return (*bad = "steps", FALSE);
	p->steps = json_array_ref(json_node_get_array(n));
	if (!sdt_verify_string(obj, "filter", FALSE, &p->filter) ||
	    !g_str_has_prefix(p->filter, "[") || strlen(p->filter) > 64)
		return (*bad = "filter", FALSE);
	if (!sdt_verify_int(obj, "type_code", -1, 0xff, &v))
		return (*bad = "type_code", FALSE);
	p->type_code = (gint) v;
	if (!sdt_verify_int(obj, "replaces", 0, 0xff, &v))
		return (*bad = "replaces", FALSE);
	p->replaces = (guint) v;
	/* optional: a decision being carried out, with its result to record */
	n = json_object_get_member(obj, "decided");
	if (n != NULL && !JSON_NODE_HOLDS_NULL(n)) {
		JsonObject *d = JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
		JsonNode *res = d != NULL ? json_object_get_member(d, "result") : NULL;
		JsonNode *dec = d != NULL ? json_object_get_member(d, "decision") : NULL;
		if (res == NULL || !JSON_NODE_HOLDS_OBJECT(res) || dec == NULL ||
		    !JSON_NODE_HOLDS_VALUE(dec) || json_node_get_value_type(dec) != G_TYPE_STRING)
			return (*bad = "decided", FALSE);
		p->decided = json_object_ref(d);
	}
	return TRUE;
}

SdtVerifyPending *
sdt_verify_pending_parse(const gchar *data, gsize len, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(SdtVerifyPending) p = g_new0(SdtVerifyPending, 1);
	g_autoptr(GError) local = NULL;
	SdtVerifyChange change;
	JsonObject *obj;
	const gchar *bad = "(root)";

	if (!json_parser_load_from_data(parser, data, (gssize) len, &local)) {
		g_autofree gchar *where = sdt_json_parse_problem(local);
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("the pending change is not valid JSON: %s"),
			    where);
		return NULL;
	}
	if (JSON_NODE_HOLDS_OBJECT(json_parser_get_root(parser))) {
		obj = json_node_get_object(json_parser_get_root(parser));
		if (sdt_verify_parse_change(obj, p, &bad) &&
		    sdt_verify_parse_progress(obj, p, &bad) &&
		    sdt_verify_parse_block(obj, p, &bad)) {
			if (sdt_verify_change_parse(p->id, &change))
				return g_steal_pointer(&p);
			bad = "id";
		}
	}
	/* Translators: %s is a JSON member name */
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_DATA,
		    _("the pending change is damaged: member “%s” is missing or of the wrong "
		      "type"),
		    bad);
	return NULL;
}

JsonObject *
sdt_verify_pending_to_json(const SdtVerifyPending *p)
{
	JsonObject *obj = json_object_new();
	JsonArray *tries = json_array_new();

	json_object_set_int_member(obj, "version", 1);
	json_object_set_string_member(obj, "id", p->id);
	json_object_set_string_member(obj, "original_id", p->original_id);
	json_object_set_int_member(obj, "step", p->step);
	json_object_set_boolean_member(obj, "trial", p->trial);
	if (p->boot_id != NULL)
		json_object_set_string_member(obj, "boot_id", p->boot_id);
	else
		json_object_set_null_member(obj, "boot_id");
	json_object_set_int_member(obj, "attempts", p->attempts);
	for (guint i = 0; p->tries != NULL && p->tries[i] != NULL; i++)
		json_array_add_string_element(tries, p->tries[i]);
	json_object_set_array_member(obj, "tries", tries);
	json_object_set_string_member(obj, "time", p->time != NULL ? p->time : "");
	if (p->config_sha256 != NULL)
		json_object_set_string_member(obj, "config_sha256", p->config_sha256);
	else
		json_object_set_null_member(obj, "config_sha256");
	if (p->before != NULL)
		json_object_set_object_member(obj, "before", json_object_ref(p->before));
	else
		json_object_set_null_member(obj, "before");
	json_object_set_array_member(obj,
				     "steps",
				     p->steps != NULL ? json_array_ref(p->steps)
						      : json_array_new());
	json_object_set_string_member(obj, "filter", p->filter != NULL ? p->filter : "");
	json_object_set_int_member(obj, "type_code", p->type_code);
	json_object_set_int_member(obj, "replaces", p->replaces);
	if (p->decided != NULL)
		json_object_set_object_member(obj, "decided", json_object_ref(p->decided));
	return obj;
}

static gchar *
sdt_verify_pending_path(SdtContext *ctx)
{
	g_autofree gchar *dir = sdt_context_get_state_dir(ctx);
	return g_build_filename(dir, SDT_VERIFY_PENDING, NULL);
}

gboolean
sdt_verify_pending_load(SdtContext *ctx, SdtVerifyPending **pending, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_autofree gchar *path = sdt_verify_pending_path(ctx);
	g_autofree gchar *dir = sdt_context_get_state_dir(ctx);
	g_autofree gchar *data = NULL;
	g_autoptr(GError) local = NULL;
	gsize len = 0;

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
sdt_verify_pending_save(SdtContext *ctx, const SdtVerifyPending *pending, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_autofree gchar *dir = sdt_context_get_state_dir(ctx);
	g_autofree gchar *path = sdt_verify_pending_path(ctx);
	g_autoptr(JsonNode) node = json_node_new(JSON_NODE_OBJECT);
	g_autofree gchar *text = NULL;
	gboolean ok;
	gint lock;

	if (!sdt_state_lock_make_dir(dir, error))
		return FALSE;
	/* also removes what a run killed in the middle of this left (pending.json.XXXXXX) */
	lock = sdt_state_lock(dir, SDT_VERIFY_PENDING, error);
	if (lock < 0)
		return FALSE;
	json_node_take_object(node, sdt_verify_pending_to_json(pending));
	text = sdt_json_to_string(node, TRUE);
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
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_autofree gchar *dir = sdt_context_get_state_dir(ctx);
	g_autofree gchar *path = sdt_verify_pending_path(ctx);
	gint lock;

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
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_autofree gchar *dir = sdt_context_get_state_dir(ctx);
	g_autofree gchar *path = sdt_verify_pending_path(ctx);
	gsize len = 0;
	const gchar *data;
	gboolean ok;
	gint lock;

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
