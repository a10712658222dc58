/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sdt-error.h"
#include "sdt-ops.h"
#include "sdt-test-root.h"

/*
 * sdt_ops_history(): the `history` document from the entries of tests/data/history in a
 * scratch state dir, a damaged entry named in "warnings", a state dir that is not one.
 */

static void
test_ops_history_entries(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, TRUE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = sdt_ops_history(root->ctx, &error);

	g_assert_no_error(error);
	/* oldest first: the apply, its revert, a benchmark */
	g_assert_cmpuint(sdt_test_root_json_len(node, "entries"), ==, 3);
	g_assert_cmpstr(sdt_test_root_json_str(node, "entries.0.kind"), ==, "apply");
	g_assert_cmpstr(sdt_test_root_json_str(node, "entries.0.id"), ==, "sd-overclock-100");
	g_assert_cmpstr(sdt_test_root_json_str(node, "entries.0.time"),
			==,
			"2026-01-01T00:00:00.000000Z");
	g_assert_false(sdt_test_root_json_bool(node, "entries.0.trial"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "entries.1.kind"), ==, "revert");
	g_assert_true(sdt_test_root_json_is_null(node, "entries.1.id"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "entries.2.kind"), ==, "bench");
	g_assert_cmpstr(sdt_test_root_json_str(node, "entries.2.tests.0.name"), ==, "seq-read");
	g_assert_cmpfloat_with_epsilon(sdt_test_root_json_double(node, "entries.2.tests.0.mb_s"),
				       22.5,
				       1e-9);
	/* nothing skipped: no "warnings" */
	g_assert_false(json_object_has_member(json_node_get_object(node), "warnings"));
}

/* no state dir yet (a fresh system): an empty history, not an error */
static void
test_ops_history_none_yet(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = sdt_ops_history(root->ctx, &error);

	g_assert_no_error(error);
	g_assert_cmpuint(sdt_test_root_json_len(node, "entries"), ==, 0);
}

/* a damaged entry (cut short, as by a power cut) is skipped and named; the rest stay */
static void
test_ops_history_damaged_entry(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, TRUE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = NULL;

	sdt_test_root_write(root,
			    "var/lib/sd-tuner/history/1767225600000003-apply.json",
			    "{\"kind\": \"apply\", \"id\": \"sd-ov");
	sdt_test_root_write(root,
			    "var/lib/sd-tuner/history/1767225600000004-bench.json",
			    "{\"kind\": \"bench\", \"time\": \"t\", \"tests\": 5}");
	node = sdt_ops_history(root->ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(sdt_test_root_json_len(node, "entries"), ==, 3);
	g_assert_cmpstr(sdt_test_root_json_str(node, "entries.2.kind"), ==, "bench");
	g_assert_cmpuint(sdt_test_root_json_len(node, "warnings"), ==, 2);
	g_assert_nonnull(
		strstr(sdt_test_root_json_str(node, "warnings.0"), "1767225600000003-apply.json"));
	g_assert_nonnull(
		strstr(sdt_test_root_json_str(node, "warnings.1"), "1767225600000004-bench.json"));
	g_assert_nonnull(strstr(sdt_test_root_json_str(node, "warnings.1"), "\"tests\""));
}

/* the history folder is a file: an error that names it, no document */
static void
test_ops_history_not_a_folder(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = NULL;

	sdt_test_root_write(root, "var/lib/sd-tuner/history", "not a folder\n");
	node = sdt_ops_history(root->ctx, &error);
	g_assert_null(node);
	g_assert_nonnull(error);
	g_assert_true(error->domain == SDT_ERROR);
	g_assert_nonnull(strstr(error->message, "history"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/ops-history/entries", test_ops_history_entries);
	g_test_add_func("/sdtuner/ops-history/none-yet", test_ops_history_none_yet);
	g_test_add_func("/sdtuner/ops-history/damaged-entry", test_ops_history_damaged_entry);
	g_test_add_func("/sdtuner/ops-history/not-a-folder", test_ops_history_not_a_folder);
	return g_test_run();
}
