/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-check-words.h"
#include "sdt-l10n.h"
#include "sdt-l10n-record.h"

gchar *
sdt_check_words_result(const SdtCheckResult *r)
{
	g_return_val_if_fail(r != NULL, NULL);
	const gchar *verdict = r->verdict;
	GString *text = g_string_new(NULL);
	gdouble coverage = isnan(r->coverage) ? 0 : r->coverage;
	gdouble seconds = isnan(r->seconds) ? 0 : r->seconds;
	gdouble lo = r->capacity_at_least_bytes;
	gdouble hi = r->capacity_at_most_bytes;

	if (g_strcmp0(verdict, "genuine") == 0)
		g_string_append(text, _("Genuine: the card holds what it claims."));
	else if (g_strcmp0(verdict, "fake") == 0)
		g_string_append(text, _("Fake: the card holds less than it claims."));
	else
		g_string_append(text, _("Not determinable."));
	g_string_append_c(text, '\n');
	if (g_strcmp0(verdict, "fake") == 0 && !isnan(lo) && !isnan(hi)) {
		if (hi - lo < 1e6)
			/* Translators: the real capacity in MB (10^6 bytes), then the size
			 * past which files are lost, in MB */
			g_string_append_printf(text,
					       _("It really holds %.0f MB. Files written past "
						 "about %.0f MB are lost on this card: copy your "
						 "files off it and do not use it for anything "
						 "important."),
					       floor(lo / 1e6),
					       floor(lo / 1e6));
		else
			/* Translators: the real capacity's range in MB (10^6 bytes), then
			 * the size past which files are lost, in MB */
			g_string_append_printf(
				text,
				_("It really holds between %.0f and %.0f MB. Files "
				  "written past about %.0f MB are lost on this card: "
				  "copy your files off it and do not use it for "
				  "anything important."),
				floor(lo / 1e6),
				ceil(hi / 1e6),
				floor(lo / 1e6));
		g_string_append_c(text, '\n');
	} else if (g_strcmp0(verdict, "fake") == 0 && !isnan(r->estimated_capacity_bytes)) {
		/* Translators: the real capacity in GB */
		g_string_append_printf(text,
				       _("It really holds about %.1f GB. Copy your files off it "
					 "and do not use it for anything important."),
				       r->estimated_capacity_bytes / 1e9);
		g_string_append_c(text, '\n');
	}
	/* a document may have no reason (the codec takes it absent) */
	if (r->reason != NULL) {
		g_string_append(text, sdt_l10n_tr(r->reason));
		g_string_append_c(text, '\n');
	}
	if (!isnan(r->cache_at_most_bytes)) {
		/* Translators: two sizes in MiB */
		g_string_append_printf(text,
				       _("The card answered reads from a cache of the last "
					 "%.0f to %.0f MiB written; the check wrote past it."),
				       r->cache_at_least_bytes / 1048576.0,
				       r->cache_at_most_bytes / 1048576.0);
		g_string_append_c(text, '\n');
	}
	/* Translators: coverage in percent, duration in seconds */
	g_string_append_printf(text,
			       _("Checked %.0f%% of the card's addresses in %.1f s."),
			       coverage * 100,
			       seconds);
	return g_string_free(text, FALSE);
}

gchar *
sdt_check_words_checked_before(const gchar *match, const gchar *time, const gchar *verdict)
{
	g_autofree gchar *when = NULL;
	const gchar *said;

	if (time == NULL || verdict == NULL)
		return NULL;
	when = sdt_l10n_time(time);
	said = sdt_l10n_record_check_verdict(verdict);
	if (g_strcmp0(match, "cid") == 0)
		/* Translators: a date and time, then the verdict (genuine, fake, ...) */
		return g_strdup_printf(_("This card was checked before, on %s: %s"), when, said);
	/* Translators: a date and time, then the verdict (genuine, fake, ...) */
	return g_strdup_printf(_("A card of the same size was checked in a card reader on %s "
				 "(maybe this one): %s"),
			       when,
			       said);
}
