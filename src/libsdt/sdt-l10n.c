/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * Showing the library's English text in the user's language.
 *
 * The helper's JSON documents and D-Bus error messages are English, and so is
 * `sdtunerctl --json`: scripts and other computers read them. The app and
 * sdtunerctl's human output translate that text when they show it: a
 * sentence without values is its own msgid; a sentence with values is
 * matched against the library's printf-style msgids (sdt_l10n_formats[],
 * extracted at build time from the same sources as po/sd-tuner.pot), and the
 * translated msgstr is filled with the values found, in the order its
 * placeholders ask for (%2$s before %1$s works). Decimal numbers among the
 * values get the locale's decimal point. Text that matches nothing is shown
 * as it came.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "sdt-l10n.h"

/* how deep values that are themselves library sentences are translated */
#define SDT_L10N_MAX_DEPTH 4
#define SDT_L10N_MAX_ARGS  16

typedef struct {
	GRegex *regex;
	/* per capture group: the argument number (1-based) and its conversion */
	guint arg[SDT_L10N_MAX_ARGS];
	gchar conv[SDT_L10N_MAX_ARGS];
	guint n_groups;
	gint literal_len;
	gboolean prefix; /* one more group after the format: the message it prefixes */
} SdtL10nPattern;

/* one conversion of a printf format at *p (just after '%'); FALSE for "%%" */
static gboolean
sdt_l10n_parse_conversion(const gchar **p, guint *position, gchar *conv)
{
	const gchar *s = *p;
	const gchar *digits = s;

	*position = 0;
	if (*s == '%') {
		*p = s + 1;
		return FALSE;
	}
	while (g_ascii_isdigit(*s))
		s++;
	if (*s == '$' && s > digits) {
		*position = (guint) g_ascii_strtoull(digits, NULL, 10);
		s++;
	} else {
		s = digits;
	}
	while (*s != '\0' && strchr("-+ #0'", *s) != NULL)
		s++;
	while (g_ascii_isdigit(*s) || *s == '.' || *s == '*')
		s++;
	while (*s != '\0' && strchr("hljztLq", *s) != NULL)
		s++;
	*conv = *s != '\0' ? *s : 's';
	*p = *s != '\0' ? s + 1 : s;
	return TRUE;
}

static const gchar *
sdt_l10n_group_for(gchar conv)
{
	switch (conv) {
	case 'd':
	case 'i':
		return "(-?[0-9]+)";
	case 'u':
		return "([0-9]+)";
	case 'x':
	case 'X':
		return "([0-9a-fA-F]+)";
	case 'f':
	case 'F':
	case 'g':
	case 'G':
	case 'e':
	case 'E':
		return "(-?[0-9]+(?:\\.[0-9]+)?|-?nan|-?inf)";
	case 'c':
		return "(.)";
	default:
		return "(.*?)";
	}
}

static SdtL10nPattern *
sdt_l10n_pattern_new(const gchar *format)
{
	SdtL10nPattern *pat = g_new0(SdtL10nPattern, 1);
	g_autoptr(GString) re = g_string_new("\\A");
	const gchar *p = format;
	const gchar *lit = format;
	guint next = 1;

	while ((p = strchr(p, '%')) != NULL) {
		g_autofree gchar *literal = g_regex_escape_string(lit, (gint) (p - lit));
		guint position;
		gchar conv;

		g_string_append(re, literal);
		pat->literal_len += (gint) (p - lit);
		p++;
		if (!sdt_l10n_parse_conversion(&p, &position, &conv)) {
			g_string_append(re, "%");
			lit = p;
			continue;
		}
		if (pat->n_groups == SDT_L10N_MAX_ARGS)
			break;
		pat->arg[pat->n_groups] = position != 0 ? position : next++;
		pat->conv[pat->n_groups] = conv;
		pat->n_groups++;
		g_string_append(re, sdt_l10n_group_for(conv));
		lit = p;
	}
	{
		g_autofree gchar *literal = g_regex_escape_string(lit, -1);
		g_string_append(re, literal);
		pat->literal_len += (gint) strlen(lit);
	}
	/* a prefix ("cannot edit %s: ") is followed by the reason, itself a message */
	if (g_str_has_suffix(format, ": ") && pat->n_groups < SDT_L10N_MAX_ARGS) {
		pat->prefix = TRUE;
		g_string_append(re, "(.+)");
	}
	g_string_append(re, "\\z");
	pat->regex = g_regex_new(re->str, G_REGEX_DOTALL | G_REGEX_OPTIMIZE, 0, NULL);
	return pat;
}

static gchar *
sdt_l10n_translate_depth(const gchar *english, const SdtL10nFormat *formats, guint depth);

/* the translated format filled with the values the English text held */
static gchar *
sdt_l10n_fill(const gchar *translated,
	      const SdtL10nPattern *pat,
	      GMatchInfo *info,
	      const SdtL10nFormat *formats,
	      guint depth)
{
	g_autoptr(GString) out = g_string_new(NULL);
	const gchar *p = translated;
	const gchar *lit = translated;
	guint next = 1;

	while ((p = strchr(p, '%')) != NULL) {
		guint position;
		gchar conv;
		gboolean found = FALSE;

		g_string_append_len(out, lit, p - lit);
		p++;
		if (!sdt_l10n_parse_conversion(&p, &position, &conv)) {
			g_string_append_c(out, '%');
			lit = p;
			continue;
		}
		if (position == 0)
			position = next++;
		for (guint g = 0; g < pat->n_groups && !found; g++) {
			g_autofree gchar *value = NULL;

			if (pat->arg[g] != position)
				continue;
			found = TRUE;
			value = g_match_info_fetch(info, (gint) g + 1);
			if (pat->conv[g] == 's') {
				g_autofree gchar *t =
					sdt_l10n_translate_depth(value, formats, depth + 1);
				g_string_append(out, t);
			} else if (strchr("fFgGeE", pat->conv[g]) != NULL) {
				const gchar *point = localeconv()->decimal_point;
				const gchar *dot = strchr(value, '.');

				if (dot != NULL && point != NULL) {
					g_string_append_len(out, value, dot - value);
					g_string_append(out, point);
					g_string_append(out, dot + 1);
				} else {
					g_string_append(out, value);
				}
			} else {
				g_string_append(out, value);
			}
		}
		lit = p;
	}
	g_string_append(out, lit);
	if (pat->prefix) {
		g_autofree gchar *rest = g_match_info_fetch(info, (gint) pat->n_groups + 1);
		g_autofree gchar *t = sdt_l10n_translate_depth(rest, formats, depth + 1);
		g_string_append(out, t);
	}
	return g_string_free(g_steal_pointer(&out), FALSE);
}

typedef struct {
	const SdtL10nFormat *formats;
	GPtrArray *patterns; /* two per format: msgid, msgid_plural (or NULL) */
} SdtL10nTable;

static GPtrArray *
sdt_l10n_patterns(const SdtL10nFormat *formats)
{
	static GMutex lock;
	static GPtrArray *tables;
	GPtrArray *result = NULL;

	g_mutex_lock(&lock);
	if (tables == NULL)
		tables = g_ptr_array_new();
	for (guint i = 0; i < tables->len && result == NULL; i++) {
		SdtL10nTable *t = g_ptr_array_index(tables, i);
		if (t->formats == formats)
			result = t->patterns;
	}
	if (result == NULL) {
		SdtL10nTable *t = g_new0(SdtL10nTable, 1);
		t->formats = formats;
		t->patterns = g_ptr_array_new();
		for (guint i = 0; formats[i].msgid != NULL; i++) {
			g_ptr_array_add(t->patterns, sdt_l10n_pattern_new(formats[i].msgid));
			g_ptr_array_add(t->patterns,
					formats[i].msgid_plural != NULL
						? sdt_l10n_pattern_new(formats[i].msgid_plural)
						: NULL);
		}
		g_ptr_array_add(tables, t);
		result = t->patterns;
	}
	g_mutex_unlock(&lock);
	return result;
}

/* the first integer value of a match: the count that chose the plural form */
static gulong
sdt_l10n_count(const SdtL10nPattern *pat, GMatchInfo *info)
{
	for (guint g = 0; g < pat->n_groups; g++) {
		if (strchr("diuxX", pat->conv[g]) != NULL) {
			g_autofree gchar *value = g_match_info_fetch(info, (gint) g + 1);
			return (gulong) g_ascii_strtoull(value, NULL, 10);
		}
	}
	return 1;
}

static gchar *
sdt_l10n_translate_one(const gchar *english, const SdtL10nFormat *formats, guint depth)
{
	const gchar *exact = gettext(english);
	GPtrArray *patterns;
	const SdtL10nPattern *best = NULL;
	guint best_index = 0;

	if (exact != english && strcmp(exact, english) != 0)
		return g_strdup(exact);
	if (depth > SDT_L10N_MAX_DEPTH || formats == NULL)
		return NULL;
	patterns = sdt_l10n_patterns(formats);
	/* the most specific format that matches: the one with most literal text */
	for (guint i = 0; i < patterns->len; i++) {
		const SdtL10nPattern *pat = g_ptr_array_index(patterns, i);
		if (pat == NULL || pat->regex == NULL || pat->literal_len < 4 ||
		    (best != NULL && pat->literal_len <= best->literal_len))
			continue;
		if (g_regex_match(pat->regex, english, 0, NULL)) {
			best = pat;
			best_index = i;
		}
	}
	if (best != NULL) {
		g_autoptr(GMatchInfo) info = NULL;
		const SdtL10nFormat *f = &formats[best_index / 2];
		const gchar *translated;

		g_regex_match(best->regex, english, 0, &info);
		if (f->msgid_plural != NULL)
			translated =
				ngettext(f->msgid, f->msgid_plural, sdt_l10n_count(best, info));
		else
			translated = gettext(f->msgid);
		return sdt_l10n_fill(translated, best, info, formats, depth);
	}
	return NULL;
}

/*
 * A list the library joined with ", " ("“cancelling overclock”, 3 time-outs"):
 * every item translated and joined with the language's separator, or NULL when
 * it is no list of the library's messages (an item that matches nothing).
 */
static gchar *
sdt_l10n_translate_list(const gchar *english, const SdtL10nFormat *formats, guint depth)
{
	g_auto(GStrv) items = NULL;
	g_autoptr(GString) joined = NULL;

	if (strstr(english, ", ") == NULL)
		return NULL;
	items = g_strsplit(english, ", ", -1);
	joined = g_string_new(NULL);
	for (guint i = 0; items[i] != NULL; i++) {
		g_autofree gchar *t = sdt_l10n_translate_one(items[i], formats, depth);

		if (t == NULL)
			return NULL;
		if (i > 0)
			/* Translators: what goes between the items of a list (“reducing
			 * overclock due to errors”, 3 time-outs); the app and sdtunerctl
			 * split the helper's English list at ", " and join the translated
			 * items with this */
			g_string_append(joined, C_("list separator", ", "));
		g_string_append(joined, t);
	}
	return g_string_free(g_steal_pointer(&joined), FALSE);
}

/* the errno whose C-locale strerror() text is @text, or 0 */
static gint
sdt_l10n_errno_of(const gchar *text)
{
	static locale_t c_locale;
	static gsize once;

	if (g_once_init_enter(&once)) {
		c_locale = newlocale(LC_ALL_MASK, "C", (locale_t) 0);
		g_once_init_leave(&once, 1);
	}
	if (c_locale == (locale_t) 0)
		return 0;
	for (gint e = 1; e < 256; e++) {
		if (strcmp(strerror_l(e, c_locale), text) == 0)
			return e;
	}
	return 0;
}

/*
 * An error of the library with the C library's reason at its end ("… cannot be
 * opened; insert the same card …: No such file or directory", what
 * sdt_error_set_from_errno() writes): the sentence translated by the table, the
 * reason by the C library in the user's language; NULL when the end is no
 * strerror() text.
 */
static gchar *
sdt_l10n_translate_errno(const gchar *english, const SdtL10nFormat *formats, guint depth)
{
	const gchar *colon = g_strrstr(english, ": ");
	g_autofree gchar *head = NULL;
	g_autofree gchar *shown = NULL;
	const gchar *reason;
	gint errnum;

	if (colon == NULL || depth > SDT_L10N_MAX_DEPTH)
		return NULL;
	errnum = sdt_l10n_errno_of(colon + 2);
	if (errnum == 0)
		return NULL;
	head = g_strndup(english, colon - english);
	shown = sdt_l10n_translate_depth(head, formats, depth + 1);
	/* the thread's language (the user's where text is shown), never GLib's cache of
	 * g_strerror(), which may hold the English of a library call */
	reason = strerror(errnum);
	if (!g_utf8_validate(reason, -1, NULL))
		reason = colon + 2;
	/* Translators: an error, then the operating system's reason for it */
	return g_strdup_printf(C_("error and its reason", "%s: %s"), shown, reason);
}

static gchar *
sdt_l10n_translate_depth(const gchar *english, const SdtL10nFormat *formats, guint depth)
{
	gchar *result;
	g_auto(GStrv) sentences = NULL;
	g_autoptr(GString) joined = NULL;
	gboolean any = FALSE;

	if (english == NULL)
		return NULL;
	if (english[0] == '\0')
		return g_strdup(english);
	result = sdt_l10n_translate_one(english, formats, depth);
	if (result == NULL)
		result = sdt_l10n_translate_errno(english, formats, depth);
	if (result != NULL)
		return result;
	/* several sentences in a row, each its own msgid ("… line. It also …") */
	sentences = g_regex_split_simple("(?<=[.!?]) (?=[A-Z“])", english, 0, 0);
	if (g_strv_length(sentences) < 2) {
		result = sdt_l10n_translate_list(english, formats, depth);
		return result != NULL ? result : g_strdup(english);
	}
	joined = g_string_new(NULL);
	for (guint i = 0; sentences[i] != NULL; i++) {
		g_autofree gchar *t = sdt_l10n_translate_one(sentences[i], formats, depth);
		const gchar *piece = t != NULL ? t : sentences[i];

		any |= t != NULL;
		if (joined->len > 0)
			g_string_append(joined, sdt_l10n_sentence_gap(joined->str));
		g_string_append(joined, piece);
	}
	if (!any)
		return g_strdup(english);
	return g_string_free(g_steal_pointer(&joined), FALSE);
}

/**
 * sdt_l10n_translate:
 * @english: (nullable): text the library or the helper wrote in English
 *
 * Returns: (transfer full) (nullable): @english in the user's language, or a
 * copy of it when the catalogue has no translation
 */
gchar *
sdt_l10n_translate(const gchar *english)
{
	return sdt_l10n_translate_depth(english, sdt_l10n_formats, 0);
}

/*
 * For output that programs read (JSON, and everything the helper sends):
 * English messages and C numbers, whatever the environment says. Character
 * classification stays as the environment has it.
 */
void
sdt_l10n_use_c_locale_for_output(void)
{
	setlocale(LC_MESSAGES, "C");
	setlocale(LC_NUMERIC, "C");
	setlocale(LC_TIME, "C");
}

/**
 * sdt_l10n_tr:
 * @english: (nullable): text the library or the helper wrote in English
 *
 * Like sdt_l10n_translate(), for showing at once: the result is kept for the
 * life of the process (the app and sdtunerctl see a bounded set of texts).
 *
 * Returns: (transfer none) (nullable): @english in the user's language
 */
const gchar *
sdt_l10n_tr(const gchar *english)
{
	static GMutex lock;
	static GHashTable *cache;
	const gchar *result;

	if (english == NULL)
		return NULL;
	g_mutex_lock(&lock);
	if (cache == NULL)
		cache = g_hash_table_new(g_str_hash, g_str_equal);
	result = g_hash_table_lookup(cache, english);
	if (result == NULL) {
		gchar *translated = sdt_l10n_translate(english);
		g_hash_table_insert(cache, g_strdup(english), translated);
		result = translated;
	}
	g_mutex_unlock(&lock);
	return result;
}

/**
 * sdt_l10n_month:
 * @yyyy_mm: (nullable): a month as JSON has it, "2013-02"
 *
 * Returns: (transfer full) (nullable): the month in the user's language
 * ("February 2013", "2013年2月"), or a copy of @yyyy_mm if it is not a month
 */
gchar *
sdt_l10n_month(const gchar *yyyy_mm)
{
	guint64 year = 0;
	guint64 month = 0;
	g_autoptr(GDateTime) dt = NULL;

	if (yyyy_mm == NULL)
		return NULL;
	if (strlen(yyyy_mm) != 7 || yyyy_mm[4] != '-' ||
	    !g_ascii_string_to_unsigned(yyyy_mm + 5, 10, 1, 12, &month, NULL))
		return g_strdup(yyyy_mm);
	{
		g_autofree gchar *y = g_strndup(yyyy_mm, 4);
		if (!g_ascii_string_to_unsigned(y, 10, 1, 9999, &year, NULL))
			return g_strdup(yyyy_mm);
	}
	dt = g_date_time_new_utc((gint) year, (gint) month, 1, 0, 0, 0);
	if (dt == NULL)
		return g_strdup(yyyy_mm);
	/* Translators: a card's month of manufacture, a g_date_time_format() format:
	 * %B is the month's name, %Y the year ("February 2013"; "%Y年%-m月") */
	return g_date_time_format(dt, C_("month", "%B %Y"));
}

/**
 * sdt_l10n_time:
 * @iso: (nullable): a time as JSON has it (ISO 8601, UTC)
 *
 * Returns: (transfer full) (nullable): the local date and time in the user's
 * language, or a copy of @iso if it is not a time
 */
gchar *
sdt_l10n_time(const gchar *iso)
{
	g_autoptr(GDateTime) dt = iso != NULL ? g_date_time_new_from_iso8601(iso, NULL) : NULL;
	g_autoptr(GDateTime) local = dt != NULL ? g_date_time_to_local(dt) : NULL;

	if (local == NULL)
		return g_strdup(iso);
	/* Translators: a date and time in the history, a g_date_time_format() format
	 * ("2026-12-01 09:30"; e.g. "%d.%m.%Y %H:%M", "%Y年%-m月%-d日 %H:%M") */
	return g_date_time_format(local, C_("history time", "%Y-%m-%d %H:%M"));
}

/**
 * sdt_l10n_timing:
 * @timing: (nullable): bus.timing of the info JSON ("sd-high-speed")
 *
 * Returns: (transfer none): the bus timing's name for people
 */
const gchar *
sdt_l10n_timing(const gchar *timing)
{
	/* names of standards (UHS-I DDR50) stay as they are in every language */
	static const struct {
		const gchar *key;
		const gchar *title;
		gboolean translate;
	} timings[] = {
		{"legacy", N_("Default Speed (25 MHz)"), TRUE},
		{"sd-high-speed", N_("High Speed (50 MHz)"), TRUE},
		{"mmc-high-speed", N_("MMC High Speed"), TRUE},
		{"uhs-sdr12", "UHS-I SDR12", FALSE},
		{"uhs-sdr25", "UHS-I SDR25", FALSE},
		{"uhs-sdr50", "UHS-I SDR50", FALSE},
		{"uhs-sdr104", "UHS-I SDR104", FALSE},
		{"uhs-ddr50", "UHS-I DDR50", FALSE},
		{"mmc-ddr52", "MMC DDR52", FALSE},
		{"mmc-hs200", "MMC HS200", FALSE},
		{"mmc-hs400", "MMC HS400", FALSE},
		{"mmc-hs400es", "MMC HS400ES", FALSE},
	};
	for (guint i = 0; i < G_N_ELEMENTS(timings); i++) {
		if (g_strcmp0(timing, timings[i].key) == 0)
			return timings[i].translate ? _(timings[i].title) : timings[i].title;
	}
	/* Translators: the bus timing could not be found out */
	return C_("timing", "unknown");
}

/**
 * sdt_l10n_cqe:
 * @cqe: (nullable): bus.cqe of the info JSON
 *
 * Returns: (transfer none): whether the card's commands are queued, for people
 */
const gchar *
sdt_l10n_cqe(const gchar *cqe)
{
	if (g_strcmp0(cqe, "enabled") == 0)
		/* Translators: command queueing is on (the controller's CQ engine) */
		return C_("cqe", "enabled");
	if (g_strcmp0(cqe, "host-software-queue") == 0)
		/* Translators: Linux queues in software; the card sees one command at a time */
		return _("host software queue (card not queued)");
	if (g_strcmp0(cqe, "off") == 0)
		/* Translators: command queueing is off */
		return C_("cqe", "off");
	return C_("cqe", "unknown");
}

/**
 * sdt_l10n_columns:
 * @text: UTF-8 text
 *
 * Returns: how many terminal columns @text takes (wide CJK characters take two)
 */
glong
sdt_l10n_columns(const gchar *text)
{
	glong cols = 0;

	for (const gchar *p = text; p != NULL && *p != '\0'; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);
		if (g_unichar_iszerowidth(c))
			continue;
		cols += g_unichar_iswide(c) ? 2 : 1;
	}
	return cols;
}

/**
 * sdt_l10n_bench_test:
 * @name: (nullable): a test name of the bench JSON ("seq-write"), or "prepare"
 *
 * Returns: (transfer none): the test's title for people
 */
const gchar *
sdt_l10n_bench_test(const gchar *name)
{
	/* the same msgids as the app's result table (sdt-bench-summary.c) */
	static const struct {
		const gchar *name;
		const gchar *title;
	} tests[] = {
		{"prepare", N_("Preparing the test file…")},
		{"seq-write", N_("Sequential write")},
		{"seq-read", N_("Sequential read")},
		{"rand-4k-write-qd1", N_("Random 4K write, one at a time")},
		{"rand-4k-read-qd1", N_("Random 4K read, one at a time")},
		{"rand-4k-write-qd32", N_("Random 4K write, 32 queued")},
		{"rand-4k-read-qd32", N_("Random 4K read, 32 queued")},
		{"raw-read", N_("Raw device read")},
	};
	for (guint i = 0; i < G_N_ELEMENTS(tests); i++) {
		if (g_strcmp0(name, tests[i].name) == 0)
			return _(tests[i].title);
	}
	return name != NULL ? name : "";
}

/**
 * sdt_l10n_pad:
 * @text: UTF-8 text
 * @columns: the width to fill
 *
 * Returns: (transfer full): @text followed by spaces up to @columns terminal
 * columns (printf's %-20s counts bytes, which misaligns Japanese)
 */
gchar *
sdt_l10n_pad(const gchar *text, glong columns)
{
	GString *str = g_string_new(text);

	for (glong i = sdt_l10n_columns(text); i < columns; i++)
		g_string_append_c(str, ' ');
	return g_string_free(str, FALSE);
}

/**
 * sdt_l10n_sentence_gap:
 * @sentence: the sentence just written
 *
 * Returns: (transfer none): what goes between @sentence and the next one: a space,
 * or nothing after an ideographic full stop (Japanese and Chinese put no space there)
 */
const gchar *
sdt_l10n_sentence_gap(const gchar *sentence)
{
	if (sentence != NULL &&
	    (g_str_has_suffix(sentence, "。") || g_str_has_suffix(sentence, "．")))
		return "";
	return " ";
}

/**
 * sdt_l10n_plural_count:
 * @n: a count, as printf's "%.0f" or "%" PRIu64 shows it
 *
 * Returns: the number ngettext() chooses the plural form by: @n rounded as
 * "%.0f" rounds it, and a count beyond a million (which a 32-bit gulong may not
 * hold) reduced to one with the same last six digits, so the form stays right
 */
gulong
sdt_l10n_plural_count(gdouble n)
{
	gdouble r = floor(fabs(n) + 0.5);

	if (!isfinite(r))
		return 2;
	if (r >= 1e6)
		r = fmod(r, 1e6) + 1e6;
	return (gulong) r;
}

/**
 * sdt_l10n_fill_args:
 * @format: a printf-style format (a msgid, or its translation)
 * @args: (array zero-terminated=1): the values, already written as text
 *
 * The format with each conversion replaced by its value, in the order its
 * placeholders ask for (%2$s before %1$s works); a value that is missing is
 * left out. A stored sentence (a reason code and its arguments) is shown this
 * way: in English from the msgid, in the reader's language from its translation.
 *
 * Returns: (transfer full): the text
 */
gchar *
sdt_l10n_fill_args(const gchar *format, const gchar *const *args)
{
	g_autoptr(GString) out = g_string_new(NULL);
	guint n = args != NULL ? g_strv_length((gchar **) args) : 0;
	const gchar *p = format;
	const gchar *lit = format;
	guint next = 1;

	while ((p = strchr(p, '%')) != NULL) {
		guint position;
		gchar conv;

		g_string_append_len(out, lit, p - lit);
		p++;
		if (!sdt_l10n_parse_conversion(&p, &position, &conv)) {
			g_string_append_c(out, '%');
		} else {
			if (position == 0)
				position = next++;
			if (position >= 1 && position <= n)
				g_string_append(out, args[position - 1]);
		}
		lit = p;
	}
	g_string_append(out, lit);
	return g_string_free(g_steal_pointer(&out), FALSE);
}

/**
 * sdt_l10n_english_begin:
 *
 * The calling thread writes the library's text in English with C numbers from
 * now on (uselocale()), whatever the process's locale is: `sdtunerctl --root`
 * runs the library this way, so what it stores (the history, pending.json) and
 * returns is what the helper would have sent, and is translated where it is
 * shown (docs/ARCHITECTURE.md). Other threads keep the user's language.
 *
 * Returns: (transfer none): the thread's locale before, for sdt_l10n_english_end()
 */
gpointer
sdt_l10n_english_begin(void)
{
	static locale_t c_locale;
	static gsize once;

	if (g_once_init_enter(&once)) {
		/* GLib decides once, at its first g_dgettext() of the process, whether to
		 * translate at all (it looks at gettext("") and setlocale()): let it decide
		 * here in the user's language, or a first call in English would switch off
		 * every later g_dngettext() and C_() (plurals, list separators) for good */
		(void) g_dgettext(GETTEXT_PACKAGE, "");
		/* messages, numbers and times as the helper has them */
		c_locale = newlocale(LC_MESSAGES_MASK | LC_NUMERIC_MASK | LC_TIME_MASK,
				     "C",
				     duplocale(LC_GLOBAL_LOCALE));
		g_once_init_leave(&once, 1);
	}
	if (c_locale == (locale_t) 0)
		return NULL;
	return uselocale(c_locale);
}

/**
 * sdt_l10n_english_end:
 * @before: what sdt_l10n_english_begin() returned
 *
 * Back to the locale the thread had (the user's, for showing text).
 */
void
sdt_l10n_english_end(gpointer before)
{
	if (before != NULL)
		uselocale((locale_t) before);
}

/**
 * sdt_l10n_user_begin:
 *
 * The calling thread shows text in the user's language again (the process's
 * locale), e.g. in a progress callback of library code that runs in English.
 *
 * Returns: (transfer none): the thread's locale before, for sdt_l10n_english_end()
 */
gpointer
sdt_l10n_user_begin(void)
{
	return uselocale(LC_GLOBAL_LOCALE);
}
