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

/* the English sentence of @code with @args, NULL when @code is unknown */
gchar *sdt_l10n_record_reason_english(const gchar *code, JsonArray *args);

/* sets "reason", "reason_code" and "reason_args" of @obj; takes @args (may be NULL) */
void sdt_l10n_record_reason_set(JsonObject *obj, const gchar *code, JsonArray *args);

/* copies "reason", "reason_code" and "reason_args" from @from to @to, where present */
void sdt_l10n_record_reason_copy(JsonObject *to, JsonObject *from);

/*
 * The reason in the reader's language: from @code and @args when they are
 * known and fit, else @english through sdt_l10n_tr() (an entry of an older
 * version, English or already translated, is shown as it came).  Kept for
 * the life of the process, as sdt_l10n_tr().
 */
const gchar *sdt_l10n_record_reason_tr(const gchar *code, JsonArray *args, const gchar *english);

/* the same for the "reason" members of @obj ("" when it has no "reason") */
const gchar *sdt_l10n_record_reason_tr_object(JsonObject *obj);

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
