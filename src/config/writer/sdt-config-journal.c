/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* the journal of the change in place: schema-checked before use */

#include "config.h"

#include <inttypes.h>
#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "sdt-config-journal.h"
#include "sdt-config-writer-private.h"
#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-json.h"

typedef enum {
	SDT_CONFIG_JOURNAL_STRING,
	SDT_CONFIG_JOURNAL_STRING_OR_NULL,
	SDT_CONFIG_JOURNAL_INT,
	SDT_CONFIG_JOURNAL_STRV,
} SdtConfigJournalType;

typedef struct {
	const gchar *name;
	SdtConfigJournalType type;
	gboolean required;
} SdtConfigJournalMember;

static const SdtConfigJournalMember sdt_config_journal_schema[] = {
	{"version", SDT_CONFIG_JOURNAL_INT, FALSE},
	{"id", SDT_CONFIG_JOURNAL_STRING, TRUE},
	{"path", SDT_CONFIG_JOURNAL_STRING, TRUE},
	{"filter", SDT_CONFIG_JOURNAL_STRING, TRUE},
	{"type_code", SDT_CONFIG_JOURNAL_INT, TRUE},
	{"block", SDT_CONFIG_JOURNAL_STRV, TRUE},
	{"disabled", SDT_CONFIG_JOURNAL_STRV, TRUE},
	{"backup", SDT_CONFIG_JOURNAL_STRING, TRUE},
	{"sha256_before", SDT_CONFIG_JOURNAL_STRING, TRUE},
	{"sha256_after", SDT_CONFIG_JOURNAL_STRING, TRUE},
	{"time", SDT_CONFIG_JOURNAL_STRING, TRUE},
	{"boot_id", SDT_CONFIG_JOURNAL_STRING_OR_NULL, FALSE},
};

static const SdtConfigJournalMember sdt_config_trial_journal_schema[] = {
	{"version", SDT_CONFIG_JOURNAL_INT, FALSE},
	{"id", SDT_CONFIG_JOURNAL_STRING, TRUE},
	{"path", SDT_CONFIG_JOURNAL_STRING, TRUE},
	{"config_sha256", SDT_CONFIG_JOURNAL_STRING, TRUE},
	{"tryboot_sha256", SDT_CONFIG_JOURNAL_STRING, TRUE},
	{"previous_backup", SDT_CONFIG_JOURNAL_STRING_OR_NULL, TRUE},
	{"time", SDT_CONFIG_JOURNAL_STRING, TRUE},
	{"boot_id", SDT_CONFIG_JOURNAL_STRING_OR_NULL, FALSE},
};

#define SDT_CONFIG_JOURNAL_MAX (256 * 1024)

static gboolean
sdt_config_journal_node_is(JsonNode *node, GType type)
{
	return node != NULL && JSON_NODE_HOLDS_VALUE(node) &&
	       json_node_get_value_type(node) == type;
}

static gboolean
sdt_config_journal_member_valid(JsonNode *node, SdtConfigJournalType type)
{
	switch (type) {
	case SDT_CONFIG_JOURNAL_STRING:
		return sdt_config_journal_node_is(node, G_TYPE_STRING);
	case SDT_CONFIG_JOURNAL_STRING_OR_NULL:
		return JSON_NODE_HOLDS_NULL(node) ||
		       sdt_config_journal_node_is(node, G_TYPE_STRING);
	case SDT_CONFIG_JOURNAL_INT:
		return sdt_config_journal_node_is(node, G_TYPE_INT64);
	case SDT_CONFIG_JOURNAL_STRV: {
		JsonArray *array;
		if (!JSON_NODE_HOLDS_ARRAY(node))
			return FALSE;
		array = json_node_get_array(node);
		for (guint i = 0; i < json_array_get_length(array); i++) {
			if (!sdt_config_journal_node_is(json_array_get_element(array, i),
							G_TYPE_STRING))
				return FALSE;
		}
		return TRUE;
	}
	}
	return FALSE;
}

static JsonObject *
sdt_config_journal_parse_with_schema(const gchar *data,
				     gsize len,
				     const SdtConfigJournalMember *schema,
				     guint n_members,
				     GError **error)
{
	g_autoptr(JsonParser) parser = json_parser_new_immutable();
	g_autoptr(GError) local = NULL;
	JsonNode *root;
	JsonObject *obj;

	if (len > SDT_CONFIG_JOURNAL_MAX) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("it is %" PRIu64 " bytes long, far more than SD Tuner writes"),
			    (guint64) len);
		return NULL;
	}
	if (!json_parser_load_from_data(parser, data, (gssize) len, &local)) {
		g_autofree gchar *where = sdt_json_parse_problem(local);
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("it is not valid JSON (%s)"),
			    where);
		return NULL;
	}
	root = json_parser_get_root(parser);
	if (root == NULL || !JSON_NODE_HOLDS_OBJECT(root)) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("it is not a JSON object"));
		return NULL;
	}
	obj = json_node_get_object(root);
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
			return NULL;
		}
		if (!sdt_config_journal_member_valid(node, schema[i].type)) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("the member “%s” has the wrong type"),
				    schema[i].name);
			return NULL;
		}
	}
	return json_object_ref(obj);
}

JsonObject *
sdt_config_journal_parse(const gchar *data, gsize len, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	return sdt_config_journal_parse_with_schema(data,
						    len,
						    sdt_config_journal_schema,
						    G_N_ELEMENTS(sdt_config_journal_schema),
						    error);
}

JsonObject *
sdt_config_journal_parse_trial(const gchar *data, gsize len, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	return sdt_config_journal_parse_with_schema(data,
						    len,
						    sdt_config_trial_journal_schema,
						    G_N_ELEMENTS(sdt_config_trial_journal_schema),
						    error);
}

static gboolean
sdt_config_writer_read_json(SdtConfigWriter *self,
			    const gchar *name,
			    JsonObject *(*parse)(const gchar *, gsize, GError **),
			    JsonObject **out,
			    GError **error)
{
	g_autofree gchar *path = sdt_config_writer_state_path(self, name);
	g_autofree gchar *data = NULL;
	g_autoptr(GError) local = NULL;
	gsize len = 0;
	GStatBuf st;

	*out = NULL;
	if (g_lstat(path, &st) != 0 && errno == ENOENT)
		return TRUE;
	if (!sdt_file_read_bounded(path, SDT_CONFIG_JOURNAL_MAX, &data, &len, &local) ||
	    (*out = parse(data, len, &local)) == NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: the journal's path, then what is wrong with it */
			    _("SD Tuner's record of its change, %s, is damaged: %s"),
			    path,
			    local->message);
		return FALSE;
	}
	return TRUE;
}

gboolean
sdt_config_journal_read(SdtConfigWriter *self, JsonObject **journal, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), FALSE);
	return sdt_config_writer_read_json(self,
					   SDT_CONFIG_JOURNAL,
					   sdt_config_journal_parse,
					   journal,
					   error);
}

gboolean
sdt_config_journal_read_trial(SdtConfigWriter *self, JsonObject **journal, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), FALSE);
	return sdt_config_writer_read_json(self,
					   SDT_TRIAL_JOURNAL,
					   sdt_config_journal_parse_trial,
					   journal,
					   error);
}

JsonObject *
sdt_config_journal_get(SdtConfigWriter *self)
{
	JsonObject *journal = NULL;

	if (!sdt_config_journal_read(self, &journal, NULL))
		return NULL;
	return journal;
}

JsonArray *
sdt_config_journal_array_from_strings(GPtrArray *strings)
{
	JsonArray *array = json_array_new();
	for (guint i = 0; i < strings->len; i++)
		json_array_add_string_element(array, g_ptr_array_index(strings, i));
	return array;
}

gchar **
sdt_config_journal_array_to_strv(JsonArray *array)
{
	gchar **strv = g_new0(gchar *, json_array_get_length(array) + 1);
	for (guint i = 0; i < json_array_get_length(array); i++)
		strv[i] = g_strdup(json_array_get_string_element(array, i));
	return strv;
}

gboolean
sdt_config_journal_write_json(SdtConfigWriter *self,
			      const gchar *name,
			      JsonObject *obj,
			      GError **error)
{
	g_autofree gchar *path = NULL;
	g_autoptr(JsonNode) node = json_node_new(JSON_NODE_OBJECT);
	g_autofree gchar *text = NULL;
	g_autoptr(GBytes) bytes = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);

	path = sdt_config_writer_state_path(self, name);
	json_node_set_object(node, obj);
	text = json_to_string(node, TRUE);
	bytes = g_bytes_new(text, strlen(text));
	return sdt_config_writer_write_atomic(self, path, bytes, NULL, error);
}

void
sdt_config_journal_remove_state(SdtConfigWriter *self, const gchar *name)
{
	g_autofree gchar *path = sdt_config_writer_state_path(self, name);
	sdt_config_writer_unlink(self, path);
}
