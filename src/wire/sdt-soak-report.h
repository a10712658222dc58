/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The soak test's document: `sdtunerctl bench --profile soak --json`, the helper's
 * StartSoak job, the soak entries of the history (DESIGN.md).  Its "tests" are always
 * empty (the soak runs no benchmark test); its "soak" member says what was written,
 * checked and found.  A number that is unknown is NaN (null on the wire), a string
 * NULL; counts read 0 when absent.
 */
typedef struct {
	gchar *path; /* the soak file's directory */
	gchar *device;
	gchar *filesystem;
	gboolean stand_in; /* not the SD card */
} SdtSoakReportTarget;

typedef struct {
	SdtSoakReportTarget target;
	gchar *profile; /* "soak" */
	gint64 bytes_written;
	gint64 bytes_checked;
	gint64 mismatches;
	gint64 first_bad_offset; /* -1: none found (null on the wire) */
	gint64 first_bad_round;  /* written only with a first bad offset */
	gint64 file_size;
	gint64 rounds;
	gchar *seed; /* decimal: readers that hold numbers as doubles would round it */
	gdouble seconds;
	gdouble write_mb_s;
	gdouble read_mb_s;
	gdouble checked_mb_per_run_second;
	GPtrArray *notes; /* of gchar*: English */
} SdtSoakReport;

/* an empty report: profile "soak", no bad offset, every number unknown */
SdtSoakReport *sdt_soak_report_new(void);
void sdt_soak_report_free(SdtSoakReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtSoakReport, sdt_soak_report_free)

/* its text, compact or @pretty, valid UTF-8 (sdt_json_sanitize_utf8()) */
gchar *sdt_soak_report_to_string(const SdtSoakReport *report, gboolean pretty);
SdtSoakReport *sdt_soak_report_parse(const gchar *text, GError **error);

G_END_DECLS
