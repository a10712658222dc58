/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>
#include <umockdev.h>

#include "sdt-context.h"

G_BEGIN_DECLS

/*
 * What the C tests of the ops layer share: a scratch root built from a fixture of
 * tests/data/roots (real files on a disk-backed file system), the SD device chain of its
 * tests/data/umockdev file in a UMockdevTestbed (the test binary runs under
 * umockdev-wrapper), as tools/json-snapshot.sh builds them for `sdtunerctl --root`.
 */
typedef struct {
	gchar *path;              /* the scratch root */
	UMockdevTestbed *testbed; /* NULL for a fixture without a .umockdev file */
	SdtContext *ctx;          /* the context on @path */
} SdtTestRoot;

/* a copy of tests/data/roots/@fixture; @config (a file of tests/data/config, or NULL for
 * none) as boot/firmware/config.txt; with @history the entries of tests/data/history in
 * the state dir (var/lib/sd-tuner/history) */
SdtTestRoot *sdt_test_root_new(const gchar *fixture, const gchar *config, gboolean history);
void sdt_test_root_free(SdtTestRoot *root);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtTestRoot, sdt_test_root_free)

/* @rel under the root (a new string) */
gchar *sdt_test_root_file(SdtTestRoot *root, const gchar *rel);
/* writes @text to @rel under the root, creating the folders */
void sdt_test_root_write(SdtTestRoot *root, const gchar *rel, const gchar *text);
/* the text of @rel under the root, asserted readable */
gchar *sdt_test_root_read(SdtTestRoot *root, const gchar *rel);

/* the member at @path of a JSON document: "card.capacity_bytes", "entries.0.kind";
 * asserted to be there */
JsonNode *sdt_test_root_json_get(JsonNode *node, const gchar *path);
const gchar *sdt_test_root_json_str(JsonNode *node, const gchar *path);
gint64 sdt_test_root_json_int(JsonNode *node, const gchar *path);
gdouble sdt_test_root_json_double(JsonNode *node, const gchar *path);
gboolean sdt_test_root_json_bool(JsonNode *node, const gchar *path);
gboolean sdt_test_root_json_is_null(JsonNode *node, const gchar *path);
guint sdt_test_root_json_len(JsonNode *node, const gchar *path);

G_END_DECLS
