/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-card-regs.h"

G_BEGIN_DECLS

/*
 * What src/platform shares of sdt-card-regs only among its own files and its tests
 * (the public interface is sdt-card-regs.h).  Private to src/platform:
 * tests/check-shape.py fails any other file that includes it.
 */

/* "YYYY-MM", or NULL if the month is invalid */
gchar *sdt_card_regs_cid_get_date(const SdtCid *cid);

gboolean sdt_card_regs_unhex(const gchar *hex,
			     const gchar *what,
			     guint8 *buf,
			     gsize n_bytes,
			     GError **error);

G_END_DECLS
