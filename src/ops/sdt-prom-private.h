/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-prom.h"

G_BEGIN_DECLS

/*
 * What src/ops shares of sdt-prom only among its own files and its tests (the public
 * interface is sdt-prom.h).  Private to src/ops: tests/check-shape.py fails any other
 * file that includes it.
 */

SdtProm *sdt_prom_new(void);

/*
 * Adds a sample to the family @name (created at its first sample, in that
 * order; later calls for the same name must give the same @type and @help).
 * @labels: NULL, or names and values in turn, NULL-terminated
 * ({"test", "seq-write", NULL}); a NULL value is an empty label value.
 */
void sdt_prom_add(SdtProm *prom,
		  const gchar *name,
		  SdtPromType type,
		  const gchar *help,
		  const gchar *const *labels,
		  gdouble value);

/* the exposition text, UTF-8, ending in a line feed (empty when nothing was added) */
gchar *sdt_prom_to_string(SdtProm *prom);

/* @value with the format's escapes (\\, \", \n) after sdt_utf8_make_valid() */
gchar *sdt_prom_escape_label_value(const gchar *value);

G_END_DECLS
