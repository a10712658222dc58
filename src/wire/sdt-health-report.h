/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sdt-info-report.h"

G_BEGIN_DECLS

/*
 * The `health --json` document (GetHealth, DESIGN.md "health"): the card's writes,
 * errors and write protection, its register plausibility, the benchmark trend and the
 * check it had before.  sdt_ops_health() fills one in and writes it; the CLI, the
 * metrics and the Health page read it back.
 *
 * Unknown is null on the wire: NULL for a string or a part, SDT_HEALTH_REPORT_UNKNOWN
 * for a count or a size (all of them >= 0 when known), NaN for a measure,
 * SDT_INFO_REPORT_FLAG_UNKNOWN for card.holds_system.  A member of the wrong type is
 * SDT_ERROR_INVALID_DATA naming it ("card.write_protect.permanent"); members this
 * version does not know are ignored.
 */

#define SDT_HEALTH_REPORT_UNKNOWN (-1)

/* "registers" (health, and check's reply): the register plausibility of the card */
typedef struct {
	gchar *rule;    /* "manfid-zero", ... (sdt-card-plausible-private.h) */
	gchar *message; /* English */
} SdtHealthReportFinding;

typedef struct {
	gchar *verdict;      /* "plausible", "suspicious" */
	GPtrArray *findings; /* of SdtHealthReportFinding */
} SdtHealthReportRegisters;

SdtHealthReportRegisters *sdt_health_report_registers_new(void);
void sdt_health_report_registers_free(SdtHealthReportRegisters *registers);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtHealthReportRegisters, sdt_health_report_registers_free)
/* a finding appended to @registers; @message is taken */
void sdt_health_report_registers_add(SdtHealthReportRegisters *registers,
				     const gchar *rule,
				     gchar *message);

/* one metric of "trend": the median of the first runs against the latest */
typedef struct {
	gdouble first;
	gdouble latest;
	gdouble change;
	gdouble spread;
	gboolean alert;
} SdtHealthReportMetric;

typedef struct {
	gint64 runs;
	SdtHealthReportMetric *seq_write_mb_s;       /* NULL: null (fewer than 4 runs) */
	SdtHealthReportMetric *qd1_write_latency_us; /* NULL: null */
	GPtrArray *alerts;                           /* of gchar*: the metrics' names */
} SdtHealthReportTrend;

/* an empty trend (no run); the report it is put in frees it */
SdtHealthReportTrend *sdt_health_report_trend_new(void);

/* "checked_before": the newest device check of this card, under its identity */
typedef struct {
	gchar *device;
	gint64 size_bytes;
	gchar *vendor;
	gchar *model;
	gchar *serial;
	gchar *bus;
	gchar *serial_of; /* "reader", "card" */
	gchar *cid;
	gchar *cid_serial;
} SdtHealthReportIdentity;

typedef struct {
	gchar *match; /* "cid", "size" */
	gchar *time;
	gchar *verdict;
	SdtHealthReportIdentity identity;
} SdtHealthReportCheckedBefore;

/* an empty one (every member unknown); the report it is put in frees it */
SdtHealthReportCheckedBefore *sdt_health_report_checked_before_new(void);

/* one member of "partitions": a mounted partition of the card */
typedef struct {
	gchar *device; /* "mmcblk0p2" */
	gchar *mount_point;
	gchar *filesystem;
	gboolean read_only;
	gint64 lifetime_write_bytes;
} SdtHealthReportPartition;

typedef struct {
	gboolean present;
	gchar *device;
	gint64 capacity_bytes;
	gchar *kind; /* "sd", "emmc" */
	SdtInfoReportFlag holds_system;
	gchar *system_device;
	gboolean write_protect_known; /* FALSE: "write_protect" is null */
	gboolean write_protect_permanent;
	gboolean write_protect_temporary;
	SdtInfoReportEmmc *emmc; /* NULL: null */
} SdtHealthReportCard;

typedef struct {
	gdouble years;
	gchar *assumption; /* English */
} SdtHealthReportProjection;

typedef struct {
	SdtHealthReportCard card;
	GPtrArray *partitions; /* of SdtHealthReportPartition */
	gint64 lifetime_write_bytes;
	/* "since_boot" */
	gdouble uptime_seconds;
	gint64 written_bytes;
	gint64 read_bytes;
	gdouble writes_per_day_bytes;
	SdtHealthReportProjection *projection; /* NULL: null */
	gint64 kernel_errors_since_boot;
	gint64 read_only_remounts_since_boot;
	gboolean read_only;
	gchar *state_error;                           /* English */
	SdtHealthReportRegisters *registers;          /* NULL: null */
	SdtHealthReportTrend *trend;                  /* NULL: null */
	SdtHealthReportCheckedBefore *checked_before; /* NULL: null */
	GPtrArray *notes;                             /* of gchar*, English */
	gchar *check_journal_damaged;
} SdtHealthReport;

/* a report with every value unknown, no card and empty lists */
SdtHealthReport *sdt_health_report_new(void);
void sdt_health_report_free(SdtHealthReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtHealthReport, sdt_health_report_free)

/* a new partition, appended to @report's */
SdtHealthReportPartition *sdt_health_report_add_partition(SdtHealthReport *report);

SdtHealthReport *sdt_health_report_parse(const gchar *text, GError **error);
/* the text (pretty, valid UTF-8, as `sdtunerctl --json health` prints it) */
gchar *sdt_health_report_to_string(const SdtHealthReport *report);

G_END_DECLS
