/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * The History page's lines, one per history entry, in the user's language: the
 * kinds and identifiers the history stores are words here (issue 24).
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>

#include "sdt-history-words.h"
#include "sdt-l10n-record.h"
#include "sdt-l10n.h"
#include "sdt-loop-state.h"

static gchar *
sdt_history_words_time(const gchar *iso)
{
	return iso != NULL ? sdt_l10n_time(iso) : g_strdup("?");
}

/* a test's figure (MB/s or IOPS) and its spread in the same unit (-1 unknown) */
gdouble
sdt_history_words_figure(const SdtBenchRecord *summary,
			 const gchar *name,
			 gboolean iops,
			 gdouble *spread)
{
	*spread = -1;
	if (summary == NULL)
		return -1;
	for (guint i = 0; i < summary->tests->len; i++) {
		SdtBenchRecordTest *row = g_ptr_array_index(summary->tests, i);
		if (g_strcmp0(row->name, name) == 0 && row->valid) {
			gdouble value = iops ? row->iops : row->mb_s;
			if (isfinite(row->ci_percent) && row->ci_percent >= 0)
				*spread = value * row->ci_percent / 100;
			return value;
		}
	}
	return -1;
}

static gchar *
sdt_history_words_bench(const SdtBenchRecord *s, const gchar *when)
{
	gdouble spread;
	gdouble rd = sdt_history_words_figure(s, "seq-read", FALSE, &spread);
	gdouble rr = sdt_history_words_figure(s, "rand-4k-read-qd1", TRUE, &spread);

	if (s != NULL && s->stand_in)
		/* Translators: a history line: time, folder, sequential MB/s,
		 * random IOPS of a benchmark that did not run on the SD card */
		return g_strdup_printf(_("%s  Benchmark of a stand-in folder, not the "
					 "SD card (%s): reads %.1f MB/s, %.0f random "
					 "reads per second"),
				       when,
				       s->path != NULL ? s->path : "?",
				       MAX(rd, 0.0),
				       MAX(rr, 0.0));
	/* Translators: a history line: time, sequential MB/s, random IOPS */
	return g_strdup_printf(_("%s  Benchmark: reads %.1f MB/s, %.0f random reads per second"),
			       when,
			       MAX(rd, 0.0),
			       MAX(rr, 0.0));
}

gchar *
sdt_history_words_entry_text(const SdtClientHistoryEntry *entry)
{
	const gchar *kind = entry->kind;
	const gchar *id = entry->id;
	g_autofree gchar *when = sdt_history_words_time(entry->time);

	if (g_strcmp0(kind, "bench") == 0)
		return sdt_history_words_bench(entry->bench, when);
	if (g_strcmp0(kind, "apply") == 0 && entry->trial)
		/* Translators: a history line: time, recommendation id; a trial is in
		 * tryboot.txt only, for one restart */
		return g_strdup_printf(_("%s  Prepared a trial of %s"), when, id != NULL ? id : "");
	if (g_strcmp0(kind, "apply") == 0)
		/* Translators: a history line: time, recommendation id */
		return g_strdup_printf(_("%s  Applied %s"), when, id != NULL ? id : "");
	if (g_strcmp0(kind, "revert") == 0 && entry->trial_cancelled && !entry->changed)
		/* Translators: a history line: time */
		return g_strdup_printf(_("%s  Cancelled SD Tuner's trial (config.txt unchanged)"),
				       when);
	if (g_strcmp0(kind, "revert") == 0)
		/* Translators: a history line: time */
		return g_strdup_printf(_("%s  Reverted SD Tuner's change"), when);
	if (g_strcmp0(kind, "check") == 0)
		/* Translators: a history line: time, the verdict (genuine, fake, ...), the
		 * check's reason */
		return g_strdup_printf(_("%s  Authenticity check: %s. %s"),
				       when,
				       sdt_l10n_record_check_verdict(entry->verdict),
				       entry->reason != NULL ? sdt_l10n_tr(entry->reason) : "");
	if (g_strcmp0(kind, "soak") == 0 && entry->soak_mismatches == 0)
		/* Translators: a history line: time */
		return g_strdup_printf(_("%s  Soak test: every byte read back intact"), when);
	if (g_strcmp0(kind, "soak") == 0 && entry->soak_mismatches > 0)
		/* Translators: a history line: time, a number of bytes */
		return g_strdup_printf(ngettext("%s  Soak test: %" PRId64 " byte read back wrong",
						"%s  Soak test: %" PRId64 " bytes read back wrong",
						(gulong) MIN(entry->soak_mismatches, G_MAXLONG)),
				       when,
				       (int64_t) entry->soak_mismatches);
	if (g_strcmp0(kind, "verify") == 0) {
		g_autofree gchar *what =
			sdt_loop_state_decision_text(entry->verification->decision,
						     id,
						     sdt_verify_report_reason(entry->verification),
						     sdt_loop_state_failure(entry->verification));
		if (what != NULL)
			return g_strdup_printf("%s  %s", when, what);
	}
	return g_strdup_printf("%s  %s", when, sdt_l10n_record_history_kind(kind));
}
