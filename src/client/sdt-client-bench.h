/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The `bench --json` document (sdt_bench_result_to_json(), DESIGN.md), read
 * once for the app and the CLI.  Numbers the engine may leave unknown (null)
 * are NaN here; a member of the wrong type is an error.
 */

typedef enum {
	SDT_TARGET_NONE, /* this test has no A1/A2 target, or no verdict can be given */
	SDT_TARGET_FAIL,
	SDT_TARGET_PASS,
} SdtTarget;

typedef struct {
	gdouble mean; /* µs; NaN when unknown */
	gdouble p50;
	gdouble p90;
	gdouble p99;
	gdouble p99_9;
	gdouble max;
} SdtClientLatency;

typedef struct {
	gchar *name; /* "seq-write", "rand-4k-read-qd32", ... */
	gint64 block_size;
	gint64 queue_depth;
	gdouble mb_s;
	gdouble iops;
	gdouble seconds;
	gint64 ios;
	gint64 bytes;
	gchar *io_engine; /* "sync", "io_uring", "threads"; NULL: not said */
	gint64 in_flight_max;
	gint64 slices;
	gdouble ci_percent;     /* 95% CI half-width, % of the mean; NaN: unknown */
	gdouble spread_percent; /* NaN: unknown or not written */
	gdouble cpu_us_per_io;  /* NaN: not written */
	gdouble fsync_seconds;  /* seq-write only; NaN otherwise */
	gboolean has_latency;   /* random tests */
	SdtClientLatency latency;
	gchar *skipped; /* why the test did not run, or NULL */
	/* derived */
	gboolean valid;      /* finite, non-negative figures and a duration > 0 */
	gdouble ceiling_pct; /* mb_s as % of the bus ceiling, or -1 if unknown */
	SdtTarget a1;        /* NONE for a stand-in */
	SdtTarget a2;
} SdtClientBenchTest;

typedef struct {
	gboolean present; /* the document had a verdict */
	gboolean a1;      /* as written by the engine */
	gboolean a2;
	gboolean stand_in;
	gdouble seq_write_mb_s; /* NaN when unknown */
	gdouble read_iops;
	gdouble write_iops;
	gdouble seconds;
	gdouble spread_percent;
	gchar *basis;
} SdtClientBenchVerdict;

typedef struct {
	/* target */
	gchar *path; /* the test file's directory */
	gchar *device;
	gchar *filesystem;
	gchar *raw_device;
	gint64 file_size;
	gboolean tmpfile;
	/* the test file was not on the SD card (target.stand_in): no A1/A2 marks,
	 * no verdict on the card, no place in before/after comparisons */
	gboolean stand_in;
	gchar *profile;
	GPtrArray *tests; /* of SdtClientBenchTest */
	GPtrArray *notes; /* of gchar*: the engine's remarks, English */
	SdtClientBenchVerdict verdict;
	gdouble spread_percent;  /* NaN: unknown */
	gdouble ceiling_mb_s;    /* -1: unknown */
	gdouble ceiling_percent; /* NaN: unknown */
	gdouble seconds;         /* NaN: not written */
	/* derived */
	guint invalid_rows;
	SdtTarget a1; /* whole-card verdict; NONE for a stand-in or unusable figures */
	SdtTarget a2;
} SdtClientBench;

void sdt_client_bench_free(SdtClientBench *bench);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtClientBench, sdt_client_bench_free)

/*
 * Reads a bench document (or one history entry: an object with the bench
 * members).  Tests with a zero or negative duration or figures that are not
 * finite numbers are kept but marked invalid and counted in @invalid_rows, so
 * the caller can say so instead of showing an absurd rate.  A document
 * without "tests", or with a member of the wrong type, is
 * SDT_ERROR_INVALID_DATA naming the member.
 */
SdtClientBench *sdt_client_bench_from_json(JsonObject *obj, GError **error);

/* the same from text (SDT_ERROR_INVALID_DATA when it is not a JSON object) */
SdtClientBench *sdt_client_bench_parse(const gchar *json, GError **error);

/* the test of that name, or NULL */
SdtClientBenchTest *sdt_client_bench_get_test(SdtClientBench *bench, const gchar *name);

G_END_DECLS
