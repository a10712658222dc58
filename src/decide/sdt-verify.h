/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

#include "sdt-context.h"
#include "sdt-info.h"
#include "sdt-l10n-record.h"

G_BEGIN_DECLS

/*
 * The closed loop after a reboot: keep, step down or undo a change, decided
 * by pure functions on typed facts (sdt_verify_decide()), and the pending
 * state in <state>/pending.json that carries a change across reboots.
 * sdt_ops_verify() (sdt-ops-verify.c) gathers the facts and acts.  The log
 * scan is in sdt-verify-log.c, the pending state in sdt-verify-pending.c.
 */

/* a change SD Tuner writes, parsed once from its id */
typedef enum {
	SDT_VERIFY_CHANGE_NONE,      /* not an id SD Tuner writes */
	SDT_VERIFY_CHANGE_OVERCLOCK, /* sd-overclock-N: dtparam=sd_overclock=N */
	SDT_VERIFY_CHANGE_CQE,       /* sd-cqe-N: dtparam=sd_cqe=N */
} SdtVerifyChangeKind;

typedef struct {
	SdtVerifyChangeKind kind;
	guint overclock_mhz; /* OVERCLOCK: N, 1 to 999 */
	guint cqe_value;     /* CQE: N, 0 to 2 */
} SdtVerifyChange;

/* FALSE (and kind NONE) for anything but an id SD Tuner writes */
gboolean sdt_verify_change_parse(const gchar *id, SdtVerifyChange *change);
/* the queueing state the change asks for: ENABLED for sd_cqe=2, OFF for 0, else UNKNOWN */
SdtCqeState sdt_verify_change_expected_cqe(const SdtVerifyChange *change);
/*
 * A change made for safety, not speed: sd-cqe-0 turns command queueing off
 * (cards that corrupt data with it).  It is kept when it is clean (no errors,
 * the soak test clean), whatever the benchmark says.
 */
gboolean sdt_verify_change_is_safety(const SdtVerifyChange *change);

typedef enum {
	SDT_VERIFY_WAIT,      /* not rebooted since the change: nothing to decide yet */
	SDT_VERIFY_KEEP,      /* took effect, no errors, data intact, faster */
	SDT_VERIFY_STEP_DOWN, /* errors at an overclock: prepare the next divisor step */
	SDT_VERIFY_UNDO,      /* revert, with the reason */
} SdtVerifyDecision;

/* "wait", "keep", "step-down", "undo" */
const gchar *sdt_verify_decision_to_string(SdtVerifyDecision decision);

/* what the kernel log says since boot (the records of this boot only) */
typedef struct {
	guint overclock_reduced;   /* "reducing overclock due to errors" */
	guint overclock_cancelled; /* "cancelling overclock" */
	guint cqe_recovery;        /* "running CQE recovery" */
	guint timeouts;            /* mmcN/mmcblkN lines with "timeout" or "timed out" */
	guint io_errors;           /* "I/O error" on mmcblkN, "error -N" on mmcN/mmcblkN */
	GPtrArray *lines;          /* the matching messages, in order (at most 20) */
} SdtVerifyLog;

void sdt_verify_log_init(SdtVerifyLog *log);
void sdt_verify_log_clear(SdtVerifyLog *log);
/* scans kmsg text (sdt_kmsg_parse() format) for the error lines above */
void sdt_verify_log_scan(SdtVerifyLog *log, const gchar *kmsg, gsize len);

/* the soak test's result */
typedef struct {
	gboolean ran;
	guint64 bytes_written;
	guint64 bytes_checked;
	guint64 mismatches;
	gint64 first_bad_offset; /* -1 when clean */
} SdtVerifySoak;

/* one benchmark figure, before and after: medians and spreads (half the range) */
typedef struct {
	const gchar *name; /* "seq-write", ... */
	const gchar *unit; /* "MB/s" or "IOPS" */
	gdouble before;
	gdouble before_spread;
	gdouble after;
	gdouble after_spread;
} SdtVerifyFigure;

typedef struct {
	const gchar *id;        /* the change under test: sd-overclock-N, sd-cqe-N */
	SdtVerifyChange change; /* the same, parsed (sdt_verify_change_parse()) */
	guint step;             /* divisor steps already taken down (0, 1, 2) */
	gboolean trial;         /* the change is in tryboot.txt, not yet in config.txt */

	const gchar *boot_id_then; /* recorded with the change */
	const gchar *boot_id_now;
	gboolean tryboot_active; /* this boot used tryboot.txt */
	guint attempts;          /* verifications begun in earlier runs and never finished */
	gboolean config_edited;  /* config.txt (or tryboot.txt) changed by hand since */
	/* the id in SD Tuner's block of the file the change is in (config.txt, or
	 * tryboot.txt for a trial), NULL for none: anything but @id is inconsistent */
	const gchar *block_id;

	/* took effect: for sd-overclock-N the clock in Hz (0 unknown); for sd-cqe-N
	 * the queueing state */
	guint64 core_clock_hz;
	guint64 expected_clock_hz;
	guint64 observed_clock_hz;
	SdtCqeState expected_cqe; /* sdt_verify_change_expected_cqe() */
	SdtCqeState observed_cqe;

	const SdtVerifyLog *log;
	SdtVerifySoak soak;
	/* no benchmark of the card itself from before the change: nothing to compare */
	gboolean no_before;
	/* why the soak test or the benchmark could not run (a sentence), or NULL */
	const gchar *evidence_error;
	const SdtVerifyFigure *figures;
	guint n_figures;
} SdtVerifyFacts;

#define SDT_VERIFY_MAX_STEPS 2
#define SDT_VERIFY_MAX_TRIES 2

typedef struct {
	SdtVerifyDecision decision;
	/* the reason as stored: its code (sdt-l10n-record.c), its arguments (text, or lists
	 * of text) and its English, one sentence or more */
	SdtL10nRecordReason *reason;
	gchar *next_id;          /* step down: the id to prepare, e.g. "sd-overclock-80" */
	GPtrArray *improved;     /* "seq-write: 20.1 → 38.9 MB/s (+94%)" */
	GPtrArray *worse;        /* figures worse by more than the combined spread */
	gboolean stop;           /* undo after too many tries: the loop ends */
	gboolean foreign_change; /* config.txt was edited by hand meanwhile */
} SdtVerifyResult;

void sdt_verify_result_free(SdtVerifyResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtVerifyResult, sdt_verify_result_free)

/* the decision; pure: the same facts give the same result */
SdtVerifyResult *sdt_verify_decide(const SdtVerifyFacts *facts);

/*
 * Whether the decision on @facts rests on the soak test and the benchmark:
 * TRUE when nothing before them decides (the Pi restarted, tries are left,
 * the file is as SD Tuner left it, a trial booted, the kernel log is clean
 * and the change took effect).  Pure; sdt_ops_verify() runs them only then.
 */
gboolean sdt_verify_evidence_needed(const SdtVerifyFacts *facts);

/*
 * What `status` says about SD Tuner's block in config.txt: whether the change
 * is in effect on this boot, from typed facts only.
 */
typedef struct {
	SdtVerifyChange change;
	guint64 expected_clock_hz; /* overclock: the clock the setting gives, 0 unknown */
	guint64 observed_clock_hz; /* the bus's actual clock, 0 unknown */
	guint64 log_overclock_hz;  /* the kernel log's "overclocking to", 0 none */
	gboolean log_overclock_reduced;
	gboolean log_cqe_recovery;
	SdtCqeState observed_cqe;
	gboolean for_this_board;   /* the block's filter reaches this board */
	const gchar *filter;       /* that filter, e.g. "[board-type=0x08]", or NULL */
	const gchar *boot_id_then; /* recorded with the change, NULL unknown */
	const gchar *boot_id_now;  /* NULL unknown */
} SdtVerifyStatusFacts;

typedef struct {
	gboolean verified;  /* in effect */
	gboolean failed;    /* will not come into effect: revert */
	gchar *explanation; /* translated sentence */
} SdtVerifyStatus;

/* pure; free @status->explanation */
void sdt_verify_status_decide(const SdtVerifyStatusFacts *facts, SdtVerifyStatus *status);

G_END_DECLS
