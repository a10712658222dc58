/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "sdt-config-journal-doc.h"
#include "sdt-config-journal-doc-private.h"
#include "sdt-error.h"
#include "sdt-json.h"
#include "sdt-json-private.h"

#define KEY_VERSION       "version"
#define KEY_ID            "id"
#define KEY_PATH          "path"
#define KEY_FILTER        "filter"
#define KEY_TYPE_CODE     "type_code"
#define KEY_BLOCK         "block"
#define KEY_DISABLED      "disabled"
#define KEY_BACKUP        "backup"
#define KEY_SHA256_BEFORE "sha256_before"
#define KEY_SHA256_AFTER  "sha256_after"
#define KEY_TIME          "time"
#define KEY_BOOT_ID       "boot_id"

/* the type of a journal's member */
typedef enum {
	SDT_CONFIG_JOURNAL_DOC_STRING,
	SDT_CONFIG_JOURNAL_DOC_STRING_OR_NULL,
	SDT_CONFIG_JOURNAL_DOC_INT,
	SDT_CONFIG_JOURNAL_DOC_STRV,
} SdtConfigJournalDocType;

/* a member of a journal's schema */
typedef struct {
	const gchar *name;
	SdtConfigJournalDocType type;
	gboolean required;
} SdtConfigJournalDocMember;

static const SdtConfigJournalDocMember sdt_config_journal_doc_schema[] = {
	{KEY_VERSION, SDT_CONFIG_JOURNAL_DOC_INT, FALSE},
	{KEY_ID, SDT_CONFIG_JOURNAL_DOC_STRING, TRUE},
	{KEY_PATH, SDT_CONFIG_JOURNAL_DOC_STRING, TRUE},
	{KEY_FILTER, SDT_CONFIG_JOURNAL_DOC_STRING, TRUE},
	{KEY_TYPE_CODE, SDT_CONFIG_JOURNAL_DOC_INT, TRUE},
	{KEY_BLOCK, SDT_CONFIG_JOURNAL_DOC_STRV, TRUE},
	{KEY_DISABLED, SDT_CONFIG_JOURNAL_DOC_STRV, TRUE},
	{KEY_BACKUP, SDT_CONFIG_JOURNAL_DOC_STRING, TRUE},
	{KEY_SHA256_BEFORE, SDT_CONFIG_JOURNAL_DOC_STRING, TRUE},
	{KEY_SHA256_AFTER, SDT_CONFIG_JOURNAL_DOC_STRING, TRUE},
	{KEY_TIME, SDT_CONFIG_JOURNAL_DOC_STRING, TRUE},
	{KEY_BOOT_ID, SDT_CONFIG_JOURNAL_DOC_STRING_OR_NULL, FALSE},
};

SdtConfigJournalDoc *
sdt_config_journal_doc_new(void)
{
	SdtConfigJournalDoc *doc = g_new0(SdtConfigJournalDoc, 1);

	doc->block = g_new0(gchar *, 1);
	doc->disabled = g_new0(gchar *, 1);
	return doc;
}

void
sdt_config_journal_doc_free(SdtConfigJournalDoc *doc)
{
	if (doc == NULL)
		return;
	g_free(doc->id);
	g_free(doc->path);
	g_free(doc->filter);
	g_strfreev(doc->block);
	g_strfreev(doc->disabled);
	g_free(doc->backup);
	g_free(doc->sha256_before);
	g_free(doc->sha256_after);
	g_free(doc->time);
	g_free(doc->boot_id);
	g_free(doc);
}

/* the reading direction: the schema first, then the members it checked */

static gboolean
sdt_config_journal_doc_node_is(JsonNode *node, GType type)
{
	return node != NULL && JSON_NODE_HOLDS_VALUE(node) &&
	       json_node_get_value_type(node) == type;
}

static gboolean
sdt_config_journal_doc_member_valid(JsonNode *node, SdtConfigJournalDocType type)
{
	switch (type) {
	case SDT_CONFIG_JOURNAL_DOC_STRING:
		return sdt_config_journal_doc_node_is(node, G_TYPE_STRING);
	case SDT_CONFIG_JOURNAL_DOC_STRING_OR_NULL:
		return JSON_NODE_HOLDS_NULL(node) ||
		       sdt_config_journal_doc_node_is(node, G_TYPE_STRING);
	case SDT_CONFIG_JOURNAL_DOC_INT:
		return sdt_config_journal_doc_node_is(node, G_TYPE_INT64);
	case SDT_CONFIG_JOURNAL_DOC_STRV: {
		JsonArray *array;
		if (!JSON_NODE_HOLDS_ARRAY(node))
			return FALSE;
		array = json_node_get_array(node);
		for (guint i = 0; i < json_array_get_length(array); i++) {
			if (!sdt_config_journal_doc_node_is(json_array_get_element(array, i),
							    G_TYPE_STRING))
				return FALSE;
		}
		return TRUE;
	}
	}
	return FALSE;
}

static JsonObject *
sdt_config_journal_doc_load(const gchar *text, gsize len, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL || len == 0, NULL);

	if (len > SDT_CONFIG_JOURNAL_DOC_MAX) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("it is %" PRIu64 " bytes long, far more than SD Tuner writes"),
			    (guint64) len);
		return NULL;
	}
	return sdt_json_parse_object(text, len, error);
}

static gboolean
sdt_config_journal_doc_check(JsonObject *obj,
			     const SdtConfigJournalDocMember *schema,
			     guint n_members,
			     GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(obj != NULL, FALSE);

	for (guint i = 0; i < n_members; i++) {
		JsonNode *node = json_object_get_member(obj, schema[i].name);
		if (node == NULL && !schema[i].required)
			continue;
		if (node == NULL) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("the member “%s” is missing"),
				    schema[i].name);
			return FALSE;
		}
		if (!sdt_config_journal_doc_member_valid(node, schema[i].type)) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("the member “%s” has the wrong type"),
				    schema[i].name);
			return FALSE;
		}
	}
	return TRUE;
}

static gchar *
sdt_config_journal_doc_dup_string(JsonObject *obj, const gchar *name)
{
	JsonNode *node = json_object_get_member(obj, name);

	if (!sdt_config_journal_doc_node_is(node, G_TYPE_STRING))
		return NULL;
	return g_strdup(json_node_get_string(node));
}

static gchar **
sdt_config_journal_doc_dup_strv(JsonObject *obj, const gchar *name)
{
	JsonArray *array = json_object_get_array_member(obj, name);
	gchar **strv = g_new0(gchar *, json_array_get_length(array) + 1);

	for (guint i = 0; i < json_array_get_length(array); i++)
		strv[i] = g_strdup(json_array_get_string_element(array, i));
	return strv;
}

SdtConfigJournalDoc *
sdt_config_journal_doc_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtConfigJournalDoc) doc = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	if (!sdt_config_journal_doc_check(obj,
					  sdt_config_journal_doc_schema,
					  G_N_ELEMENTS(sdt_config_journal_doc_schema),
					  error))
		return NULL;
	doc = g_new0(SdtConfigJournalDoc, 1);
	doc->has_version = json_object_has_member(obj, KEY_VERSION);
	if (doc->has_version)
		doc->version = json_object_get_int_member(obj, KEY_VERSION);
	doc->id = sdt_config_journal_doc_dup_string(obj, KEY_ID);
	doc->path = sdt_config_journal_doc_dup_string(obj, KEY_PATH);
	doc->filter = sdt_config_journal_doc_dup_string(obj, KEY_FILTER);
	doc->type_code = json_object_get_int_member(obj, KEY_TYPE_CODE);
	doc->block = sdt_config_journal_doc_dup_strv(obj, KEY_BLOCK);
	doc->disabled = sdt_config_journal_doc_dup_strv(obj, KEY_DISABLED);
	doc->backup = sdt_config_journal_doc_dup_string(obj, KEY_BACKUP);
	doc->sha256_before = sdt_config_journal_doc_dup_string(obj, KEY_SHA256_BEFORE);
	doc->sha256_after = sdt_config_journal_doc_dup_string(obj, KEY_SHA256_AFTER);
	doc->time = sdt_config_journal_doc_dup_string(obj, KEY_TIME);
	doc->boot_id = sdt_config_journal_doc_dup_string(obj, KEY_BOOT_ID);
	return g_steal_pointer(&doc);
}

SdtConfigJournalDoc *
sdt_config_journal_doc_parse(const gchar *text, gsize len, GError **error)
{
	g_autoptr(JsonObject) obj = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	obj = sdt_config_journal_doc_load(text, len, error);
	if (obj == NULL)
		return NULL;
	return sdt_config_journal_doc_from_json(obj, error);
}

/* the writing direction: every member in the order the writer has always written */

static void
sdt_config_journal_doc_put_string(JsonBuilder *b, const gchar *name, const gchar *value)
{
	json_builder_set_member_name(b, name);
	json_builder_add_string_value(b, value);
}

static void
sdt_config_journal_doc_put_strv(JsonBuilder *b, const gchar *name, gchar **strv)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_array(b);
	for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
		json_builder_add_string_value(b, strv[i]);
	json_builder_end_array(b);
}

JsonNode *
sdt_config_journal_doc_to_json(const SdtConfigJournalDoc *doc)
{
	g_autoptr(JsonBuilder) b = json_builder_new();

	g_return_val_if_fail(doc != NULL, NULL);

	json_builder_begin_object(b);
	if (doc->has_version)
		sdt_json_put_int(b, KEY_VERSION, doc->version);
	sdt_config_journal_doc_put_string(b, KEY_ID, doc->id);
	sdt_config_journal_doc_put_string(b, KEY_PATH, doc->path);
	sdt_config_journal_doc_put_string(b, KEY_FILTER, doc->filter);
	sdt_json_put_int(b, KEY_TYPE_CODE, doc->type_code);
	sdt_config_journal_doc_put_strv(b, KEY_BLOCK, doc->block);
	sdt_config_journal_doc_put_strv(b, KEY_DISABLED, doc->disabled);
	sdt_config_journal_doc_put_string(b, KEY_BACKUP, doc->backup);
	sdt_config_journal_doc_put_string(b, KEY_SHA256_BEFORE, doc->sha256_before);
	sdt_config_journal_doc_put_string(b, KEY_SHA256_AFTER, doc->sha256_after);
	sdt_config_journal_doc_put_string(b, KEY_TIME, doc->time);
	sdt_json_string_or_null(b, KEY_BOOT_ID, doc->boot_id);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gchar *
sdt_config_journal_doc_to_string(const SdtConfigJournalDoc *doc)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(doc != NULL, NULL);

	node = sdt_config_journal_doc_to_json(doc);
	return json_to_string(node, TRUE);
}

/* ---- the journal of the pending trial ---- */

#define KEY_CONFIG_SHA256   "config_sha256"
#define KEY_TRYBOOT_SHA256  "tryboot_sha256"
#define KEY_PREVIOUS_BACKUP "previous_backup"

static const SdtConfigJournalDocMember sdt_config_journal_doc_trial_schema[] = {
	{KEY_VERSION, SDT_CONFIG_JOURNAL_DOC_INT, FALSE},
	{KEY_ID, SDT_CONFIG_JOURNAL_DOC_STRING, TRUE},
	{KEY_PATH, SDT_CONFIG_JOURNAL_DOC_STRING, TRUE},
	{KEY_CONFIG_SHA256, SDT_CONFIG_JOURNAL_DOC_STRING, TRUE},
	{KEY_TRYBOOT_SHA256, SDT_CONFIG_JOURNAL_DOC_STRING, TRUE},
	{KEY_PREVIOUS_BACKUP, SDT_CONFIG_JOURNAL_DOC_STRING_OR_NULL, TRUE},
	{KEY_TIME, SDT_CONFIG_JOURNAL_DOC_STRING, TRUE},
	{KEY_BOOT_ID, SDT_CONFIG_JOURNAL_DOC_STRING_OR_NULL, FALSE},
};

SdtConfigJournalDocTrial *
sdt_config_journal_doc_trial_new(void)
{
	return g_new0(SdtConfigJournalDocTrial, 1);
}

void
sdt_config_journal_doc_trial_free(SdtConfigJournalDocTrial *doc)
{
	if (doc == NULL)
		return;
	g_free(doc->id);
	g_free(doc->path);
	g_free(doc->config_sha256);
	g_free(doc->tryboot_sha256);
	g_free(doc->previous_backup);
	g_free(doc->time);
	g_free(doc->boot_id);
	g_free(doc);
}

SdtConfigJournalDocTrial *
sdt_config_journal_doc_trial_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtConfigJournalDocTrial) doc = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	if (!sdt_config_journal_doc_check(obj,
					  sdt_config_journal_doc_trial_schema,
					  G_N_ELEMENTS(sdt_config_journal_doc_trial_schema),
					  error))
		return NULL;
	doc = sdt_config_journal_doc_trial_new();
	doc->has_version = json_object_has_member(obj, KEY_VERSION);
	if (doc->has_version)
		doc->version = json_object_get_int_member(obj, KEY_VERSION);
	doc->id = sdt_config_journal_doc_dup_string(obj, KEY_ID);
	doc->path = sdt_config_journal_doc_dup_string(obj, KEY_PATH);
	doc->config_sha256 = sdt_config_journal_doc_dup_string(obj, KEY_CONFIG_SHA256);
	doc->tryboot_sha256 = sdt_config_journal_doc_dup_string(obj, KEY_TRYBOOT_SHA256);
	doc->previous_backup = sdt_config_journal_doc_dup_string(obj, KEY_PREVIOUS_BACKUP);
	doc->time = sdt_config_journal_doc_dup_string(obj, KEY_TIME);
	doc->boot_id = sdt_config_journal_doc_dup_string(obj, KEY_BOOT_ID);
	return g_steal_pointer(&doc);
}

SdtConfigJournalDocTrial *
sdt_config_journal_doc_trial_parse(const gchar *text, gsize len, GError **error)
{
	g_autoptr(JsonObject) obj = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	obj = sdt_config_journal_doc_load(text, len, error);
	if (obj == NULL)
		return NULL;
	return sdt_config_journal_doc_trial_from_json(obj, error);
}

JsonNode *
sdt_config_journal_doc_trial_to_json(const SdtConfigJournalDocTrial *doc)
{
	g_autoptr(JsonBuilder) b = json_builder_new();

	g_return_val_if_fail(doc != NULL, NULL);

	json_builder_begin_object(b);
	if (doc->has_version)
		sdt_json_put_int(b, KEY_VERSION, doc->version);
	sdt_config_journal_doc_put_string(b, KEY_ID, doc->id);
	sdt_config_journal_doc_put_string(b, KEY_PATH, doc->path);
	sdt_config_journal_doc_put_string(b, KEY_CONFIG_SHA256, doc->config_sha256);
	sdt_config_journal_doc_put_string(b, KEY_TRYBOOT_SHA256, doc->tryboot_sha256);
	sdt_json_string_or_null(b, KEY_PREVIOUS_BACKUP, doc->previous_backup);
	sdt_config_journal_doc_put_string(b, KEY_TIME, doc->time);
	sdt_json_string_or_null(b, KEY_BOOT_ID, doc->boot_id);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gchar *
sdt_config_journal_doc_trial_to_string(const SdtConfigJournalDocTrial *doc)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(doc != NULL, NULL);

	node = sdt_config_journal_doc_trial_to_json(doc);
	return json_to_string(node, TRUE);
}
