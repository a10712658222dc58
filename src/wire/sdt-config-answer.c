/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-config-answer.h"
#include "sdt-config-answer-private.h"
#include "sdt-json-strict-private.h"
#include "sdt-json.h"
#include "sdt-json-private.h"

#define SDT_CONFIG_ANSWER_KEY_PATH                 "path"
#define SDT_CONFIG_ANSWER_KEY_TRIAL                "trial"
#define SDT_CONFIG_ANSWER_KEY_REBOOT_COMMAND       "reboot_command"
#define SDT_CONFIG_ANSWER_KEY_ID                   "id"
#define SDT_CONFIG_ANSWER_KEY_DIFF                 "diff"
#define SDT_CONFIG_ANSWER_KEY_BACKUP               "backup"
#define SDT_CONFIG_ANSWER_KEY_REBOOT_REQUIRED      "reboot_required"
#define SDT_CONFIG_ANSWER_KEY_CHANGED              "changed"
#define SDT_CONFIG_ANSWER_KEY_DISABLED             "disabled"
#define SDT_CONFIG_ANSWER_KEY_WARNINGS             "warnings"
#define SDT_CONFIG_ANSWER_KEY_TRYBOOT_BACKUP       "tryboot_backup"
#define SDT_CONFIG_ANSWER_KEY_TRYBOOT_RESTORED     "tryboot_restored"
#define SDT_CONFIG_ANSWER_KEY_BACKUP_BEFORE_CHANGE "backup_before_change"
#define SDT_CONFIG_ANSWER_KEY_TRIAL_CANCELLED      "trial_cancelled"
#define SDT_CONFIG_ANSWER_KEY_RESTORED             "restored"
#define SDT_CONFIG_ANSWER_KEY_KEPT                 "kept"

static GPtrArray *
sdt_config_answer_strings_new(void)
{
	return g_ptr_array_new_with_free_func(g_free);
}

static void
sdt_config_answer_strings_free(GPtrArray *strings)
{
	if (strings != NULL)
		g_ptr_array_unref(strings);
}

SdtConfigAnswerApply *
sdt_config_answer_apply_new(void)
{
	SdtConfigAnswerApply *a = g_new0(SdtConfigAnswerApply, 1);

	a->reboot_required = TRUE;
	a->changed = TRUE;
	return a;
}

void
sdt_config_answer_apply_free(SdtConfigAnswerApply *answer)
{
	if (answer == NULL)
		return;
	g_free(answer->path);
	g_free(answer->reboot_command);
	g_free(answer->id);
	g_free(answer->diff);
	g_free(answer->backup);
	sdt_config_answer_strings_free(answer->disabled);
	sdt_config_answer_strings_free(answer->warnings);
	g_free(answer);
}

SdtConfigAnswerRevert *
sdt_config_answer_revert_new(void)
{
	SdtConfigAnswerRevert *r = g_new0(SdtConfigAnswerRevert, 1);

	r->reboot_required = TRUE;
	r->restored = sdt_config_answer_strings_new();
	r->kept = sdt_config_answer_strings_new();
	r->warnings = sdt_config_answer_strings_new();
	return r;
}

void
sdt_config_answer_revert_free(SdtConfigAnswerRevert *answer)
{
	if (answer == NULL)
		return;
	g_free(answer->tryboot_backup);
	g_free(answer->tryboot_restored);
	g_free(answer->id);
	g_free(answer->path);
	g_free(answer->diff);
	g_free(answer->backup);
	g_free(answer->backup_before_change);
	sdt_config_answer_strings_free(answer->restored);
	sdt_config_answer_strings_free(answer->kept);
	sdt_config_answer_strings_free(answer->warnings);
	g_free(answer);
}

/* the reading direction: absent or null is unknown, a wrong type an error */

/* an array of strings into *@out, created when the member is there (absent: NULL) */
static gboolean
sdt_config_answer_read_list(JsonObject *obj, const gchar *member, GPtrArray **out, GError **error)
{
	JsonArray *array = NULL;

	if (!sdt_json_strict_array(obj, NULL, member, &array, error))
		return FALSE;
	if (array == NULL)
		return TRUE;
	*out = sdt_config_answer_strings_new();
	return sdt_json_strict_strings(obj, NULL, member, *out, error);
}

SdtConfigAnswerApply *
sdt_config_answer_apply_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtConfigAnswerApply) a = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	a = sdt_config_answer_apply_new();
	if (!sdt_json_strict_string(obj, NULL, SDT_CONFIG_ANSWER_KEY_PATH, &a->path, error) ||
	    !sdt_json_strict_bool(obj,
				  NULL,
				  SDT_CONFIG_ANSWER_KEY_TRIAL,
				  FALSE,
				  &a->trial,
				  error) ||
	    !sdt_json_strict_string(obj,
				    NULL,
				    SDT_CONFIG_ANSWER_KEY_REBOOT_COMMAND,
				    &a->reboot_command,
				    error) ||
	    !sdt_json_strict_string(obj, NULL, SDT_CONFIG_ANSWER_KEY_ID, &a->id, error) ||
	    !sdt_json_strict_string(obj, NULL, SDT_CONFIG_ANSWER_KEY_DIFF, &a->diff, error) ||
	    !sdt_json_strict_string(obj, NULL, SDT_CONFIG_ANSWER_KEY_BACKUP, &a->backup, error) ||
	    !sdt_json_strict_bool(obj,
				  NULL,
				  SDT_CONFIG_ANSWER_KEY_REBOOT_REQUIRED,
				  TRUE,
				  &a->reboot_required,
				  error) ||
	    !sdt_json_strict_bool(obj,
				  NULL,
				  SDT_CONFIG_ANSWER_KEY_CHANGED,
				  TRUE,
				  &a->changed,
				  error) ||
	    !sdt_config_answer_read_list(obj,
					 SDT_CONFIG_ANSWER_KEY_DISABLED,
					 &a->disabled,
					 error) ||
	    !sdt_config_answer_read_list(obj, SDT_CONFIG_ANSWER_KEY_WARNINGS, &a->warnings, error))
		return NULL;
	return g_steal_pointer(&a);
}

static gboolean
sdt_config_answer_revert_read_files(JsonObject *obj, SdtConfigAnswerRevert *r, GError **error)
{
	return sdt_json_strict_string(obj,
				      NULL,
				      SDT_CONFIG_ANSWER_KEY_TRYBOOT_BACKUP,
				      &r->tryboot_backup,
				      error) &&
	       sdt_json_strict_string(obj,
				      NULL,
				      SDT_CONFIG_ANSWER_KEY_TRYBOOT_RESTORED,
				      &r->tryboot_restored,
				      error) &&
	       sdt_json_strict_string(obj, NULL, SDT_CONFIG_ANSWER_KEY_ID, &r->id, error) &&
	       sdt_json_strict_string(obj, NULL, SDT_CONFIG_ANSWER_KEY_PATH, &r->path, error) &&
	       sdt_json_strict_string(obj, NULL, SDT_CONFIG_ANSWER_KEY_DIFF, &r->diff, error) &&
	       sdt_json_strict_string(obj, NULL, SDT_CONFIG_ANSWER_KEY_BACKUP, &r->backup, error) &&
	       sdt_json_strict_string(obj,
				      NULL,
				      SDT_CONFIG_ANSWER_KEY_BACKUP_BEFORE_CHANGE,
				      &r->backup_before_change,
				      error);
}

SdtConfigAnswerRevert *
sdt_config_answer_revert_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtConfigAnswerRevert) r = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	r = sdt_config_answer_revert_new();
	if (!sdt_config_answer_revert_read_files(obj, r, error) ||
	    !sdt_json_strict_bool(obj,
				  NULL,
				  SDT_CONFIG_ANSWER_KEY_REBOOT_REQUIRED,
				  TRUE,
				  &r->reboot_required,
				  error) ||
	    !sdt_json_strict_bool(obj,
				  NULL,
				  SDT_CONFIG_ANSWER_KEY_TRIAL_CANCELLED,
				  FALSE,
				  &r->trial_cancelled,
				  error) ||
	    !sdt_json_strict_strings(obj,
				     NULL,
				     SDT_CONFIG_ANSWER_KEY_RESTORED,
				     r->restored,
				     error) ||
	    !sdt_json_strict_strings(obj, NULL, SDT_CONFIG_ANSWER_KEY_KEPT, r->kept, error) ||
	    !sdt_json_strict_strings(obj, NULL, SDT_CONFIG_ANSWER_KEY_WARNINGS, r->warnings, error))
		return NULL;
	return g_steal_pointer(&r);
}

static JsonObject *
sdt_config_answer_parse_object(const gchar *text, JsonNode **root, GError **error)
{
	*root = sdt_json_reader_parse(text, error);
	return *root != NULL ? json_node_get_object(*root) : NULL;
}

SdtConfigAnswerApply *
sdt_config_answer_apply_parse(const gchar *text, GError **error)
{
	g_autoptr(JsonNode) root = NULL;
	JsonObject *obj;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL, NULL);

	obj = sdt_config_answer_parse_object(text, &root, error);
	return obj != NULL ? sdt_config_answer_apply_from_json(obj, error) : NULL;
}

SdtConfigAnswerRevert *
sdt_config_answer_revert_parse(const gchar *text, GError **error)
{
	g_autoptr(JsonNode) root = NULL;
	JsonObject *obj;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL, NULL);

	obj = sdt_config_answer_parse_object(text, &root, error);
	return obj != NULL ? sdt_config_answer_revert_from_json(obj, error) : NULL;
}

/* the writing direction: the members in the order ops has always written them */

static void
sdt_config_answer_put_list(JsonBuilder *b, const gchar *name, GPtrArray *strings)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_array(b);
	for (guint i = 0; strings != NULL && i < strings->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(strings, i));
	json_builder_end_array(b);
}

/* a string member written only when it is said */
static void
sdt_config_answer_put_optional(JsonBuilder *b, const gchar *name, const gchar *value)
{
	if (value != NULL)
		sdt_json_string_or_null(b, name, value);
}

JsonNode *
sdt_config_answer_apply_to_json(const SdtConfigAnswerApply *answer)
{
	g_autoptr(JsonBuilder) b = NULL;
	gboolean unchanged;

	g_return_val_if_fail(answer != NULL, NULL);
	/* the block already in place: nothing written, no lists */
	unchanged = answer->disabled == NULL && answer->warnings == NULL;
	b = json_builder_new();
	json_builder_begin_object(b);
	if (unchanged)
		sdt_json_string_or_null(b, SDT_CONFIG_ANSWER_KEY_ID, answer->id);
	sdt_json_string_or_null(b, SDT_CONFIG_ANSWER_KEY_PATH, answer->path);
	if (answer->trial) {
		sdt_json_put_bool(b, SDT_CONFIG_ANSWER_KEY_TRIAL, TRUE);
		sdt_json_string_or_null(b,
					SDT_CONFIG_ANSWER_KEY_REBOOT_COMMAND,
					answer->reboot_command);
	}
	if (!unchanged)
		sdt_json_string_or_null(b, SDT_CONFIG_ANSWER_KEY_ID, answer->id);
	sdt_json_string_or_null(b, SDT_CONFIG_ANSWER_KEY_DIFF, answer->diff);
	sdt_json_string_or_null(b, SDT_CONFIG_ANSWER_KEY_BACKUP, answer->backup);
	sdt_json_put_bool(b, SDT_CONFIG_ANSWER_KEY_REBOOT_REQUIRED, answer->reboot_required);
	sdt_json_put_bool(b, SDT_CONFIG_ANSWER_KEY_CHANGED, answer->changed);
	if (answer->disabled != NULL)
		sdt_config_answer_put_list(b, SDT_CONFIG_ANSWER_KEY_DISABLED, answer->disabled);
	if (answer->warnings != NULL)
		sdt_config_answer_put_list(b, SDT_CONFIG_ANSWER_KEY_WARNINGS, answer->warnings);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

JsonNode *
sdt_config_answer_revert_to_json(const SdtConfigAnswerRevert *answer)
{
	g_autoptr(JsonBuilder) b = NULL;

	g_return_val_if_fail(answer != NULL, NULL);
	b = json_builder_new();
	json_builder_begin_object(b);
	sdt_config_answer_put_optional(b,
				       SDT_CONFIG_ANSWER_KEY_TRYBOOT_BACKUP,
				       answer->tryboot_backup);
	sdt_config_answer_put_optional(b,
				       SDT_CONFIG_ANSWER_KEY_TRYBOOT_RESTORED,
				       answer->tryboot_restored);
	sdt_json_string_or_null(b, SDT_CONFIG_ANSWER_KEY_ID, answer->id);
	sdt_json_string_or_null(b, SDT_CONFIG_ANSWER_KEY_PATH, answer->path);
	sdt_json_string_or_null(b, SDT_CONFIG_ANSWER_KEY_DIFF, answer->diff);
	sdt_json_string_or_null(b, SDT_CONFIG_ANSWER_KEY_BACKUP, answer->backup);
	sdt_json_string_or_null(b,
				SDT_CONFIG_ANSWER_KEY_BACKUP_BEFORE_CHANGE,
				answer->backup_before_change);
	sdt_json_put_bool(b, SDT_CONFIG_ANSWER_KEY_REBOOT_REQUIRED, answer->reboot_required);
	sdt_json_put_bool(b, SDT_CONFIG_ANSWER_KEY_TRIAL_CANCELLED, answer->trial_cancelled);
	sdt_config_answer_put_list(b, SDT_CONFIG_ANSWER_KEY_RESTORED, answer->restored);
	sdt_config_answer_put_list(b, SDT_CONFIG_ANSWER_KEY_KEPT, answer->kept);
	sdt_config_answer_put_list(b, SDT_CONFIG_ANSWER_KEY_WARNINGS, answer->warnings);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

/* @node's text, as the CLI prints it: config.txt may hold any bytes, the text is UTF-8 */
static gchar *
sdt_config_answer_text(JsonNode *node)
{
	sdt_json_sanitize_utf8(node);
	return sdt_json_to_string(node, TRUE);
}

gchar *
sdt_config_answer_apply_to_string(const SdtConfigAnswerApply *answer)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(answer != NULL, NULL);
	node = sdt_config_answer_apply_to_json(answer);
	return sdt_config_answer_text(node);
}

gchar *
sdt_config_answer_revert_to_string(const SdtConfigAnswerRevert *answer)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(answer != NULL, NULL);
	node = sdt_config_answer_revert_to_json(answer);
	return sdt_config_answer_text(node);
}
