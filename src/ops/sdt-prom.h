/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The Prometheus text exposition format (version 0.0.4), what node_exporter's
 * textfile collector reads: per metric family one "# HELP" and one "# TYPE"
 * line, then its samples, no timestamps.  Label values are made valid UTF-8
 * (each invalid byte becomes U+FFFD) and escaped (backslash, double quote,
 * line feed); a value that is not a number (NaN, ±Inf: unknown) leaves its
 * sample out, and a family without samples is left out whole.  Metric names
 * and HELP texts are an interface: English, never translated.
 */

typedef enum {
	SDT_PROM_GAUGE,
	SDT_PROM_COUNTER,
} SdtPromType;

typedef struct _SdtProm SdtProm;

void sdt_prom_free(SdtProm *prom);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtProm, sdt_prom_free)

/*
 * Writes @text to @path atomically, as the textfile collector needs (it may
 * read at any moment): a temporary file in the same folder, fsync, mode 0644
 * (node_exporter runs as its own user), rename over @path, fsync of the
 * folder.  On any error (folder missing, read-only, full) nothing is left but
 * what was at @path before, and @error names the file and what to do.  The
 * folder is opened once, never through a symbolic link, and every step is
 * made relative to it; a folder of another user, or one others may write
 * (unless sticky), is refused (issue 33: a root process never follows what
 * another user planted).
 */
gboolean sdt_prom_write_file(const gchar *path, const gchar *text, GError **error);

G_END_DECLS
