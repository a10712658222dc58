/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdt-test-config.h"

const SdtTestFamily sdt_test_families[] = {
	{"1", 0x01},      {"1", 0x03},        {"cm1", 0x06}, {"2", 0x04},      {"zero", 0x09},
	{"zero-w", 0x0c}, {"zero-2-w", 0x12}, {"3", 0x08},   {"3-plus", 0x0d}, {"3a-plus", 0x0e},
	{"cm3", 0x0a},    {"cm3", 0x10},      {"4", 0x11},   {"400", 0x13},    {"cm4", 0x14},
	{"cm4", 0x15},    {"5", 0x17},        {"cm5", 0x18}, {"cm5", 0x1a},    {"500", 0x19},
};
const guint sdt_test_n_families = G_N_ELEMENTS(sdt_test_families);

static gint
sdt_test_strcmp(gconstpointer a, gconstpointer b)
{
	return g_strcmp0(*(const gchar **) a, *(const gchar **) b);
}

static guint
sdt_test_add_dir(GPtrArray *paths, const gchar *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	const gchar *name;

	if (d == NULL)
		return 0;
	while ((name = g_dir_read_name(d)) != NULL) {
		if (g_str_has_suffix(name, ".txt"))
			g_ptr_array_add(names, g_build_filename(dir, name, NULL));
	}
	g_ptr_array_sort(names, sdt_test_strcmp);
	for (guint i = 0; i < names->len; i++)
		g_ptr_array_add(paths, g_strdup(g_ptr_array_index(names, i)));
	return names->len;
}

GPtrArray *
sdt_test_corpus_files(SdtTestCorpus which)
{
	GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);
	const gchar *shared_dir = g_getenv("SDTUNER_SHARED_DIR");
	g_autofree gchar *dir = NULL;

	if (which == SDT_TEST_CORPUS_OWN) {
		dir = g_test_build_filename(G_TEST_DIST, "data", "config", NULL);
		sdt_test_add_dir(paths, dir);
		return paths;
	}
	if (shared_dir == NULL || shared_dir[0] == '\0') {
		g_test_skip("SDTUNER_SHARED_DIR is not set: the shared reference corpus "
			    "(SDTUNER_SHARED_DIR/data/config-corpus) is not checked");
		g_ptr_array_unref(paths);
		return NULL;
	}
	dir = g_build_filename(shared_dir, "data", "config-corpus", NULL);
	if (sdt_test_add_dir(paths, dir) == 0) {
		g_autofree gchar *why =
			g_strdup_printf("no shared corpus: %s has no .txt files", dir);
		g_test_skip(why);
		g_ptr_array_unref(paths);
		return NULL;
	}
	return paths;
}

/* for each board type, the model filters it sees (conditional.adoc) */
static const gchar *const *
sdt_test_oracle_seen(gint type_code)
{
	static const gchar *const pi1[] = {"pi1", NULL};
	static const gchar *const pi2[] = {"pi2", NULL};
	static const gchar *const pi3[] = {"pi3", NULL};
	static const gchar *const pi3p[] = {"pi3", "pi3+", NULL};
	static const gchar *const pi4[] = {"pi4", NULL};
	static const gchar *const pi400[] = {"pi4", "pi400", NULL};
	static const gchar *const cm4[] = {"pi4", "cm4", NULL};
	static const gchar *const cm4s[] = {"pi4", "cm4s", NULL};
	static const gchar *const pi5[] = {"pi5", NULL};
	static const gchar *const cm5[] = {"pi5", "cm5", NULL};
	static const gchar *const pi500[] = {"pi5", "pi500", NULL};
	static const gchar *const zero[] = {"pi0", NULL};
	static const gchar *const zerow[] = {"pi0", "pi0w", NULL};
	static const gchar *const zero2[] = {"pi0", "pi0w", "pi02", NULL};
	static const gchar *const nothing[] = {NULL};

	switch (type_code) {
	case 0x00:
	case 0x01:
	case 0x02:
	case 0x03:
	case 0x06:
		return pi1;
	case 0x04:
		return pi2;
	case 0x08:
	case 0x0a:
	case 0x10:
		return pi3;
	case 0x0d:
	case 0x0e:
		return pi3p;
	case 0x11:
		return pi4;
	case 0x13:
		return pi400;
	case 0x14:
		return cm4;
	case 0x15:
		return cm4s;
	case 0x17:
		return pi5;
	case 0x18:
	case 0x1a:
		return cm5;
	case 0x19:
		return pi500;
	case 0x09:
		return zero;
	case 0x0c:
		return zerow;
	case 0x12:
		return zero2;
	default:
		return nothing;
	}
}

static const gchar *
sdt_test_oracle_category(const gchar *name)
{
	if (strcmp(name, "none") == 0)
		return "none";
	if (strcmp(name, "tryboot") == 0)
		return "tryboot";
	if (strncmp(name, "board-type=", 11) == 0)
		return "model";
	if ((name[0] == 'p' && name[1] == 'i' && g_ascii_isdigit(name[2])) ||
	    (name[0] == 'c' && name[1] == 'm' && g_ascii_isdigit(name[2])))
		return "model";
	if (strncmp(name, "HDMI:", 5) == 0)
		return "hdmi";
	if (strncmp(name, "EDID=", 5) == 0)
		return "edid";
	if (strncmp(name, "gpio", 4) == 0 && g_ascii_isdigit(name[4]))
		return "gpio";
	if (strncmp(name, "boot_partition=", 15) == 0 || strncmp(name, "partition=", 10) == 0)
		return "partition";
	if (name[0] == '0' && name[1] == 'x' && name[2] != '\0' &&
	    strspn(name + 2, "0123456789abcdefABCDEF") == strlen(name + 2))
		return "serial";
	return "other";
}

static gboolean
sdt_test_oracle_model_seen(const gchar *name, gint type_code)
{
	const gchar *const *seen = sdt_test_oracle_seen(type_code);
	if (strncmp(name, "board-type=", 11) == 0) {
		const gchar *v = name + 11;
		gchar *end = NULL;
		glong val;
		if (*v == '\0' || (v[0] == '0' && v[1] == 'x' && v[2] == '\0'))
			return FALSE;
		val = (v[0] == '0' && v[1] == 'x') ? strtol(v + 2, &end, 16) : strtol(v, &end, 10);
		return *end == '\0' && val == type_code;
	}
	for (guint i = 0; seen[i] != NULL; i++) {
		if (strcmp(seen[i], name) == 0)
			return TRUE;
	}
	return FALSE;
}

GArray *
sdt_test_oracle_applies(const gchar *data, gsize len, gint type_code)
{
	GArray *result = g_array_new(FALSE, FALSE, sizeof(gint));
	g_autoptr(GHashTable) active = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	g_autofree gchar *copy = g_strndup(data, len);
	g_auto(GStrv) lines = g_strsplit(copy, "\n", -1);
	guint n = g_strv_length(lines);

	/* a final "\n" leaves an empty last piece that is not a line */
	if (n > 0 && lines[n - 1][0] == '\0')
		n--;
	for (guint i = 0; i < n; i++) {
		const gchar *p = lines[i];
		gint applies = 1;
		GHashTableIter iter;
		gpointer key;
		gpointer value;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '[' && strchr(p, ']') != NULL) {
			g_autofree gchar *name = g_strndup(p + 1, strchr(p, ']') - p - 1);
			if (strcmp(name, "all") == 0)
				g_hash_table_remove_all(active);
			else
				g_hash_table_insert(active,
						    (gpointer) sdt_test_oracle_category(name),
						    g_strdup(name));
		}
		g_hash_table_iter_init(&iter, active);
		while (g_hash_table_iter_next(&iter, &key, &value)) {
			if (strcmp(key, "none") == 0 || strcmp(key, "tryboot") == 0)
				applies = 0;
			else if (strcmp(key, "model") == 0) {
				if (!sdt_test_oracle_model_seen(value, type_code))
					applies = 0;
			} else if (applies == 1) {
				applies = 2;
			}
		}
		g_array_append_val(result, applies);
	}
	return result;
}

GPtrArray *
sdt_test_oracle_in_effect(const gchar *data, gsize len, gint type_code)
{
	g_autoptr(GArray) applies = sdt_test_oracle_applies(data, len, type_code);
	g_autofree gchar *copy = g_strndup(data, len);
	g_auto(GStrv) lines = g_strsplit(copy, "\n", -1);
	GPtrArray *result = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < applies->len; i++) {
		g_autofree gchar *text = g_strdup(lines[i]);
		gsize l = strlen(text);
		if (l > 0 && text[l - 1] == '\r')
			text[l - 1] = '\0';
		g_strstrip(text);
		if (g_array_index(applies, gint, i) == 0 || text[0] == '\0' || text[0] == '#' ||
		    text[0] == '[')
			continue;
		/* settings, includes and directives: a word, then "=" or a blank */
		if (strpbrk(text, "= \t") == NULL)
			continue;
		g_ptr_array_add(result,
				g_strdup_printf("%s\t%d", text, g_array_index(applies, gint, i)));
	}
	return result;
}
