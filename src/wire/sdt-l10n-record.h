/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * What is stored (the history, pending.json) or crosses the bus as a code
 * and its arguments, rendered in the reader's language where it is shown
 * (docs/ARCHITECTURE.md "Translations"). A reason is stored three ways:
 * "reason" (English, for scripts and older readers), "reason_code" (a
 * stable word, sdt-l10n-record.c) and "reason_args" (its values as text; a
 * list of values is an array of strings).
 */

/*
 * One argument of a stored reason: a value (@value) or a list of values (@list), as
 * text written in C (numbers with a decimal point, ids, English library sentences).
 */
typedef struct {
	gchar *value; /* NULL for a list */
	GStrv list;   /* NULL for a value */
} SdtL10nRecordArg;

/*
 * A stored reason, as a document carries it in three members: "reason" (English),
 * "reason_code" and "reason_args".  A member that is absent is NULL here and is left
 * out when written, so an entry of an older version (text only) reads back as it was.
 */
typedef struct {
	gchar *text;     /* "reason": English (or an older version's text) */
	gchar *code;     /* "reason_code", or NULL */
	GPtrArray *args; /* "reason_args": SdtL10nRecordArg, or NULL */
} SdtL10nRecordReason;

/* an empty list of arguments, for sdt_l10n_record_reason_new() */
GPtrArray *sdt_l10n_record_reason_args_new(void);
/* adds a value, or a list of values (@list: gchar*), to @args */
void sdt_l10n_record_reason_args_add(GPtrArray *args, const gchar *value);
void sdt_l10n_record_reason_args_add_list(GPtrArray *args, GPtrArray *list);

/* the reason of @code with @args (taken; NULL: none), its English rendered */
SdtL10nRecordReason *sdt_l10n_record_reason_new(const gchar *code, GPtrArray *args);
SdtL10nRecordReason *sdt_l10n_record_reason_copy(const SdtL10nRecordReason *reason);
void sdt_l10n_record_reason_free(SdtL10nRecordReason *reason);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtL10nRecordReason, sdt_l10n_record_reason_free)

/* the English sentence of @code with @args, NULL when @code is unknown */
gchar *sdt_l10n_record_reason_english(const gchar *code, JsonArray *args);

/*
 * The reason in the reader's language: from @code and @args when they are
 * known and fit, else @english through sdt_l10n_tr() (an entry of an older
 * version, English or already translated, is shown as it came).  Kept for
 * the life of the process, as sdt_l10n_tr().
 */
const gchar *sdt_l10n_record_reason_tr(const gchar *code, JsonArray *args, const gchar *english);

/* a JSON array of the strings given, up to a NULL */
JsonArray *sdt_l10n_record_args(const gchar *first, ...) G_GNUC_NULL_TERMINATED;

/* a history entry's kind ("bench", "check", "soak", ...) as a word for people */
const gchar *sdt_l10n_record_history_kind(const gchar *kind);

/* a benchmark's note in the user's language: "raw-read skipped: WHY" (the test's id on
 * the bus, for scripts and the app) names the test by its title */
gchar *sdt_l10n_record_bench_note(const gchar *note);

/* a check's "verdict" ("genuine", "fake", "undetermined") as a word for people */
const gchar *sdt_l10n_record_check_verdict(const gchar *verdict);

/* a verification's "decision" ("keep", "step-down", "undo") as a word for people */
const gchar *sdt_l10n_record_decision(const gchar *decision);

G_END_DECLS
