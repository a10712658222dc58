/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* a printf-style msgid of the library or the helper (generated table) */
typedef struct {
	const char *msgid;
	const char *msgid_plural;
} SdtL10nFormat;

extern const SdtL10nFormat sdt_l10n_formats[];

gchar *sdt_l10n_translate(const gchar *english);
const gchar *sdt_l10n_tr(const gchar *english);
void sdt_l10n_use_c_locale_for_output(void);
gchar *sdt_l10n_month(const gchar *yyyy_mm);
gchar *sdt_l10n_time(const gchar *iso);
const gchar *sdt_l10n_timing(const gchar *timing);
const gchar *sdt_l10n_cqe(const gchar *cqe);
glong sdt_l10n_columns(const gchar *text);
const gchar *sdt_l10n_bench_test(const gchar *name);
gchar *sdt_l10n_pad(const gchar *text, glong columns);
const gchar *sdt_l10n_sentence_gap(const gchar *sentence);
gulong sdt_l10n_plural_count(gdouble n);
gchar *sdt_l10n_fill_args(const gchar *format, const gchar *const *args);
gpointer sdt_l10n_english_begin(void);
void sdt_l10n_english_end(gpointer before);
gpointer sdt_l10n_user_begin(void);

G_END_DECLS
