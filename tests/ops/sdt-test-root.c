/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "sdt-test-root.h"
#include "sdt-test-util.h"

static void
sdt_test_root_copy(const gchar *from, const gchar *to)
{
	const gchar *argv[] = {"cp", "-a", from, to, NULL};
	g_autoptr(GError) error = NULL;
	gint status = 0;

	g_spawn_sync(NULL,
		     (gchar **) argv,
		     NULL,
		     G_SPAWN_SEARCH_PATH,
		     NULL,
		     NULL,
		     NULL,
		     NULL,
		     &status,
		     &error);
	g_assert_no_error(error);
	g_assert_true(g_spawn_check_wait_status(status, NULL));
}

static void
sdt_test_root_add_history(SdtTestRoot *root)
{
	g_autofree gchar *from = g_test_build_filename(G_TEST_DIST, "data", "history", NULL);
	g_autofree gchar *to = sdt_test_root_file(root, "var/lib/sd-tuner/history");
	g_autoptr(GDir) dir = g_dir_open(from, 0, NULL);
	const gchar *name;

	g_assert_nonnull(dir);
	g_assert_cmpint(g_mkdir_with_parents(to, 0755), ==, 0);
	while ((name = g_dir_read_name(dir)) != NULL) {
		g_autofree gchar *src = g_build_filename(from, name, NULL);
		g_autofree gchar *dst = g_build_filename(to, name, NULL);
		sdt_test_root_copy(src, dst);
	}
}

SdtTestRoot *
sdt_test_root_new(const gchar *fixture, const gchar *config, gboolean history)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *tree = g_test_build_filename(G_TEST_DIST, "data", "roots", fixture, NULL);
	g_autofree gchar *mock = g_strdup_printf("%s/data/umockdev/%s.umockdev",
						 g_test_get_dir(G_TEST_DIST),
						 fixture);
	g_autofree gchar *scratch = g_dir_make_tmp("sdt-ops-XXXXXX", &error);
	SdtTestRoot *root = g_new0(SdtTestRoot, 1);

	g_assert_no_error(error);
	root->path = g_build_filename(scratch, "root", NULL);
	g_free(g_steal_pointer(&scratch));
	sdt_test_root_copy(tree, root->path);
	g_assert_cmpint(g_mkdir_with_parents(root->path, 0755), ==, 0);
	if (config != NULL) {
		g_autofree gchar *src =
			g_test_build_filename(G_TEST_DIST, "data", "config", config, NULL);
		g_autofree gchar *dst = sdt_test_root_file(root, "boot/firmware/config.txt");
		g_autofree gchar *dir = g_path_get_dirname(dst);
		g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
		sdt_test_root_copy(src, dst);
	}
	if (history)
		sdt_test_root_add_history(root);
	if (g_file_test(mock, G_FILE_TEST_IS_REGULAR)) {
		root->testbed = umockdev_testbed_new();
		g_assert_true(umockdev_testbed_add_from_file(root->testbed, mock, &error));
		g_assert_no_error(error);
	}
	root->ctx = sdt_context_new(root->path, &error);
	g_assert_no_error(error);
	return root;
}

void
sdt_test_root_free(SdtTestRoot *root)
{
	g_autofree gchar *scratch = NULL;

	if (root == NULL)
		return;
	g_clear_object(&root->ctx);
	g_clear_object(&root->testbed);
	scratch = g_path_get_dirname(root->path);
	g_assert_true(sdt_test_rm_rf(scratch));
	g_free(root->path);
	g_free(root);
}

gchar *
sdt_test_root_file(SdtTestRoot *root, const gchar *rel)
{
	return g_build_filename(root->path, rel, NULL);
}

void
sdt_test_root_write(SdtTestRoot *root, const gchar *rel, const gchar *text)
{
	g_autofree gchar *path = sdt_test_root_file(root, rel);
	g_autofree gchar *dir = g_path_get_dirname(path);
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	g_assert_true(g_file_set_contents(path, text, -1, &error));
	g_assert_no_error(error);
}

gchar *
sdt_test_root_read(SdtTestRoot *root, const gchar *rel)
{
	g_autofree gchar *path = sdt_test_root_file(root, rel);
	g_autoptr(GError) error = NULL;
	gchar *text = NULL;

	g_assert_true(g_file_get_contents(path, &text, NULL, &error));
	g_assert_no_error(error);
	return text;
}

JsonNode *
sdt_test_root_json_get(JsonNode *node, const gchar *path)
{
	g_auto(GStrv) parts = g_strsplit(path, ".", -1);

	for (guint i = 0; parts[i] != NULL; i++) {
		if (JSON_NODE_HOLDS_ARRAY(node)) {
			JsonArray *a = json_node_get_array(node);
			guint64 n = g_ascii_strtoull(parts[i], NULL, 10);
			if (n >= json_array_get_length(a))
				g_error("%s: no element %s", path, parts[i]);
			node = json_array_get_element(a, (guint) n);
		} else if (JSON_NODE_HOLDS_OBJECT(node)) {
			JsonObject *o = json_node_get_object(node);
			if (!json_object_has_member(o, parts[i]))
				g_error("%s: no member %s", path, parts[i]);
			node = json_object_get_member(o, parts[i]);
		} else {
			g_error("%s: %s is not in an object or array", path, parts[i]);
		}
	}
	return node;
}

const gchar *
sdt_test_root_json_str(JsonNode *node, const gchar *path)
{
	JsonNode *n = sdt_test_root_json_get(node, path);
	if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
		g_error("%s is not a string", path);
	return json_node_get_string(n);
}

gint64
sdt_test_root_json_int(JsonNode *node, const gchar *path)
{
	JsonNode *n = sdt_test_root_json_get(node, path);
	if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64)
		g_error("%s is not an integer", path);
	return json_node_get_int(n);
}

gdouble
sdt_test_root_json_double(JsonNode *node, const gchar *path)
{
	JsonNode *n = sdt_test_root_json_get(node, path);
	if (!JSON_NODE_HOLDS_VALUE(n))
		g_error("%s is not a number", path);
	return json_node_get_double(n);
}

gboolean
sdt_test_root_json_bool(JsonNode *node, const gchar *path)
{
	JsonNode *n = sdt_test_root_json_get(node, path);
	if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_BOOLEAN)
		g_error("%s is not a boolean", path);
	return json_node_get_boolean(n);
}

gboolean
sdt_test_root_json_is_null(JsonNode *node, const gchar *path)
{
	return JSON_NODE_HOLDS_NULL(sdt_test_root_json_get(node, path));
}

guint
sdt_test_root_json_len(JsonNode *node, const gchar *path)
{
	JsonNode *n = sdt_test_root_json_get(node, path);
	if (JSON_NODE_HOLDS_ARRAY(n))
		return json_array_get_length(json_node_get_array(n));
	if (JSON_NODE_HOLDS_OBJECT(n))
		return json_object_get_size(json_node_get_object(n));
	g_error("%s is not an array or object", path);
	return 0;
}
