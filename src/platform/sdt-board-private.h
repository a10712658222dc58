/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-board.h"

G_BEGIN_DECLS

/*
 * What src/platform shares of sdt-board only among its own files and its tests (the
 * public interface is sdt-board.h).  Private to src/platform: tests/check-shape.py
 * fails any other file that includes it.
 */

const gchar *sdt_board_source_to_string(SdtBoardSource source);

/* FALSE for 0, an unlisted old-style code, or a new-style code with a reserved field */
gboolean sdt_board_revision_decode(guint32 code, SdtRevision *rev);

/* "a02082", or NULL without a revision code */
gchar *sdt_board_get_revision_string(const SdtBoard *board);

/*
 * Pure detection from the raw bytes of the files (each may be %NULL when the
 * file is missing; lengths are byte counts, the bytes need no terminator).
 * Problems become translated strings appended to @warnings.
 */
SdtBoard *sdt_board_new_from_data(const guint8 *dt_revision,
				  gsize dt_revision_len,
				  const gchar *cpuinfo,
				  gsize cpuinfo_len,
				  const gchar *compatible,
				  gsize compatible_len,
				  const gchar *model,
				  gsize model_len,
				  GPtrArray *warnings);

/* reads the files under the context's root; never fails, an unknown board is a result */
SdtBoard *sdt_board_detect(SdtContext *ctx, GPtrArray *warnings);

/*
 * The core clock the running system reports, in Hz, or 0 when no reading is
 * available: the rate of the firmware core clock in debugfs
 * (/sys/kernel/debug/clk/fw-clk-core/clk_rate, older kernels "vpu"), the clock
 * the sdhost controller divides (docs/PLATFORM.md §2.3).  @source is set to
 * the file read, as given (under the context's root prefix in tests).
 */
guint64 sdt_board_read_core_clock_hz(SdtContext *ctx, gchar **source);

G_END_DECLS
