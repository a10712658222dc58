/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sdt-board.h"
#include "sdt-config-txt.h"
#include "sdt-error.h"
#include "sdt-file.h"

/* nesting deeper than this is not followed (and a cycle is cut at once) */
#define SDT_CONFIG_TXT_MAX_INCLUDE_DEPTH 4

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
 * is sdt_config_txt_check_editable().
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

/* filters ----------------------------------------------------------------- */

typedef struct {
	const gchar *name;
	gint codes[6];
} SdtConfigModelFilter;

/* PLATFORM.md §3.3; -1 ends a list.  [pi5] is taken to reach the whole BCM2712
 * family as [pi4] reaches the BCM2711 family ([UNVERIFIED] for 500 and CM5). */
static const SdtConfigModelFilter sdt_config_model_filters[] = {
	{"pi1", {0x00, 0x01, 0x02, 0x03, 0x06, -1}},
	{"pi2", {0x04, -1}},
	{"pi3", {0x08, 0x0a, 0x0d, 0x0e, 0x10, -1}},
	{"pi3+", {0x0d, 0x0e, -1}},
	{"pi4", {0x11, 0x13, 0x14, 0x15, -1}},
	{"pi400", {0x13, -1}},
	{"cm4", {0x14, -1}},
	{"cm4s", {0x15, -1}},
	{"pi5", {0x17, 0x18, 0x19, 0x1a, -1}},
	{"cm5", {0x18, 0x1a, -1}},
	{"pi500", {0x19, -1}},
	{"pi0", {0x09, 0x0c, 0x12, -1}},
	{"pi0w", {0x0c, 0x12, -1}},
	{"pi02", {0x12, -1}},
};

/* the type codes of the board table (sdt-board.c) */
const gint *
sdt_config_known_type_codes(guint *n_codes)
{
	static gint codes[64];
	static gsize n_once = 0;

	if (g_once_init_enter(&n_once)) {
		guint n_models = 0;
		const SdtBoardModel *models = sdt_board_model_table(&n_models);
		gsize n = 0;
		for (guint i = 0; i < n_models && n < G_N_ELEMENTS(codes); i++)
			codes[n++] = (gint) models[i].type_code;
		g_once_init_leave(&n_once, n);
	}
	if (n_codes != NULL)
		*n_codes = (guint) n_once;
	return codes;
}

static gboolean
sdt_config_parse_board_type(const gchar *name, gint *type_code)
{
	const gchar *v;
	gchar *endptr = NULL;
	guint64 val;

	if (!g_str_has_prefix(name, "board-type="))
		return FALSE;
	v = name + strlen("board-type=");
	if (v[0] == '\0')
		return FALSE;
	if (g_str_has_prefix(v, "0x")) {
		if (v[2] == '\0')
			return FALSE;
		val = g_ascii_strtoull(v + 2, &endptr, 16);
	} else {
		val = g_ascii_strtoull(v, &endptr, 10);
	}
	if (endptr == NULL || *endptr != '\0' || val > 0xff)
		return FALSE;
	*type_code = (gint) val;
	return TRUE;
}

/**
 * sdt_config_filter_parse:
 * @name: the text between [ and ]
 * @type: (out): the filter type
 *
 * Returns: %FALSE for [all], which is no filter but clears them all
 */
gboolean
sdt_config_filter_parse(const gchar *name, SdtConfigFilterType *type)
{
	gint code;

	if (g_strcmp0(name, "all") == 0)
		return FALSE;
	if (g_strcmp0(name, "none") == 0)
		*type = SDT_CONFIG_FILTER_NONE;
	else if (g_strcmp0(name, "tryboot") == 0)
		*type = SDT_CONFIG_FILTER_TRYBOOT;
	else if (g_str_has_prefix(name, "EDID="))
		*type = SDT_CONFIG_FILTER_EDID;
	else if (g_str_has_prefix(name, "HDMI:"))
		*type = SDT_CONFIG_FILTER_HDMI;
	else if (g_str_has_prefix(name, "gpio") && g_ascii_isdigit(name[4]))
		*type = SDT_CONFIG_FILTER_GPIO;
	else if (g_str_has_prefix(name, "boot_partition=") || g_str_has_prefix(name, "partition="))
		*type = SDT_CONFIG_FILTER_PARTITION;
	else if (g_str_has_prefix(name, "0x") && name[2] != '\0' &&
		 strspn(name + 2, "0123456789abcdefABCDEF") == strlen(name + 2))
		*type = SDT_CONFIG_FILTER_SERIAL;
	else if (sdt_config_parse_board_type(name, &code))
		*type = SDT_CONFIG_FILTER_MODEL;
	else if ((g_str_has_prefix(name, "pi") || g_str_has_prefix(name, "cm")) &&
		 g_ascii_isdigit(name[2]))
		/* [pi6] and other model names the firmware may not know: a model
		 * filter that matches none of the documented boards */
		*type = SDT_CONFIG_FILTER_MODEL;
	else
		*type = SDT_CONFIG_FILTER_UNKNOWN;
	return TRUE;
}

gboolean
sdt_config_model_filter_matches(const gchar *filter, gint type_code)
{
	gint code;

	if (type_code < 0)
		return FALSE;
	if (sdt_config_parse_board_type(filter, &code))
		return code == type_code;
	for (guint i = 0; i < G_N_ELEMENTS(sdt_config_model_filters); i++) {
		if (g_strcmp0(sdt_config_model_filters[i].name, filter) != 0)
			continue;
		for (guint j = 0; sdt_config_model_filters[i].codes[j] >= 0; j++) {
			if (sdt_config_model_filters[i].codes[j] == type_code)
				return TRUE;
		}
		return FALSE;
	}
	return FALSE;
}

SdtConfigApplies
sdt_config_filter_state_applies(const SdtConfigFilterState *state, gint type_code, gboolean tryboot)
{
	SdtConfigApplies result = SDT_CONFIG_APPLIES_YES;

	if (state->active[SDT_CONFIG_FILTER_NONE] != NULL)
		return SDT_CONFIG_APPLIES_NO;
	if (state->active[SDT_CONFIG_FILTER_MODEL] != NULL &&
	    !sdt_config_model_filter_matches(state->active[SDT_CONFIG_FILTER_MODEL], type_code))
		return SDT_CONFIG_APPLIES_NO;
	if (state->active[SDT_CONFIG_FILTER_TRYBOOT] != NULL && !tryboot)
		return SDT_CONFIG_APPLIES_NO;
	for (guint i = SDT_CONFIG_FILTER_EDID; i < SDT_CONFIG_FILTER_LAST; i++) {
		if (state->active[i] != NULL)
			result = SDT_CONFIG_APPLIES_MAYBE;
	}
	return result;
}

gchar *
sdt_config_filter_state_to_string(const SdtConfigFilterState *state)
{
	GString *str = g_string_new(NULL);

	for (guint i = 0; i < SDT_CONFIG_FILTER_LAST; i++) {
		if (state->active[i] == NULL)
			continue;
		if (str->len > 0)
			g_string_append_c(str, ' ');
		g_string_append_printf(str, "[%s]", state->active[i]);
	}
	if (str->len == 0)
		g_string_append(str, "[all]");
	return g_string_free(str, FALSE);
}

/* @filter is the line's own string: the state lives as long as the model */
static void
sdt_config_filter_state_update(SdtConfigFilterState *state, const gchar *filter)
{
	SdtConfigFilterType type = SDT_CONFIG_FILTER_UNKNOWN;

	if (!sdt_config_filter_parse(filter, &type)) {
		memset(state, 0, sizeof(*state));
		return;
	}
	state->active[type] = filter;
}

/* entries ----------------------------------------------------------------- */

gchar *
sdt_config_line_overlay_name(const SdtConfigLine *line)
{
	return g_strdup(line->overlay);
}

typedef struct {
	GPtrArray *entries; /* NULL: only count */
	SdtConfigFilterState state;
	const gchar *overlay;
	gint type_code;
	gboolean tryboot;
	GPtrArray *stack;   /* file names being walked, to cut include cycles */
	SdtConfigTxt *root; /* the main file: holds the included files */
	guint n_lines;      /* lines met so far, each include counted every time */
	guint n_includes;   /* include lines followed so far */
	gboolean over_budget;
} SdtConfigWalk;

/* the file an include line of @self names, or NULL when it is not attached */
static SdtConfigTxt *
sdt_config_txt_lookup_include(SdtConfigTxt *self, SdtConfigTxt *root, const gchar *name)
{
	SdtConfigTxt *inc = g_hash_table_lookup(self->includes, name);
	if (inc == NULL && root != NULL)
		inc = g_hash_table_lookup(root->includes, name);
	return inc;
}

/* the entry of one line, with the filter state and overlay scope it meets */
static void
sdt_config_txt_walk_add(SdtConfigTxt *self,
			SdtConfigWalk *walk,
			SdtConfigLine *line,
			guint i,
			gboolean in_include,
			guint main_index)
{
	SdtConfigEntry *entry = g_new0(SdtConfigEntry, 1);

	if (line->kind == SDT_CONFIG_LINE_FILTER)
		sdt_config_filter_state_update(&walk->state, line->filter);
	entry->line = line;
	entry->file = self->name;
	entry->lineno = i + 1;
	entry->in_include = in_include;
	entry->index = in_include ? main_index : i;
	entry->state = walk->state;
	entry->applies =
		sdt_config_filter_state_applies(&walk->state, walk->type_code, walk->tryboot);
	/* names point into the model's lines: nothing user-controlled is interned */
	if (line->overlay != NULL && entry->applies != SDT_CONFIG_APPLIES_NO)
		walk->overlay = line->overlay[0] == '\0' ? NULL : line->overlay;
	entry->overlay = walk->overlay;
	g_ptr_array_add(walk->entries, entry);
}

static void
sdt_config_txt_walk(SdtConfigTxt *self, SdtConfigWalk *walk, gboolean in_include, guint main_index)
{
	g_ptr_array_add(walk->stack, self->name);
	for (guint i = 0; i < self->lines->len && !walk->over_budget; i++) {
		SdtConfigLine *line = g_ptr_array_index(self->lines, i);
		SdtConfigTxt *inc;
		gboolean cycle = FALSE;

		/* the budget bounds the work whatever the include lines say (the main
		 * file is bounded by its size); a model loaded by
		 * sdt_config_txt_load_includes() never reaches it */
		if (in_include && ++walk->n_lines > SDT_CONFIG_TXT_MAX_WALK_LINES) {
			walk->over_budget = TRUE;
			break;
		}
		if (walk->entries != NULL)
			sdt_config_txt_walk_add(self, walk, line, i, in_include, main_index);
		if (line->kind != SDT_CONFIG_LINE_INCLUDE)
			continue;
		inc = sdt_config_txt_lookup_include(self, walk->root, line->value);
		for (guint j = 0; j < walk->stack->len; j++)
			cycle |= g_strcmp0(g_ptr_array_index(walk->stack, j), line->value) == 0;
		if (inc == NULL || cycle || walk->stack->len >= SDT_CONFIG_TXT_MAX_INCLUDE_DEPTH)
			continue;
		if (++walk->n_includes > SDT_CONFIG_TXT_MAX_WALK_INCLUDES) {
			walk->over_budget = TRUE;
			break;
		}
		sdt_config_txt_walk(inc, walk, TRUE, in_include ? main_index : i);
	}
	g_ptr_array_remove_index(walk->stack, walk->stack->len - 1);
}

/**
 * sdt_config_txt_get_entries:
 * @type_code: the board's revision-code type, or %SDT_CONFIG_TYPE_CODE_NONE
 * @tryboot: evaluate as booted with the tryboot flag
 *
 * Returns: (transfer container) (element-type SdtConfigEntry): every line of the
 * file and of its attached includes, in the order the firmware reads them
 */
GPtrArray *
sdt_config_txt_get_entries(SdtConfigTxt *self, gint type_code, gboolean tryboot)
{
	SdtConfigWalk walk = {NULL};
	g_autoptr(GPtrArray) stack = g_ptr_array_new();

	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), NULL);
	walk.entries = g_ptr_array_new_with_free_func(g_free);
	walk.type_code = type_code;
	walk.tryboot = tryboot;
	walk.stack = stack;
	walk.root = self;
	sdt_config_txt_walk(self, &walk, FALSE, 0);
	return walk.entries;
}

/**
 * sdt_config_txt_check_include_budget:
 *
 * Checks that reading the file with its attached includes in place stays
 * within %SDT_CONFIG_TXT_MAX_WALK_LINES lines and
 * %SDT_CONFIG_TXT_MAX_WALK_INCLUDES followed include lines.  The count stops
 * as soon as a budget is exceeded, so the check itself is bounded.
 */
gboolean
sdt_config_txt_check_include_budget(SdtConfigTxt *self, GError **error)
{
	SdtConfigWalk walk = {NULL};
	g_autoptr(GPtrArray) stack = g_ptr_array_new();

	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), FALSE);
	walk.stack = stack;
	walk.root = self;
	sdt_config_txt_walk(self, &walk, FALSE, 0);
	if (!walk.over_budget)
		return TRUE;
	if (walk.n_lines > SDT_CONFIG_TXT_MAX_WALK_LINES)
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    ngettext("the files included from config.txt add up to more than "
				     "%u line when every include line is read in place (an "
				     "include line inside an included file reads that file "
				     "again each time): remove the nested include lines by hand",
				     "the files included from config.txt add up to more than "
				     "%u lines when every include line is read in place (an "
				     "include line inside an included file reads that file "
				     "again each time): remove the nested include lines by hand",
				     SDT_CONFIG_TXT_MAX_WALK_LINES),
			    (guint) SDT_CONFIG_TXT_MAX_WALK_LINES);
	else
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    ngettext("config.txt and its included files follow more than %u "
				     "include line (an include line inside an included file "
				     "reads that file again each time): remove the nested "
				     "include lines by hand",
				     "config.txt and its included files follow more than %u "
				     "include lines (an include line inside an included file "
				     "reads that file again each time): remove the nested "
				     "include lines by hand",
				     SDT_CONFIG_TXT_MAX_WALK_INCLUDES),
			    (guint) SDT_CONFIG_TXT_MAX_WALK_INCLUDES);
	return FALSE;
}

/* a name the firmware resolves in the boot folder: no way out of it */
static gboolean
sdt_config_include_name_ok(const gchar *name)
{
	return name[0] != '\0' && name[0] != '/' && strstr(name, "..") == NULL;
}

/**
 * sdt_config_txt_load_includes:
 * @dir: the folder config.txt is in; include names are relative to it
 *
 * Reads the files the `include` lines name (and those their include lines
 * name, as deep as the walk follows them), each file once, with
 * sdt_file_read_bounded(), and attaches them to @self.  A missing include is
 * skipped, as the firmware skips it.  The work is bounded: at most
 * %SDT_CONFIG_TXT_MAX_INCLUDE_FILES files and
 * %SDT_CONFIG_TXT_MAX_INCLUDE_BYTES bytes are read, and the walk over them
 * must stay within sdt_config_txt_check_include_budget(); past any of these
 * it fails with %SDT_ERROR_INVALID_DATA and a message that says what to do.
 */
gboolean
sdt_config_txt_load_includes(SdtConfigTxt *self, const gchar *dir, GError **error)
{
	g_autoptr(GPtrArray) queue = g_ptr_array_new_with_free_func(g_object_unref);
	g_autoptr(GArray) depths = g_array_new(FALSE, FALSE, sizeof(guint));
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	guint64 total_bytes = 0;
	guint n_files = 0;
	guint depth = 0;

	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), FALSE);
	g_return_val_if_fail(dir != NULL, FALSE);
	g_ptr_array_add(queue, g_object_ref(self));
	g_array_append_val(depths, depth);
	/* breadth first: each file is read once, however often it is named */
	for (guint q = 0; q < queue->len; q++) {
		SdtConfigTxt *cfg = g_ptr_array_index(queue, q);
		g_autoptr(GPtrArray) names = NULL;

		depth = g_array_index(depths, guint, q);
		/* the walk does not follow include lines of a file this deep */
		if (depth + 1 >= SDT_CONFIG_TXT_MAX_INCLUDE_DEPTH)
			continue;
		names = sdt_config_txt_get_include_names(cfg);
		for (guint i = 0; i < names->len; i++) {
			const gchar *name = g_ptr_array_index(names, i);
			g_autofree gchar *path = NULL;
			g_autofree gchar *data = NULL;
			g_autoptr(GError) error_local = NULL;
			g_autoptr(GBytes) bytes = NULL;
			g_autoptr(SdtConfigTxt) inc = NULL;
			GStatBuf st;
			gsize len = 0;
			guint next = depth + 1;

			if (!sdt_config_include_name_ok(name) || g_strcmp0(name, self->name) == 0 ||
			    g_hash_table_contains(seen, name))
				continue;
			g_hash_table_add(seen, g_strdup(name));
			path = g_build_filename(dir, name, NULL);
			/* a missing include is skipped, as the firmware does */
			if (g_lstat(path, &st) != 0)
				continue;
			if (++n_files > SDT_CONFIG_TXT_MAX_INCLUDE_FILES) {
				g_set_error(
					error,
					SDT_ERROR,
					SDT_ERROR_INVALID_DATA,
					ngettext("config.txt and its included files name more "
						 "than %u different file to include; SD Tuner "
						 "reads at most that many: remove include lines "
						 "by hand",
						 "config.txt and its included files name more "
						 "than %u different files to include; SD Tuner "
						 "reads at most that many: remove include lines "
						 "by hand",
						 SDT_CONFIG_TXT_MAX_INCLUDE_FILES),
					(guint) SDT_CONFIG_TXT_MAX_INCLUDE_FILES);
				return FALSE;
			}
			if (S_ISREG(st.st_mode) &&
			    total_bytes + (guint64) st.st_size > SDT_CONFIG_TXT_MAX_INCLUDE_BYTES) {
				g_set_error(error,
					    SDT_ERROR,
					    SDT_ERROR_INVALID_DATA,
					    _("the files included from config.txt add up to more "
					      "than %u KiB (%s is %" PRIu64 " bytes); "
					      "SD Tuner reads at most that much: remove include "
					      "lines or shrink those files by hand"),
					    (guint) (SDT_CONFIG_TXT_MAX_INCLUDE_BYTES / 1024),
					    name,
					    (guint64) st.st_size);
				return FALSE;
			}
			if (!sdt_file_read_bounded(path,
						   SDT_CONFIG_TXT_MAX_INCLUDE_BYTES - total_bytes,
						   &data,
						   &len,
						   &error_local)) {
				if (g_error_matches(error_local, SDT_ERROR, SDT_ERROR_NOT_FOUND))
					continue;
				g_set_error(error,
					    SDT_ERROR,
					    SDT_ERROR_INVALID_DATA,
					    /* Translators: a file name, then the reason */
					    _("config.txt includes %s, which cannot be read (%s): "
					      "make it a plain file or remove the include line"),
					    name,
					    error_local->message);
				return FALSE;
			}
			total_bytes += len;
			bytes = g_bytes_new_take(g_steal_pointer(&data), len);
			inc = sdt_config_txt_new_from_bytes(bytes, name);
			sdt_config_txt_set_include(self, name, inc);
			g_ptr_array_add(queue, g_object_ref(inc));
			g_array_append_val(depths, next);
		}
	}
	return sdt_config_txt_check_include_budget(self, error);
}

GPtrArray *
sdt_config_txt_lines_in_effect(SdtConfigTxt *self, gint type_code)
{
	g_autoptr(GPtrArray) all = sdt_config_txt_get_entries(self, type_code, FALSE);
	GPtrArray *result = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < all->len; i++) {
		SdtConfigEntry *entry = g_ptr_array_index(all, i);
		SdtConfigLineKind kind = entry->line->kind;
		if (entry->applies == SDT_CONFIG_APPLIES_NO)
			continue;
		if (kind != SDT_CONFIG_LINE_SETTING && kind != SDT_CONFIG_LINE_INCLUDE &&
		    kind != SDT_CONFIG_LINE_DIRECTIVE)
			continue;
		g_ptr_array_add(result, g_memdup2(entry, sizeof(*entry)));
	}
	return result;
}

const gchar *
sdt_config_txt_get_value(SdtConfigTxt *self, const gchar *key, gint type_code)
{
	g_autoptr(GPtrArray) lines = sdt_config_txt_lines_in_effect(self, type_code);
	const gchar *value = NULL;

	for (guint i = 0; i < lines->len; i++) {
		SdtConfigEntry *entry = g_ptr_array_index(lines, i);
		if (entry->applies == SDT_CONFIG_APPLIES_YES &&
		    entry->line->kind == SDT_CONFIG_LINE_SETTING &&
		    g_strcmp0(entry->line->key, key) == 0)
			value = entry->line->value;
	}
	return value;
}

/* SD lines ----------------------------------------------------------------- */

static gboolean
sdt_config_str_in(const gchar *str, const gchar *const *list)
{
	return str != NULL && g_strv_contains(list, str);
}

static void
sdt_config_param_classify(const gchar *overlay,
			  const gchar *param,
			  SdtConfigSdKind *kinds,
			  gint *overclock_mhz,
			  gchar **cqe)
{
	static const gchar *const tweak_params[] = {"force_pio",
						    "pio_limit",
						    "debug",
						    "poll_once",
						    NULL};
	static const gchar *const base_params[] = {"sd_force_pio",
						   "sd_pio_limit",
						   "sd_poll_once",
						   "sd_debug",
						   NULL};
	static const gchar *const sdio_params[] = {"sdio_overclock",
						   "poll_once",
						   "bus_width",
						   "gpios_22_25",
						   "gpios_34_37",
						   "gpios_34_39",
						   NULL};
	const gchar *eq = strchr(param, '=');
	g_autofree gchar *name = eq != NULL ? g_strndup(param, eq - param) : g_strdup(param);
	const gchar *value = eq != NULL ? eq + 1 : NULL;

	g_strstrip(name);
	if (g_strcmp0(overlay, "sdtweak") == 0 || g_strcmp0(overlay, "sdhost") == 0) {
		if (g_strcmp0(name, "overclock_50") == 0) {
			*kinds |= SDT_CONFIG_SD_OVERCLOCK;
			if (value != NULL && overclock_mhz != NULL)
				*overclock_mhz = atoi(value);
			return;
		}
		if (sdt_config_str_in(name, tweak_params)) {
			*kinds |= SDT_CONFIG_SD_OTHER_PARAM;
			return;
		}
	}
	if (g_strcmp0(overlay, "sdio") == 0 && sdt_config_str_in(name, sdio_params)) {
		*kinds |= SDT_CONFIG_SD_OVERLAY_SDIO;
		return;
	}
	if (g_strcmp0(name, "sd_overclock") == 0) {
		*kinds |= SDT_CONFIG_SD_OVERCLOCK;
		if (value != NULL && overclock_mhz != NULL)
			*overclock_mhz = atoi(value);
	} else if (g_strcmp0(name, "sd_cqe") == 0) {
		*kinds |= SDT_CONFIG_SD_CQE;
		if (cqe != NULL) {
			g_free(*cqe);
			*cqe = g_strdup(value != NULL ? value : "");
			g_strstrip(*cqe);
		}
	} else if (sdt_config_str_in(name, base_params)) {
		*kinds |= SDT_CONFIG_SD_OTHER_PARAM;
	}
}

/**
 * sdt_config_line_sd_kind:
 * @overlay: (nullable): for dtparam lines, the overlay in scope
 *
 * Returns: what the line does to the SD interface, %SDT_CONFIG_SD_NONE if nothing
 */
SdtConfigSdKind
sdt_config_line_sd_kind(const SdtConfigLine *line,
			const gchar *overlay,
			gint *overclock_mhz,
			gchar **cqe)
{
	SdtConfigSdKind kinds = SDT_CONFIG_SD_NONE;
	g_auto(GStrv) params = NULL;
	const gchar *scope = overlay;
	guint start = 0;

	if (line->kind != SDT_CONFIG_LINE_SETTING)
		return SDT_CONFIG_SD_NONE;
	if (g_strcmp0(line->key, "dtoverlay") == 0) {
		params = g_strsplit(line->value, ",", -1);
		if (params[0] == NULL)
			return SDT_CONFIG_SD_NONE;
		g_strstrip(params[0]);
		if (g_strcmp0(params[0], "sdtweak") == 0)
			kinds |= SDT_CONFIG_SD_OVERLAY_SDTWEAK;
		else if (g_strcmp0(params[0], "sdhost") == 0)
			kinds |= SDT_CONFIG_SD_OVERLAY_SDHOST;
		else if (g_strcmp0(params[0], "sdio") == 0)
			kinds |= SDT_CONFIG_SD_OVERLAY_SDIO;
		else
			return SDT_CONFIG_SD_NONE;
		scope = params[0];
		start = 1;
	} else if (g_strcmp0(line->key, "dtparam") == 0 ||
		   g_strcmp0(line->key, "device_tree_param") == 0) {
		params = g_strsplit(line->value, ",", -1);
	} else {
		return SDT_CONFIG_SD_NONE;
	}
	for (guint i = start; params[i] != NULL; i++)
		sdt_config_param_classify(scope, params[i], &kinds, overclock_mhz, cqe);
	return kinds;
}

gboolean
sdt_config_txt_find_block(SdtConfigTxt *self, guint *begin, guint *end)
{
	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), FALSE);
	for (guint i = 0; i < self->lines->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(self->lines, i);
		if (!g_str_has_prefix(line->text, SDT_CONFIG_BLOCK_BEGIN))
			continue;
		for (guint j = i + 1; j < self->lines->len; j++) {
			SdtConfigLine *line2 = g_ptr_array_index(self->lines, j);
			if (g_strcmp0(line2->text, SDT_CONFIG_BLOCK_END) == 0) {
				if (begin != NULL)
					*begin = i;
				if (end != NULL)
					*end = j;
				return TRUE;
			}
		}
		return FALSE;
	}
	return FALSE;
}

/* the recommendation id named by the begin marker, or NULL */
gchar *
sdt_config_txt_get_block_id(SdtConfigTxt *self)
{
	guint begin = 0;
	const gchar *p;
	SdtConfigLine *line;

	if (!sdt_config_txt_find_block(self, &begin, NULL))
		return NULL;
	line = g_ptr_array_index(self->lines, begin);
	p = line->text + strlen(SDT_CONFIG_BLOCK_BEGIN);
	return g_strndup(p, strcspn(p, " \t"));
}

static void
sdt_config_sd_setting_free(SdtConfigSdSetting *setting)
{
	g_free((gpointer) setting->entry);
	g_free(setting->cqe);
	g_free(setting->filter_text);
	g_free(setting);
}

/* boards with Wi-Fi and Bluetooth: WLAN on the controller the sdhost overlay
 * disables, and the mini UART as primary UART (PLATFORM.md §2.1, §2.3) */
gboolean
sdt_config_board_has_wireless(gint type_code)
{
	return type_code == 0x08 || type_code == 0x0c || type_code == 0x0d || type_code == 0x0e ||
	       type_code == 0x12;
}

GPtrArray *
sdt_config_txt_sd_settings(SdtConfigTxt *self, gint type_code)
{
	g_autoptr(GPtrArray) entries = sdt_config_txt_get_entries(self, type_code, FALSE);
	GPtrArray *result =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_config_sd_setting_free);
	guint begin = 0;
	guint end = 0;
	gboolean has_block = sdt_config_txt_find_block(self, &begin, &end);

	for (guint i = 0; i < entries->len; i++) {
		SdtConfigEntry *entry = g_ptr_array_index(entries, i);
		SdtConfigSdSetting *setting;
		gint mhz = 0;
		gchar *cqe = NULL;
		SdtConfigSdKind kinds =
			sdt_config_line_sd_kind(entry->line, entry->overlay, &mhz, &cqe);

		if (kinds == SDT_CONFIG_SD_NONE) {
			g_free(cqe);
			continue;
		}
		setting = g_new0(SdtConfigSdSetting, 1);
		setting->entry = g_memdup2(entry, sizeof(*entry));
		setting->kinds = kinds;
		setting->overclock_mhz = mhz;
		setting->cqe = cqe;
		setting->managed = has_block && !entry->in_include && entry->index > begin &&
				   entry->index < end;
		setting->kills_wlan_here = (kinds & SDT_CONFIG_SD_OVERLAY_SDHOST) != 0 &&
					   entry->applies != SDT_CONFIG_APPLIES_NO &&
					   sdt_config_board_has_wireless(type_code);
		setting->filter_text = sdt_config_filter_state_to_string(&entry->state);
		g_ptr_array_add(result, setting);
	}
	return result;
}

GPtrArray *
sdt_config_txt_sd_settings_in_effect(SdtConfigTxt *self, gint type_code)
{
	GPtrArray *all = sdt_config_txt_sd_settings(self, type_code);
	for (guint i = all->len; i > 0; i--) {
		SdtConfigSdSetting *setting = g_ptr_array_index(all, i - 1);
		if (setting->entry->applies == SDT_CONFIG_APPLIES_NO)
			g_ptr_array_remove_index(all, i - 1);
	}
	return all;
}

/* validation -------------------------------------------------------------- */

gboolean
sdt_config_txt_check_bytes(GBytes *bytes, GError **error)
{
	gsize len = 0;
	const gchar *data = g_bytes_get_data(bytes, &len);
	const gchar *nul;

	if (len > SDT_CONFIG_TXT_MAX_SIZE) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("the file is %zu bytes long; a boot configuration "
			      "is a few kilobytes and SD Tuner edits files up to 1 MiB: check that "
			      "it is the right file and shrink it by hand"),
			    len);
		return FALSE;
	}
	nul = len > 0 ? memchr(data, '\0', len) : NULL;
	if (nul != NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("the file contains a NUL byte at offset %lu, so it is damaged or not "
			      "a text file: restore it from a backup before changing it"),
			    (gulong) (nul - data));
		return FALSE;
	}
	return TRUE;
}

gboolean
sdt_config_txt_check_editable(SdtConfigTxt *self, GError **error)
{
	gboolean has_setting = FALSE;
	gboolean has_none = FALSE;
	guint n_begin = 0;
	guint n_end = 0;
	guint first_disabled = 0;

	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), FALSE);
	for (guint i = 0; i < self->lines->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(self->lines, i);
		if (line->text_len > SDT_CONFIG_TXT_MAX_RAW_LINE) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    /* Translators: the firmware reads only 98 characters */
				    _("line %u is %lu characters long; the firmware "
				      "reads only the first %d characters of a line: shorten or "
				      "remove that line by hand"),
				    i + 1,
				    (gulong) line->text_len,
				    SDT_CONFIG_TXT_MAX_LINE_LENGTH);
			return FALSE;
		}
		if (line->kind == SDT_CONFIG_LINE_FILTER_BAD) {
			g_autofree gchar *shown = g_strstrip(g_strdup(line->text));
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("line %u “%s” opens a filter with “[” but never closes it "
				      "with “]”, so it is unclear which boards the lines after it "
				      "apply to: fix that line by hand"),
				    i + 1,
				    shown);
			return FALSE;
		}
		if (line->kind == SDT_CONFIG_LINE_SETTING ||
		    line->kind == SDT_CONFIG_LINE_INCLUDE ||
		    line->kind == SDT_CONFIG_LINE_DIRECTIVE)
			has_setting = TRUE;
		if (line->kind == SDT_CONFIG_LINE_FILTER && g_strcmp0(line->filter, "none") == 0)
			has_none = TRUE;
		if (g_str_has_prefix(line->text, SDT_CONFIG_BLOCK_BEGIN))
			n_begin++;
		if (g_strcmp0(line->text, SDT_CONFIG_BLOCK_END) == 0)
			n_end++;
		if (first_disabled == 0 && g_str_has_prefix(line->text, SDT_CONFIG_DISABLED_MARK))
			first_disabled = i + 1;
	}
	if (has_none && !has_setting) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("the file holds no settings, only a [none] filter that "
				      "switches everything off; this is not a usable boot "
				      "configuration: check that the right boot partition is "
				      "mounted"));
		return FALSE;
	}
	if (n_begin > 1 || n_end > 1 || n_begin != n_end ||
	    (n_begin == 1 && !sdt_config_txt_find_block(self, NULL, NULL))) {
		g_set_error_literal(
			error,
			SDT_ERROR,
			SDT_ERROR_INVALID_DATA,
			_("SD Tuner's marked block is damaged (a begin or end marker "
			  "is missing or repeated): remove the SD Tuner lines by hand or "
			  "restore a backup from /var/lib/sd-tuner/backups"));
		return FALSE;
	}
	/* "…\r" at the very end: a line feed after it would turn it into a CRLF ending */
	if (self->lines->len > 0) {
		SdtConfigLine *last = g_ptr_array_index(self->lines, self->lines->len - 1);
		if (last->eol[0] == '\0' && last->text_len > 0 &&
		    last->text[last->text_len - 1] == '\r') {
			g_set_error_literal(
				error,
				SDT_ERROR,
				SDT_ERROR_INVALID_DATA,
				_("the file ends with a carriage return (CR) but no line "
				  "feed, so a line cannot be added after it without "
				  "changing that line: end the file with a normal line "
				  "break, then try again"));
			return FALSE;
		}
	}
	/* a line SD Tuner switched off, but its block was removed by hand */
	if (first_disabled > 0 && n_begin == 0) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("line %u was switched off by SD Tuner (it starts with “%s”), but "
			      "SD Tuner's block has been removed by hand: delete that marker to "
			      "switch the line back on, or delete the line, then try again"),
			    first_disabled,
			    SDT_CONFIG_DISABLED_MARK);
		return FALSE;
	}
	return TRUE;
}
