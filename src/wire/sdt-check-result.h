/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sdt-health-report.h"

G_BEGIN_DECLS

/*
 * The check result: the `check --json` document (DESIGN.md), the check
 * entries of the history, and the one C type for it.  Both directions are
 * here: the engine fills one in (sdt-check-json.c) and writes it with
 * sdt_check_result_to_json(); the CLI, the app and the metrics read it back
 * with sdt_check_result_from_json().
 *
 * Unknown is one thing (docs/ARCHITECTURE.md, "The wire layer"): a number that
 * is unknown is NaN here and null on the wire (the capacity figures and the
 * first bad offset are known only for a fake card), a string NULL.  Counts and
 * sizes (gint64) are never unknown: a document without them reads 0.  A member
 * of the wrong type is an error.  What ops adds to the engine's result is part of it too:
 * the slot check's "registers" and a device check's "identity"; the history's envelope
 * ("kind", "time") is not, and is ignored.
 */

#define SDT_CHECK_RESULT_KEY_REGISTERS "registers"
#define SDT_CHECK_RESULT_KEY_IDENTITY  "identity"

typedef struct {
	gchar *path; /* the directory the check wrote in */
	gchar *device;
	gchar *disk;
	gchar *filesystem;
	gboolean stand_in;     /* not the SD card (--dir) */
	gboolean whole_device; /* a whole unmounted card (--device): written only when TRUE */
} SdtCheckResultTarget;

/* a device check's card, as the history keeps it (docs/DESIGN.md "A checked card's
 * identity"): health's SdtHealthReportIdentity, a string NULL is null */
SdtHealthReportIdentity *sdt_check_result_identity_new(void);
void sdt_check_result_identity_free(SdtHealthReportIdentity *identity);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtHealthReportIdentity, sdt_check_result_identity_free)

/* one run of the map of a whole card: [from, to) bytes, all in one state: "ok" (written,
 * read back right, put back), "wrap", "lost-writes", "io-error", "corrupted", "untested" */
typedef struct {
	gint64 from;
	gint64 to;
	gchar *state;
} SdtCheckResultRegion;

void sdt_check_result_region_free(gpointer region);

typedef struct {
	gint64 read; /* blocks */
	gint64 written;
	gint64 bad;
	gint64 top_verified;
	gint64 restored;
	gint64 verified_up_to; /* bytes */
	gint64 no_wrap_up_to;
} SdtCheckResultSamples;

typedef struct {
	gchar *verdict; /* "genuine", "fake", "undetermined" */
	gchar *mode;    /* "quick", "full" */
	gint64 claimed_bytes;
	/* bytes, exact as doubles up to 2^53 (8 PiB); NaN unless the card is fake */
	gdouble estimated_capacity_bytes;
	gdouble capacity_at_least_bytes;
	gdouble capacity_at_most_bytes;
	gdouble first_bad_offset;
	gchar *failure;   /* what proved the card fake, or NULL */
	gdouble coverage; /* 0..1 of the card's addresses; NaN: unknown */
	gchar *reason;    /* English, translated where it is shown */
	gdouble seconds;  /* NaN: unknown */
	SdtCheckResultTarget target;
	gint64 reserved_bytes;
	gint64 reserved_top_offset;
	/* full mode only: written when mode is "full" (NaN is then null) */
	gdouble write_mb_s;
	gdouble read_mb_s;
	SdtCheckResultSamples samples;
	/* the quick mode's write cache: "write_cache", written when flushed_bytes >= 0 */
	gint64 cache_flushed_bytes;   /* -1: not sized; else written after the blocks */
	gdouble cache_at_least_bytes; /* a cache found: its size in (at_least, at_most] */
	gdouble cache_at_most_bytes;  /* NaN: none found */
	GPtrArray *notes;             /* of gchar*: English */
	GPtrArray *map; /* SdtCheckResultRegion, ascending; empty (not written): no map */
	/* what ops adds (sdt-ops-check.c): the card's register plausibility, written after
	 * the engine's members when @has_registers (NULL: null), and a device check's card
	 * (NULL: not written), which the history keeps it under */
	gboolean has_registers;
	SdtHealthReportRegisters *registers;
	SdtHealthReportIdentity *identity;
} SdtCheckResult;

/* an empty result (no notes) with every number unknown and every count 0 */
SdtCheckResult *sdt_check_result_new(void);
void sdt_check_result_free(SdtCheckResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtCheckResult, sdt_check_result_free)

/* what a damaged check journal (status and health "check_journal_damaged": its
 * @path) means and what the user can still do, in the user's language */
gchar *sdt_check_result_damaged_journal_words(const gchar *path);

/* a check's progress phase ("read", "probe", ...: the jobs' Progress) in words for the
 * user */
const gchar *sdt_check_result_phase_label(const gchar *phase);

/* is the card's capacity known (a fake card's estimate and range)? */
gboolean sdt_check_result_has_capacity(const SdtCheckResult *result);

/*
 * Reads a check document (or one history entry: an object with the check
 * members).  A document without "verdict", or with a member of the wrong
 * type, is SDT_ERROR_INVALID_DATA naming the member.
 */
SdtCheckResult *sdt_check_result_from_json(JsonObject *obj, GError **error);
/* the same from the document's text (the helper's answer) */
SdtCheckResult *sdt_check_result_parse(const gchar *text, GError **error);
/* the register plausibility the helper's answer carries beside the result ("registers", as
 * health's: sdt_health_report_read_registers()): *@registers NULL when null or absent; FALSE
 * and @error when @text is not a JSON object or the member is of the wrong type */
gboolean sdt_check_result_parse_registers(const gchar *text,
					  SdtHealthReportRegisters **registers,
					  GError **error);

/*
 * The document: the members the engine writes, in its order; an unknown
 * number is null (write_mb_s/read_mb_s only in full mode), so a document read
 * back writes the same bytes.
 */
JsonNode *sdt_check_result_to_json(const SdtCheckResult *result);
/* its text, compact or @pretty, valid UTF-8 (sdt_json_sanitize_utf8()) */
gchar *sdt_check_result_to_string(const SdtCheckResult *result, gboolean pretty);

G_END_DECLS
