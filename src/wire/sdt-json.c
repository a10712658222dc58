/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "sdt-error.h"
#include "sdt-json.h"
#include "sdt-json-private.h"
#include "sdt-utf8.h"

gchar *
sdt_json_format_double(gdouble value)
{
	gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

	if (!isfinite(value))
		return g_strdup(g_ascii_dtostr(buf, sizeof(buf), value));
	for (gint precision = 1; precision <= 17; precision++) {
		gchar format[8];
		g_snprintf(format, sizeof(format), "%%.%dg", precision);
		g_ascii_formatd(buf, sizeof(buf), format, value);
		if (g_ascii_strtod(buf, NULL) == value)
			break;
	}
	/* a whole number stays a double for the reader: 25.0, as json-glib writes it */
	if (strpbrk(buf, ".eE") == NULL)
		return g_strconcat(buf, ".0", NULL);
	return g_strdup(buf);
}

/* the characters json-glib writes in a number */
static gboolean
sdt_json_is_number_char(gchar c)
{
	return g_ascii_isdigit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

gchar *
sdt_json_to_string(JsonNode *node, gboolean pretty)
{
	g_autofree gchar *text = json_to_string(node, pretty);
	GString *out = g_string_sized_new(strlen(text));
	const gchar *p = text;

	/* json-glib's own output: strings are quoted with \-escapes, and a number
	 * outside a string starts with a digit or a minus sign */
	while (*p != '\0') {
		if (*p == '"') {
			const gchar *start = p++;
			while (*p != '\0' && *p != '"')
				p += (*p == '\\' && p[1] != '\0') ? 2 : 1;
			if (*p == '"')
				p++;
			g_string_append_len(out, start, p - start);
		} else if (g_str_has_prefix(p, "inf") || g_str_has_prefix(p, "-inf") ||
			   g_str_has_prefix(p, "nan") || g_str_has_prefix(p, "-nan")) {
			/* JSON has no infinity or NaN (a number like 1e999 read from a
			 * file becomes one): json-glib would write invalid JSON */
			while (g_ascii_isalnum(*p) || *p == '-' || *p == '.' || *p == '+')
				p++;
			g_string_append(out, "null");
		} else if (g_ascii_isdigit(*p) || *p == '-') {
			const gchar *start = p;
			g_autofree gchar *token = NULL;
			while (sdt_json_is_number_char(*p))
				p++;
			token = g_strndup(start, p - start);
			if (strpbrk(token, ".eE") != NULL) {
				g_autofree gchar *number =
					sdt_json_format_double(g_ascii_strtod(token, NULL));
				g_string_append(out, number);
			} else {
				g_string_append(out, token);
			}
		} else {
			g_string_append_c(out, *p++);
		}
	}
	return g_string_free(out, FALSE);
}

/* the member's name, and null for its value when it is not @known */
static gboolean
sdt_json_member_known(JsonBuilder *b, const gchar *name, gboolean known)
{
	json_builder_set_member_name(b, name);
	if (!known)
		json_builder_add_null_value(b);
	return known;
}

void
sdt_json_int_or_null(JsonBuilder *b, const gchar *name, gboolean known, gint64 value)
{
	if (sdt_json_member_known(b, name, known))
		json_builder_add_int_value(b, value);
}

void
sdt_json_string_or_null(JsonBuilder *b, const gchar *name, const gchar *value)
{
	if (sdt_json_member_known(b, name, value != NULL))
		json_builder_add_string_value(b, value);
}

void
sdt_json_bool_or_null(JsonBuilder *b, const gchar *name, gboolean known, gboolean value)
{
	if (sdt_json_member_known(b, name, known))
		json_builder_add_boolean_value(b, value);
}

static void
sdt_json_double_or_null(JsonBuilder *b, const gchar *name, gboolean known, gdouble value)
{
	if (sdt_json_member_known(b, name, known))
		json_builder_add_double_value(b, value);
}

void
sdt_json_number_or_null(JsonBuilder *b, const gchar *name, gdouble value)
{
	sdt_json_double_or_null(b, name, !isnan(value), value);
}

/**
 * sdt_json_parse_problem:
 * @parse_error: what json_parser_load_from_data() set
 *
 * Where JSON text stops being JSON, in words of SD Tuner's catalogue: json-glib's
 * own message ("<data>:1:51: Parse error: unexpected end of file, ...") is English
 * from the helper, which no reader could translate.
 *
 * Returns: (transfer full): "line L, character C", or a sentence without a place
 */
gchar *
sdt_json_parse_problem(const GError *parse_error)
{
	guint64 line = 0;
	guint64 column = 0;
	const gchar *m = parse_error != NULL ? parse_error->message : NULL;
	const gchar *p = m != NULL ? strchr(m, ':') : NULL;
	gchar *end = NULL;

	if (p != NULL) {
		line = g_ascii_strtoull(p + 1, &end, 10);
		if (end != NULL && *end == ':')
			column = g_ascii_strtoull(end + 1, &end, 10);
	}
	if (line > 0 && column > 0 && end != NULL && *end == ':')
		/* Translators: where a file stops being valid JSON */
		return g_strdup_printf(_("at line %" PRIu64 ", character %" PRIu64), line, column);
	return g_strdup(_("its text is not well-formed"));
}

/**
 * sdt_json_parse_object:
 * @text: the document's text
 * @len: its length in bytes
 * @error: "it is not valid JSON (…)" or "it is not a JSON object", SDT_ERROR_INVALID_DATA,
 *   for a message that names the document
 *
 * The first step of a codec's reader: text to the object its members are read from.
 *
 * Returns: (transfer full): the object, or NULL
 */
JsonObject *
sdt_json_parse_object(const gchar *text, gsize len, GError **error)
{
	g_autoptr(JsonParser) parser = NULL;
	g_autoptr(GError) local = NULL;
	JsonNode *root;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL || len == 0, NULL);

	parser = json_parser_new_immutable();
	if (!json_parser_load_from_data(parser, text != NULL ? text : "", (gssize) len, &local)) {
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
	return json_object_ref(json_node_get_object(root));
}

static guint
sdt_json_sanitize_object(JsonNode *node)
{
	JsonObject *obj = json_node_get_object(node);
	g_autoptr(GList) members = json_object_get_members(obj);
	gboolean bad_name = FALSE;
	guint n = 0;

	for (GList *l = members; l != NULL; l = l->next)
		bad_name |= !g_utf8_validate(l->data, -1, NULL);
	/* a member name cannot be renamed in place: rebuild the object, in order */
	if (bad_name) {
		g_autoptr(JsonObject) fixed = json_object_new();
		for (GList *l = members; l != NULL; l = l->next) {
			const gchar *name = l->data;
			g_autofree gchar *valid = sdt_utf8_make_valid(name, -1);
			n += g_strcmp0(valid, name) != 0;
			json_object_set_member(fixed,
					       valid,
					       json_node_copy(json_object_get_member(obj, name)));
		}
		json_node_set_object(node, fixed);
		obj = fixed;
		g_list_free(g_steal_pointer(&members));
		members = json_object_get_members(obj);
	}
	for (GList *l = members; l != NULL; l = l->next)
		n += sdt_json_sanitize_utf8(json_object_get_member(obj, l->data));
	return n;
}

guint
sdt_json_sanitize_utf8(JsonNode *node)
{
	guint n = 0;

	if (node == NULL)
		return 0;
	switch (json_node_get_node_type(node)) {
	case JSON_NODE_OBJECT:
		return sdt_json_sanitize_object(node);
	case JSON_NODE_ARRAY: {
		JsonArray *array = json_node_get_array(node);
		for (guint i = 0; i < json_array_get_length(array); i++)
			n += sdt_json_sanitize_utf8(json_array_get_element(array, i));
		return n;
	}
	case JSON_NODE_VALUE:
		if (json_node_get_value_type(node) == G_TYPE_STRING) {
			const gchar *str = json_node_get_string(node);
			if (str != NULL && !g_utf8_validate(str, -1, NULL)) {
				g_autofree gchar *valid = sdt_utf8_make_valid(str, -1);
				json_node_set_string(node, valid);
				return 1;
			}
		}
		return 0;
	case JSON_NODE_NULL:
	default:
		return 0;
	}
}

void
sdt_json_put_int(JsonBuilder *b, const gchar *name, gint64 value)
{
	json_builder_set_member_name(b, name);
	json_builder_add_int_value(b, value);
}

void
sdt_json_put_bool(JsonBuilder *b, const gchar *name, gboolean value)
{
	json_builder_set_member_name(b, name);
	json_builder_add_boolean_value(b, value);
}

void
sdt_json_put_strings(JsonBuilder *b, const gchar *name, GPtrArray *strings)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_array(b);
	for (guint i = 0; strings != NULL && i < strings->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(strings, i));
	json_builder_end_array(b);
}

/* a reply of the helper: one JSON object (the app and the CLI read documents with their
 * codecs; this is the parser those codecs share) */
JsonNode *
sdt_json_reader_parse(const gchar *json, GError **error)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) error_local = NULL;
	JsonNode *root;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	if (!json_parser_load_from_data(parser, json, -1, &error_local)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("The SD Tuner service sent a reply that is not valid JSON: %s"),
			    error_local->message);
		return NULL;
	}
	root = json_parser_get_root(parser);
	if (root == NULL || !JSON_NODE_HOLDS_OBJECT(root)) {
		g_set_error_literal(
			error,
			SDT_ERROR,
			SDT_ERROR_INVALID_DATA,
			_("The SD Tuner service sent a reply that is not a JSON object"));
		return NULL;
	}
	return json_node_copy(root);
}
