/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * A note of the benchmark engine (the result's "notes", in English: "raw-read
 * skipped: No device node for 254:0") as a translated sentence a user
 * understands. Notes it does not know are translated as they are.
 */
gchar *sdt_bench_words_note_plain(const gchar *note);

/* a figure's spread in percent as "±1.2 %", or "—" when it is unknown (< 0) */
gchar *sdt_bench_words_spread_text(gdouble spread_percent);

G_END_DECLS
