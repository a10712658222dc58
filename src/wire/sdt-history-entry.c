/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <string.h>

#include "sdt-error.h"
#include "sdt-history-entry-private.h"
#include "sdt-verify-report-private.h"
#include "sdt-soak-report-private.h"
#include "sdt-json.h"
#include "sdt-json-private.h"

#define KEY_KIND          "kind"
#define KEY_TIME          "time"
#define KEY_ID            "id"
#define KEY_PATH          "path"
#define KEY_BACKUP        "backup"
#define KEY_TRIAL         "trial"
#define KEY_CHANGED       "changed"
#define KEY_PROFILE       "profile"
#define KEY_TARGET        "target"
#define KEY_TESTS         "tests"
#define KEY_VERDICT       "verdict"
#define KEY_CONFIG_SHA256 "config_sha256"
#define KEY_BOOT_ID       "boot_id"
#define KEY_CARD          "card"
#define KEY_IDENTITY      "identity"
#define KEY_NEXT_ID       "next_id"
#define KEY_ACTION        "action"
#define KEY_WHAT          "what"
#define KEY_DECISION      "decision"
#define KEY_STAND_IN      "stand_in"
#define KEY_NAME          "name"
#define KEY_SERIAL        "serial"

#define KIND_BENCH          SDT_HISTORY_ENTRY_KIND_BENCH
#define KIND_CHECK          SDT_HISTORY_ENTRY_KIND_CHECK
#define KIND_VERIFY         SDT_HISTORY_ENTRY_KIND_VERIFY
#define KIND_APPLY          SDT_HISTORY_ENTRY_KIND_APPLY
#define KIND_REVERT         SDT_HISTORY_ENTRY_KIND_REVERT
#define KIND_SOAK           SDT_HISTORY_ENTRY_KIND_SOAK
#define KEY_TRIAL_CANCELLED "trial_cancelled"

typedef enum {
	SDT_HISTORY_ENTRY_STRING,
	SDT_HISTORY_ENTRY_STRING_OR_NULL,
	SDT_HISTORY_ENTRY_BOOLEAN,
	SDT_HISTORY_ENTRY_OBJECT,
	SDT_HISTORY_ENTRY_OBJECT_OR_NULL,
	SDT_HISTORY_ENTRY_ARRAY,
} SdtHistoryEntryType;

/* the members SD Tuner writes (sdt-ops-config.c, sdt-ops-bench.c, sdt-bench.c) and their
 * types; the first two are required */
static const struct {
	const gchar *name;
	SdtHistoryEntryType type;
} sdt_history_entry_members[] = {
	{KEY_KIND, SDT_HISTORY_ENTRY_STRING},
	{KEY_TIME, SDT_HISTORY_ENTRY_STRING},
	{KEY_ID, SDT_HISTORY_ENTRY_STRING_OR_NULL},
	{KEY_PATH, SDT_HISTORY_ENTRY_STRING},
	{KEY_BACKUP, SDT_HISTORY_ENTRY_STRING_OR_NULL},
	{KEY_TRIAL, SDT_HISTORY_ENTRY_BOOLEAN},
	{KEY_CHANGED, SDT_HISTORY_ENTRY_BOOLEAN},
	{KEY_PROFILE, SDT_HISTORY_ENTRY_STRING},
	{KEY_TARGET, SDT_HISTORY_ENTRY_OBJECT},
	{KEY_TESTS, SDT_HISTORY_ENTRY_ARRAY},
	{KEY_VERDICT, SDT_HISTORY_ENTRY_OBJECT},
	{KEY_CONFIG_SHA256, SDT_HISTORY_ENTRY_STRING_OR_NULL},
	{KEY_BOOT_ID, SDT_HISTORY_ENTRY_STRING_OR_NULL},
	{KEY_CARD, SDT_HISTORY_ENTRY_OBJECT_OR_NULL},
	{KEY_IDENTITY, SDT_HISTORY_ENTRY_OBJECT_OR_NULL}, /* a device check's card (issue 34) */
};

gboolean
sdt_history_entry_kind_valid(const gchar *kind)
{
	if (kind == NULL || kind[0] == '\0')
		return FALSE;
	for (const gchar *p = kind; *p != '\0'; p++) {
		if (!g_ascii_islower(*p) && *p != '-')
			return FALSE;
	}
	return TRUE;
}

SdtHistoryEntry *
sdt_history_entry_new(const gchar *kind, const gchar *time, JsonObject *doc)
{
	SdtHistoryEntry *e;

	g_return_val_if_fail(sdt_history_entry_kind_valid(kind), NULL);
	g_return_val_if_fail(doc != NULL, NULL);

	e = g_new0(SdtHistoryEntry, 1);
	e->kind = g_strdup(kind);
	e->doc = json_object_ref(doc);
	if (time != NULL)
		sdt_history_entry_stamp(e, time);
	return e;
}

void
sdt_history_entry_stamp(SdtHistoryEntry *entry, const gchar *time)
{
	g_return_if_fail(entry != NULL && time != NULL);

	json_object_set_string_member(entry->doc, KEY_KIND, entry->kind);
	json_object_set_string_member(entry->doc, KEY_TIME, time);
	g_free(entry->time);
	entry->time = g_strdup(time);
}

/* an entry of @kind around the document @doc (taken), not yet stamped */
static SdtHistoryEntry *
sdt_history_entry_new_object(const gchar *kind, JsonObject *doc)
{
	g_autoptr(JsonObject) owned = doc;

	return sdt_history_entry_new(kind, NULL, owned);
}

/* the same around the object @node (taken) holds */
static SdtHistoryEntry *
sdt_history_entry_new_doc(const gchar *kind, JsonNode *node)
{
	g_autoptr(JsonNode) owned = node;

	return sdt_history_entry_new(kind, NULL, json_node_get_object(owned));
}

/* @name: @value, or null */
static void
sdt_history_entry_set_string(JsonObject *o, const gchar *name, const gchar *value)
{
	if (value != NULL)
		json_object_set_string_member(o, name, value);
	else
		json_object_set_null_member(o, name);
}

SdtHistoryEntry *
sdt_history_entry_new_bench(const SdtBenchRecord *record)
{
	JsonNode *node;
	JsonObject *doc;
	JsonObject *card;

	g_return_val_if_fail(record != NULL, NULL);

	node = sdt_bench_record_to_json(record);
	doc = json_node_get_object(node);
	sdt_history_entry_set_string(doc, KEY_CONFIG_SHA256, record->config_sha256);
	if (record->card_id == NULL) {
		json_object_set_null_member(doc, KEY_CARD);
	} else {
		card = json_object_new();
		sdt_history_entry_set_string(card, "id", record->card_id);
		sdt_history_entry_set_string(card, "name", record->card_name);
		sdt_history_entry_set_string(card, "serial", record->card_serial);
		json_object_set_object_member(doc, KEY_CARD, card);
	}
	return sdt_history_entry_new_doc(KIND_BENCH, node);
}

SdtHistoryEntry *
sdt_history_entry_new_check(const SdtCheckResult *result)
{
	g_return_val_if_fail(result != NULL, NULL);

	return sdt_history_entry_new_doc(KIND_CHECK, sdt_check_result_to_json(result));
}

SdtHistoryEntry *
sdt_history_entry_new_soak(const SdtSoakReport *report)
{
	g_return_val_if_fail(report != NULL, NULL);

	return sdt_history_entry_new_doc(KIND_SOAK, sdt_soak_report_to_json(report));
}

/* the boot a change was made in, when known */
static void
sdt_history_entry_set_boot(JsonObject *doc, const gchar *boot_id)
{
	if (boot_id != NULL)
		json_object_set_string_member(doc, KEY_BOOT_ID, boot_id);
}

SdtHistoryEntry *
sdt_history_entry_new_apply(const SdtConfigAnswerApply *answer, const gchar *boot_id)
{
	JsonObject *doc;

	g_return_val_if_fail(answer != NULL, NULL);

	doc = json_object_new();
	sdt_history_entry_set_string(doc, KEY_ID, answer->id);
	sdt_history_entry_set_string(doc, KEY_PATH, answer->path);
	sdt_history_entry_set_string(doc, KEY_BACKUP, answer->backup);
	if (answer->trial)
		json_object_set_boolean_member(doc, KEY_TRIAL, TRUE);
	json_object_set_boolean_member(doc, KEY_CHANGED, answer->changed);
	sdt_history_entry_set_boot(doc, boot_id);
	return sdt_history_entry_new_object(KIND_APPLY, doc);
}

SdtHistoryEntry *
sdt_history_entry_new_revert(const SdtConfigAnswerRevert *answer, const gchar *boot_id)
{
	JsonObject *doc;

	g_return_val_if_fail(answer != NULL, NULL);

	doc = json_object_new();
	sdt_history_entry_set_string(doc, KEY_ID, answer->id);
	sdt_history_entry_set_string(doc, KEY_PATH, answer->path);
	sdt_history_entry_set_string(doc, KEY_BACKUP, answer->backup);
	json_object_set_boolean_member(doc, KEY_TRIAL_CANCELLED, answer->trial_cancelled);
	/* whether config.txt changed (a trial's cancel alone leaves it) */
	if (answer->diff != NULL)
		json_object_set_boolean_member(doc, KEY_CHANGED, *answer->diff != '\0');
	sdt_history_entry_set_boot(doc, boot_id);
	return sdt_history_entry_new_object(KIND_REVERT, doc);
}

SdtHistoryEntry *
sdt_history_entry_new_verify(const SdtVerifyReport *report)
{
	g_return_val_if_fail(report != NULL, NULL);

	return sdt_history_entry_new_doc(KIND_VERIFY, sdt_verify_report_to_json(report));
}

void
sdt_history_entry_free(SdtHistoryEntry *entry)
{
	if (entry == NULL)
		return;
	g_free(entry->kind);
	g_free(entry->time);
	if (entry->doc != NULL)
		json_object_unref(entry->doc);
	g_free(entry);
}

/* the reading direction */

static gboolean
sdt_history_entry_type_ok(JsonNode *node, SdtHistoryEntryType type)
{
	switch (type) {
	case SDT_HISTORY_ENTRY_STRING_OR_NULL:
		if (JSON_NODE_HOLDS_NULL(node))
			return TRUE;
		/* fall through */
	case SDT_HISTORY_ENTRY_STRING:
		return JSON_NODE_HOLDS_VALUE(node) &&
		       json_node_get_value_type(node) == G_TYPE_STRING;
	case SDT_HISTORY_ENTRY_BOOLEAN:
		return JSON_NODE_HOLDS_VALUE(node) &&
		       json_node_get_value_type(node) == G_TYPE_BOOLEAN;
	case SDT_HISTORY_ENTRY_OBJECT_OR_NULL:
		if (JSON_NODE_HOLDS_NULL(node))
			return TRUE;
		/* fall through */
	case SDT_HISTORY_ENTRY_OBJECT:
		return JSON_NODE_HOLDS_OBJECT(node);
	case SDT_HISTORY_ENTRY_ARRAY:
		return JSON_NODE_HOLDS_ARRAY(node);
	default:
		return FALSE;
	}
}

/* a check's verdict is a word ("genuine", "fake", "undetermined", sdt-check.c), a
 * benchmark's an object; "kind", checked first, is a string by then */
static SdtHistoryEntryType
sdt_history_entry_member_type(JsonObject *obj, guint i)
{
	if (g_strcmp0(sdt_history_entry_members[i].name, KEY_VERDICT) == 0 &&
	    g_strcmp0(json_object_get_string_member(obj, KEY_KIND), KIND_CHECK) == 0)
		return SDT_HISTORY_ENTRY_STRING;
	return sdt_history_entry_members[i].type;
}

/* the members an entry must have, and every member of the right type */
static gboolean
sdt_history_entry_check_members(JsonObject *obj, GError **error)
{
	for (guint i = 0; i < G_N_ELEMENTS(sdt_history_entry_members); i++) {
		const gchar *name = sdt_history_entry_members[i].name;
		JsonNode *member = json_object_get_member(obj, name);
		gboolean required = i < 2; /* kind and time */

		if (member == NULL && !required)
			continue;
		if (member == NULL) {
			/* Translators: why a history entry is damaged, in parentheses;
			 * %s is a JSON member's name */
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("no \"%s\" member"),
				    name);
			return FALSE;
		}
		if (!sdt_history_entry_type_ok(member, sdt_history_entry_member_type(obj, i))) {
			/* Translators: why a history entry is damaged, in parentheses;
			 * %s is a JSON member's name */
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("\"%s\" has the wrong type"),
				    name);
			return FALSE;
		}
	}
	return TRUE;
}

SdtHistoryEntry *
sdt_history_entry_from_json(JsonObject *obj, GError **error)
{
	SdtHistoryEntry *e;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	if (!sdt_history_entry_check_members(obj, error))
		return NULL;
	if (!sdt_history_entry_kind_valid(json_object_get_string_member(obj, KEY_KIND))) {
		g_set_error_literal(
			error,
			SDT_ERROR,
			SDT_ERROR_INVALID_DATA,
			/* Translators: why a history entry is damaged, in parentheses */
			_("an unknown \"kind\""));
		return NULL;
	}
	e = g_new0(SdtHistoryEntry, 1);
	e->kind = g_strdup(json_object_get_string_member(obj, KEY_KIND));
	e->time = g_strdup(json_object_get_string_member(obj, KEY_TIME));
	e->doc = json_object_ref(obj);
	return e;
}

/* the bytes of an entry's file as a JSON object (a copy of its own), or NULL */
static JsonNode *
sdt_history_entry_load(const gchar *data, gsize len, GError **error)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) error_local = NULL;
	JsonNode *root;

	if (len > SDT_HISTORY_ENTRY_MAX_SIZE) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: why a history entry is damaged, in parentheses */
			    _("%" PRIu64 " bytes, more than a history entry can be"),
			    (uint64_t) len);
		return NULL;
	}
	if (len > 0 && memchr(data, '\0', len) != NULL) {
		/* Translators: why a history entry is damaged, in parentheses */
		g_set_error_literal(error, SDT_ERROR, SDT_ERROR_INVALID_DATA, _("a NUL byte"));
		return NULL;
	}
	if (!json_parser_load_from_data(parser, data, (gssize) len, &error_local)) {
		g_autofree gchar *where = sdt_json_parse_problem(error_local);
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: why a history entry is damaged, in parentheses;
			     * then where its text stops being JSON */
			    _("not JSON: %s"),
			    where);
		return NULL;
	}
	root = json_parser_get_root(parser);
	if (root == NULL || !JSON_NODE_HOLDS_OBJECT(root)) {
		/* Translators: why a history entry is damaged, in parentheses */
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("not a JSON object"));
		return NULL;
	}
	return json_node_copy(root);
}

SdtHistoryEntry *
sdt_history_entry_parse_data(const gchar *data, gsize len, GError **error)
{
	g_autoptr(JsonNode) root = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(data != NULL || len == 0, NULL);

	root = sdt_history_entry_load(data, len, error);
	if (root == NULL)
		return NULL;
	/* a "\ud800" escape decodes to bytes that are not UTF-8: replace them visibly (a
	 * kind stays invalid, every member keeps its type) */
	sdt_json_sanitize_utf8(root);
	return sdt_history_entry_from_json(json_node_get_object(root), error);
}

SdtHistoryEntry *
sdt_history_entry_parse(const gchar *text, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL, NULL);

	return sdt_history_entry_parse_data(text, strlen(text), error);
}

SdtBenchRecord *
sdt_history_entry_get_bench(const SdtHistoryEntry *entry, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(entry != NULL, NULL);

	g_return_val_if_fail(g_strcmp0(entry->kind, KIND_BENCH) == 0, NULL);

	return sdt_bench_record_from_json(entry->doc, error);
}

SdtCheckResult *
sdt_history_entry_get_check(const SdtHistoryEntry *entry, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(entry != NULL, NULL);

	g_return_val_if_fail(g_strcmp0(entry->kind, KIND_CHECK) == 0, NULL);

	return sdt_check_result_from_json(entry->doc, error);
}

SdtVerifyReport *
sdt_history_entry_get_verify(const SdtHistoryEntry *entry, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(entry != NULL, NULL);

	g_return_val_if_fail(g_strcmp0(entry->kind, KIND_VERIFY) == 0, NULL);

	return sdt_verify_report_from_json(entry->doc, error);
}

/* the string member @name of @obj (may be NULL), NULL when absent or of another type */
static const gchar *
sdt_history_entry_str(JsonObject *obj, const gchar *name)
{
	JsonNode *n = obj != NULL ? json_object_get_member(obj, name) : NULL;

	if (n == NULL || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
		return NULL;
	return json_node_get_string(n);
}

/* the object member @name of @obj (may be NULL), or NULL */
static JsonObject *
sdt_history_entry_obj(JsonObject *obj, const gchar *name)
{
	JsonNode *n = obj != NULL ? json_object_get_member(obj, name) : NULL;

	return n != NULL && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

const gchar *
sdt_history_entry_get_boot_id(const SdtHistoryEntry *entry)
{
	g_return_val_if_fail(entry != NULL, NULL);
	return sdt_history_entry_str(entry->doc, KEY_BOOT_ID);
}

const gchar *
sdt_history_entry_get_config_sha256(const SdtHistoryEntry *entry)
{
	g_return_val_if_fail(entry != NULL, NULL);
	return sdt_history_entry_str(entry->doc, KEY_CONFIG_SHA256);
}

void
sdt_history_entry_get_change(const SdtHistoryEntry *entry, SdtHistoryEntryChange *change)
{
	g_return_if_fail(entry != NULL);
	g_return_if_fail(change != NULL);

	change->id = sdt_history_entry_str(entry->doc, KEY_ID);
	change->what =
		sdt_history_entry_str(sdt_history_entry_obj(entry->doc, KEY_ACTION), KEY_WHAT);
	change->next_id = sdt_history_entry_str(entry->doc, KEY_NEXT_ID);
	change->decision = sdt_history_entry_str(entry->doc, KEY_DECISION);
}

void
sdt_history_entry_get_card(const SdtHistoryEntry *entry, SdtHistoryEntryCard *card)
{
	JsonObject *c;
	JsonObject *target;

	g_return_if_fail(entry != NULL);
	g_return_if_fail(card != NULL);

	c = sdt_history_entry_obj(entry->doc, KEY_CARD);
	target = sdt_history_entry_obj(entry->doc, KEY_TARGET);
	card->id = sdt_history_entry_str(c, KEY_ID);
	card->name = sdt_history_entry_str(c, KEY_NAME);
	card->serial = sdt_history_entry_str(c, KEY_SERIAL);
	card->stand_in = target != NULL &&
			 json_object_get_boolean_member_with_default(target, KEY_STAND_IN, FALSE);
}

gboolean
sdt_history_entry_has_identity(const SdtHistoryEntry *entry)
{
	g_return_val_if_fail(entry != NULL, FALSE);
	return json_object_has_member(entry->doc, KEY_IDENTITY);
}

/* the writing direction: the document as it was written or read */

JsonNode *
sdt_history_entry_to_json(const SdtHistoryEntry *entry)
{
	JsonNode *node;

	g_return_val_if_fail(entry != NULL, NULL);

	node = json_node_new(JSON_NODE_OBJECT);
	json_node_set_object(node, entry->doc);
	return node;
}

gchar *
sdt_history_entry_to_string(const SdtHistoryEntry *entry)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(entry != NULL, NULL);

	node = sdt_history_entry_to_json(entry);
	return sdt_json_to_string(node, TRUE);
}

JsonArray *
sdt_history_entry_list_to_json(GPtrArray *entries)
{
	JsonArray *array = json_array_new();

	for (guint i = 0; entries != NULL && i < entries->len; i++)
		json_array_add_element(array,
				       sdt_history_entry_to_json(g_ptr_array_index(entries, i)));
	return array;
}
