/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* the byte-exact model of config.txt: lines, their kinds, the attached includes */

#include "config.h"

#include <string.h>

#include "sdt-config-txt.h"
#include "sdt-config-txt-private.h"

struct _SdtConfigTxt {
	GObject parent_instance;
	gchar *name;
	GPtrArray *lines;     /* of SdtConfigLine */
	GHashTable *includes; /* name -> SdtConfigTxt; the main file holds every file loaded */
};

G_DEFINE_TYPE(SdtConfigTxt, sdt_config_txt, G_TYPE_OBJECT)

static void
sdt_config_line_free(SdtConfigLine *line)
{
	g_free(line->text);
	g_free(line->eol);
	g_free(line->key);
	g_free(line->value);
	g_free(line->filter);
	g_free(line->overlay);
	g_free(line);
}

static void
sdt_config_txt_finalize(GObject *object)
{
	SdtConfigTxt *self = SDT_CONFIG_TXT(object);
	g_free(self->name);
	g_ptr_array_unref(self->lines);
	g_hash_table_unref(self->includes);
	G_OBJECT_CLASS(sdt_config_txt_parent_class)->finalize(object);
}

static void
sdt_config_txt_class_init(SdtConfigTxtClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = sdt_config_txt_finalize;
}

static void
sdt_config_txt_init(SdtConfigTxt *self)
{
	self->lines = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_config_line_free);
	self->includes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_object_unref);
}

static gboolean
sdt_config_is_blank(gchar c)
{
	return c == ' ' || c == '\t';
}

static gchar *
sdt_config_strdup_trimmed(const gchar *start, const gchar *end)
{
	while (start < end && sdt_config_is_blank(*start))
		start++;
	while (end > start && (sdt_config_is_blank(end[-1]) || end[-1] == '\r'))
		end--;
	return g_strndup(start, end - start);
}

/* classifies one line; @text is NUL-terminated at the first NUL byte */
static void
sdt_config_line_classify(SdtConfigLine *line)
{
	const gchar *p = line->text;
	const gchar *eq;
	const gchar *ws;

	while (sdt_config_is_blank(*p))
		p++;
	if (*p == '\0') {
		line->kind = SDT_CONFIG_LINE_BLANK;
		return;
	}
	if (*p == '#') {
		line->kind = SDT_CONFIG_LINE_COMMENT;
		return;
	}
	if (*p == '[') {
		const gchar *close = strchr(p, ']');
		if (close == NULL) {
			line->kind = SDT_CONFIG_LINE_FILTER_BAD;
			return;
		}
		line->kind = SDT_CONFIG_LINE_FILTER;
		line->filter = g_strndup(p + 1, close - p - 1);
		return;
	}
	eq = strchr(p, '=');
	ws = strpbrk(p, " \t");
	if (eq != NULL && (ws == NULL || eq < ws)) {
		line->kind = SDT_CONFIG_LINE_SETTING;
		line->key = g_strndup(p, eq - p);
		line->value = sdt_config_strdup_trimmed(eq + 1, eq + 1 + strlen(eq + 1));
		if (g_strcmp0(line->key, "dtoverlay") == 0)
			line->overlay = g_strndup(line->value, strcspn(line->value, ","));
		return;
	}
	if (ws != NULL) {
		line->key = g_strndup(p, ws - p);
		line->value = sdt_config_strdup_trimmed(ws, ws + strlen(ws));
		line->kind = g_strcmp0(line->key, "include") == 0 ? SDT_CONFIG_LINE_INCLUDE
								  : SDT_CONFIG_LINE_DIRECTIVE;
		return;
	}
	line->kind = SDT_CONFIG_LINE_UNKNOWN;
}

static SdtConfigLine *
sdt_config_line_new(const gchar *start, gsize len, const gchar *eol)
{
	SdtConfigLine *line = g_new0(SdtConfigLine, 1);

	/* keep NUL bytes too: the text is written back with its full length */
	line->text = g_malloc(len + 1);
	memcpy(line->text, start, len);
	line->text[len] = '\0';
	line->text_len = len;
	line->eol = g_strdup(eol);
	sdt_config_line_classify(line);
	return line;
}

/**
 * sdt_config_txt_new_from_bytes:
 * @bytes: the file contents, any bytes
 * @name: the file name used in messages and entries, e.g. "config.txt"
 *
 * Never fails: every byte sequence is a model.  Whether SD Tuner will edit it
 * is sdt_config_editable_check().
 */
SdtConfigTxt *
sdt_config_txt_new_from_bytes(GBytes *bytes, const gchar *name)
{
	SdtConfigTxt *self = g_object_new(SDT_TYPE_CONFIG_TXT, NULL);
	gsize len = 0;
	const gchar *data = g_bytes_get_data(bytes, &len);
	gsize start = 0;

	self->name = g_strdup(name != NULL ? name : "config.txt");
	while (start < len) {
		const gchar *nl = memchr(data + start, '\n', len - start);
		if (nl == NULL) {
			g_ptr_array_add(self->lines,
					sdt_config_line_new(data + start, len - start, ""));
			break;
		} else {
			gsize end = nl - data;
			gboolean crlf = end > start && data[end - 1] == '\r';
			g_ptr_array_add(self->lines,
					sdt_config_line_new(data + start,
							    end - start - (crlf ? 1 : 0),
							    crlf ? "\r\n" : "\n"));
			start = end + 1;
		}
	}
	return self;
}

GBytes *
sdt_config_txt_to_bytes(SdtConfigTxt *self)
{
	GString *buf;

	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), NULL);
	/* a GString keeps a NUL after the data, so callers may treat it as text */
	buf = g_string_new(NULL);
	for (guint i = 0; i < self->lines->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(self->lines, i);
		g_string_append_len(buf, line->text, line->text_len);
		g_string_append(buf, line->eol);
	}
	return g_string_free_to_bytes(buf);
}

const gchar *
sdt_config_txt_get_name(SdtConfigTxt *self)
{
	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), NULL);
	return self->name;
}

GPtrArray *
sdt_config_txt_get_lines(SdtConfigTxt *self)
{
	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), NULL);
	return self->lines;
}

/* the line ending most lines use; LF for a file without any */
const gchar *
sdt_config_txt_get_eol_style(SdtConfigTxt *self)
{
	guint crlf = 0;
	guint lf = 0;

	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), "\n");
	for (guint i = 0; i < self->lines->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(self->lines, i);
		if (g_strcmp0(line->eol, "\r\n") == 0)
			crlf++;
		else if (g_strcmp0(line->eol, "\n") == 0)
			lf++;
	}
	return crlf > lf ? "\r\n" : "\n";
}

GPtrArray *
sdt_config_txt_get_include_names(SdtConfigTxt *self)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);

	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), names);
	for (guint i = 0; i < self->lines->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(self->lines, i);
		gboolean seen = FALSE;
		if (line->kind != SDT_CONFIG_LINE_INCLUDE || line->value[0] == '\0')
			continue;
		for (guint j = 0; j < names->len; j++)
			seen |= g_strcmp0(g_ptr_array_index(names, j), line->value) == 0;
		if (!seen)
			g_ptr_array_add(names, g_strdup(line->value));
	}
	return names;
}

void
sdt_config_txt_set_include(SdtConfigTxt *self, const gchar *name, SdtConfigTxt *included)
{
	g_return_if_fail(SDT_IS_CONFIG_TXT(self));
	g_return_if_fail(SDT_IS_CONFIG_TXT(included));
	g_hash_table_replace(self->includes, g_strdup(name), g_object_ref(included));
}

void
sdt_config_txt_copy_includes(SdtConfigTxt *self, SdtConfigTxt *from)
{
	GHashTableIter iter;
	gpointer key;
	gpointer value;

	g_return_if_fail(SDT_IS_CONFIG_TXT(self));
	g_return_if_fail(SDT_IS_CONFIG_TXT(from));
	g_hash_table_iter_init(&iter, from->includes);
	while (g_hash_table_iter_next(&iter, &key, &value))
		sdt_config_txt_set_include(self, key, value);
}

SdtConfigTxt *
sdt_config_txt_get_include(SdtConfigTxt *self, const gchar *name)
{
	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), NULL);
	return g_hash_table_lookup(self->includes, name);
}
