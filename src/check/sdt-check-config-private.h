/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-check-config.h"

G_BEGIN_DECLS

/*
 * What src/check shares of sdt-check-config only among its own files and its tests
 * (the public interface is sdt-check-config.h).  Private to src/check:
 * tests/check-shape.py fails any other file that includes it.
 */

/* file systems whose FIEMAP offsets are offsets on their block device */
gboolean sdt_check_config_fs_supported(const gchar *filesystem);

/* the candidate real sizes below @claim, ascending (powers of two, marketing sizes) */
GArray *sdt_check_config_candidate_sizes(guint64 claim);

/* orders guint64 values (and structs that begin with one) */
gint sdt_check_config_cmp_u64(gconstpointer a, gconstpointer b);

G_END_DECLS
