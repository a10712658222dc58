/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The recommendation: the `recommend --json` document and the helper's
 * GetRecommendations answer (DESIGN.md), and the one C type for it.  The ops
 * layer fills one in from the decision (sdt-recommend.h) and writes it with
 * sdt_recommend_report_to_string(); the CLI and the app read it back with
 * sdt_recommend_report_parse().  Texts are English (translated where shown).
 *
 * A recommendation without an id, or a member of the wrong type, is
 * SDT_ERROR_INVALID_DATA naming it (e.g. `recommendations[0].lines`); absent
 * or null texts are NULL, an absent clock 0, an absent trial_only FALSE.
 */

/* one recommendation: a block of config.txt lines under a [filter] line */
typedef struct {
	gchar *id; /* stable: "sd-overclock-100", "sd-cqe-2", "sd-cqe-0" */
	gchar *title;
	GPtrArray *lines; /* of gchar*: the config.txt lines */
	gchar *filter;    /* the [filter] line the block goes under */
	gchar *reason;
	gchar *expected_effect;
	gchar *risk;
	gboolean trial_only;      /* applied only as a tryboot trial: written when TRUE */
	gint64 expected_clock_hz; /* the overclock's SD clock: written when > 0 */
} SdtRecommendReportItem;

/* an item with no lines and nothing said */
SdtRecommendReportItem *sdt_recommend_report_item_new(void);

typedef struct {
	GPtrArray *recommendations; /* of SdtRecommendReportItem, best first */
	GPtrArray *notes;           /* of gchar*: plain-text paragraphs */
	gchar *not_tuned; /* "emmc", "not-system-disk": why nothing is tuned; NULL (null) */
	/* sdhost boards: the core clock the advice is computed for; "core_clock" is
	 * written only when core_clock_hz > 0 */
	gint64 core_clock_hz;
	gchar *core_clock_source; /* "board-default", "running-system", ... */
	gchar *core_clock_detail; /* English: the file read or the config.txt lines */
} SdtRecommendReport;

/* no recommendations, no notes, nothing unknown said */
SdtRecommendReport *sdt_recommend_report_new(void);
void sdt_recommend_report_free(SdtRecommendReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtRecommendReport, sdt_recommend_report_free)

/* the document's text as `sdtunerctl recommend --json` prints it (indented, valid UTF-8) */
gchar *sdt_recommend_report_to_string(const SdtRecommendReport *report);
SdtRecommendReport *sdt_recommend_report_parse(const gchar *text, GError **error);

G_END_DECLS
