/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#define SDT_BENCH_RECORD_KEY_CONFIG_SHA256 "config_sha256"
#define SDT_BENCH_RECORD_KEY_CARD          "card"

G_BEGIN_DECLS

/* SD Association application performance classes (PLATFORM.md 7.1) */
#define SDT_BENCH_A1_READ_IOPS  1500
#define SDT_BENCH_A1_WRITE_IOPS 500
#define SDT_BENCH_A2_READ_IOPS  4000
#define SDT_BENCH_A2_WRITE_IOPS 2000
#define SDT_BENCH_A_SEQ_MB_S    10.0

/*
 * The benchmark record: the `bench --json` document (DESIGN.md), the bench
 * entries of the history, and the one C type for it.  Both directions are
 * here: the engine fills one in (sdt_bench_result_to_record()) and writes it
 * with sdt_bench_record_to_json(); the app, the CLI, health and verify read
 * it back with sdt_bench_record_from_json().
 *
 * Unknown is one thing (docs/ARCHITECTURE.md, "The wire layer"): a number that is
 * unknown is NaN here and null on the wire (or absent in an older record), a
 * string NULL.  Counts and sizes (gint64) are never unknown: an older record
 * without them reads 0.  A member of the wrong type is an error.
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
} SdtBenchRecordLatency;

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
	gdouble ci_percent; /* 95% CI half-width, % of the mean; NaN: unknown */
	/*
	 * the stopping rule (sdt-bench-stop.h): the confidence level of
	 * ci_percent (95), the interval the test stopped at as soon as it was
	 * within it (quick), and why it ended ("settled", "time-limit",
	 * "length"); NaN / NULL in an older record and target_ci_percent NaN
	 * for a fixed-length profile
	 */
	gdouble confidence_percent;
	gdouble target_ci_percent;
	gchar *stopped;
	gdouble spread_percent; /* NaN: unknown or not written */
	gdouble cpu_us_per_io;  /* NaN: not written */
	gdouble fsync_seconds;  /* seq-write only; NaN otherwise */
	gboolean has_latency;   /* random tests */
	SdtBenchRecordLatency latency;
	gchar *skipped; /* why the test did not run, or NULL */
	/* derived */
	gboolean valid;      /* finite, non-negative figures and a duration > 0 */
	gdouble ceiling_pct; /* mb_s as % of the bus ceiling; NaN: unknown */
	SdtTarget a1;        /* NONE for a stand-in */
	SdtTarget a2;
} SdtBenchRecordTest;

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
	gdouble confidence_percent; /* of spread_percent (95); NaN in an older record */
	gchar *basis;
} SdtBenchRecordVerdict;

typedef struct {
	/* target */
	gchar *path; /* the test file's directory */
	gchar *device;
	gchar *filesystem;
	gchar *raw_device;
	gint64 file_size;
	gboolean tmpfile;
	gboolean target_stand_in; /* target.stand_in as written */
	/*
	 * a whole unmounted card (issue 34, `bench --device`): its node, where the
	 * tests of the file ran on it, why the write tests ran ("blank": no partition
	 * table and no file system; "confirmed": --destroy-data-on named it) or NULL
	 * (skipped: see the notes), the bus and the reader's USB link (NaN: not USB),
	 * and whether the reader's link capped the sequential read
	 */
	gboolean whole_device;
	gchar *device_node;
	gint64 region_offset;
	gint64 device_size;
	gchar *writes;
	gchar *bus;
	gdouble usb_speed_mbit_s;
	gboolean reader_bottleneck;
	/* the test file was not on the SD card (target.stand_in): no A1/A2 marks,
	 * no verdict on the card, no place in before/after comparisons */
	gboolean stand_in; /* target's or verdict's stand_in */
	gchar *profile;
	GPtrArray *tests; /* of SdtBenchRecordTest */
	GPtrArray *notes; /* of gchar*: the engine's remarks, English */
	SdtBenchRecordVerdict verdict;
	gdouble spread_percent;  /* NaN: unknown */
	gdouble ceiling_mb_s;    /* NaN: unknown */
	gdouble ceiling_percent; /* NaN: unknown */
	gdouble seconds;         /* NaN: not written */
	/*
	 * a bench entry's own members (the history, sdt_history_entry_new_bench()), not the
	 * `bench --json` document's: the SHA-256 of the config.txt the run was under (NULL:
	 * unknown) and the card it measured, its CID (NULL: none known, or a stand-in), name
	 * and serial ("0x1e4c2983"; NULL: unknown)
	 */
	gchar *config_sha256;
	gchar *card_id;
	gchar *card_name;
	gchar *card_serial;
	/* derived */
	guint invalid_rows;
	SdtTarget a1; /* whole-card verdict; NONE for a stand-in or unusable figures */
	SdtTarget a2;
} SdtBenchRecord;

/* an empty record (no tests, no verdict) with every number unknown */
SdtBenchRecord *sdt_bench_record_new(void);
/* an empty test of that name with every number unknown, for sdt_bench_record_add_test() */
SdtBenchRecordTest *sdt_bench_record_test_new(const gchar *name);
/* recomputes what is derived from the figures (valid, ceiling_pct, a1/a2, invalid_rows) */
void sdt_bench_record_derive(SdtBenchRecord *record);

void sdt_bench_record_free(SdtBenchRecord *bench);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtBenchRecord, sdt_bench_record_free)

/*
 * Reads a bench document (or one history entry: an object with the bench
 * members).  Tests with a zero or negative duration or figures that are not
 * finite numbers are kept but marked invalid and counted in @invalid_rows, so
 * the caller can say so instead of showing an absurd rate.  A document
 * without "tests", or with a member of the wrong type, is
 * SDT_ERROR_INVALID_DATA naming the member.
 */
SdtBenchRecord *sdt_bench_record_from_json(JsonObject *obj, GError **error);

/* the same from text (SDT_ERROR_INVALID_DATA when it is not a JSON object) */
SdtBenchRecord *sdt_bench_record_parse(const gchar *json, GError **error);

/*
 * The document: the members the engine writes, in its order, numbers as they
 * are (the engine rounds them when it fills the record in); an unknown number
 * is null.  Members an older record did not have and that are unknown are left
 * out (fsync_seconds, latency_us, a test's spread_percent, skipped, the
 * verdict), so a current document reads back and writes the same bytes.
 */
JsonNode *sdt_bench_record_to_json(const SdtBenchRecord *record);
/* its text, compact or @pretty, valid UTF-8 (sdt_json_sanitize_utf8()) */
gchar *sdt_bench_record_to_string(const SdtBenchRecord *record, gboolean pretty);

/* the test of that name, or NULL */
SdtBenchRecordTest *sdt_bench_record_get_test(SdtBenchRecord *bench, const gchar *name);

G_END_DECLS
