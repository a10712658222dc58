/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * What the C tests share besides the config.txt oracle (sdt-test-config.h):
 * a scratch folder and the one way to remove a tree.
 */

/* a new folder from g_dir_make_tmp(@tmpl), asserted */
gchar *sdt_test_mkdtemp(const gchar *tmpl);

/* removes @path and everything under it (a link is removed, never followed);
 * TRUE if nothing of it is left */
gboolean sdt_test_rm_rf(const gchar *path);

G_END_DECLS
