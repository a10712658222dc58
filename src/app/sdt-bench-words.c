/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sdt-bench-words.h"
#include "sdt-l10n.h"

/* the engine's prefix of a left-out raw read (sdt-bench.c) and its causes
 * (sdt_bench_target_open_raw()) */
#define SDT_RAW_SKIPPED "raw-read skipped: "
#define SDT_NO_NODE     "No device node for "
#define SDT_CANNOT_OPEN "Cannot open "
/* sdt-ops-bench.c: the simulated board's test file */
#define SDT_SIMULATED "Simulated board: "

gchar *
sdt_bench_words_note_plain(const gchar *note)
{
	if (note == NULL)
		return NULL;
	if (g_str_has_prefix(note, SDT_RAW_SKIPPED)) {
		const gchar *why = note + strlen(SDT_RAW_SKIPPED);
		if (g_str_has_prefix(why, SDT_NO_NODE))
			return g_strdup(_("The test that reads the card directly was left out: "
					  "SD Tuner could not find the card's device."));
		if (g_str_has_prefix(why, SDT_CANNOT_OPEN))
			return g_strdup(_("The test that reads the card directly was left out: "
					  "the card's device could not be opened."));
		return g_strdup(_("The test that reads the card directly was left out."));
	}
	if (g_str_has_prefix(note, SDT_SIMULATED))
		return g_strdup(_("This board is simulated: these figures are the speed of a "
				  "disk of this computer, not of an SD card."));
	return sdt_l10n_translate(note);
}

gchar *
sdt_bench_words_spread_text(gdouble spread_percent)
{
	if (!isfinite(spread_percent) || spread_percent < 0)
		return g_strdup("—");
	/* Translators: the spread of a measured figure in percent, e.g. "±1.2 %" */
	return g_strdup_printf(_("±%.1f %%"), spread_percent);
}
