/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * Reasons stored as a code and its arguments, and the words for the
 * identifiers the history and the bus carry (sdt-l10n-record.h).
 *
 * A code names one msgid below for good: a later version may reword the
 * English, and an entry written before is still shown in the reader's
 * language from its code. Arguments are text written in C (the helper's and
 * `sdtunerctl --root`'s language for the library): numbers with a decimal
 * point, ids, English library sentences (an error), or a list of such values.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <locale.h>
#include <string.h>

#include "sdt-error.h"
#include "sdt-json.h"
#include "sdt-json-strict-private.h"
#include "sdt-l10n-record.h"
#include "sdt-l10n-record-private.h"
#include "sdt-l10n.h"

/* a sentence with a plural: its form for @n in the thread's language (the literals must
 * stand in the g_dngettext() call for xgettext to take them as one plural message) */
typedef const gchar *(*SdtL10nPlural)(gulong n);

static const gchar *
sdt_l10n_reason_interrupted(gulong n)
{
	return g_dngettext(GETTEXT_PACKAGE,
			   "Verification was interrupted %u time "
			   "(a crash, a power loss or a reboot loop), so "
			   "the change was undone and SD Tuner stops trying.",
			   "Verification was interrupted %u times "
			   "(a crash, a power loss or a reboot loop), so "
			   "the change was undone and SD Tuner stops trying.",
			   n);
}

/* Translators: a count of bytes, then a byte offset */
static const gchar *
sdt_l10n_reason_soak_mismatch(gulong n)
{
	return g_dngettext(GETTEXT_PACKAGE,
			   "The soak test read back wrong data: %" PRIu64
			   " byte differed, the first at byte offset %" PRId64
			   " of the test file. The card does not store data "
			   "correctly with this setting; the change was undone.",
			   "The soak test read back wrong data: %" PRIu64
			   " bytes differed, the first at byte offset %" PRId64
			   " of the test file. The card does not store data "
			   "correctly with this setting; the change was undone.",
			   n);
}

typedef struct {
	const gchar *code;
	const gchar *msgid;    /* NULL: @plural gives it */
	SdtL10nPlural plural;  /* the first number of the arguments chooses the form */
	const gchar *list_sep; /* how a list argument is joined */
} SdtL10nReason;

/* the verification's reasons (sdt-verify.c, sdt-ops-verify.c) */
static const SdtL10nReason sdt_l10n_reasons[] = {
	{"nothing-pending", N_("No change is waiting to be verified."), NULL, NULL},
	/* Translators: the first %s is what the kernel log showed, e.g. “reducing
	 * overclock due to errors”; then the id to try next and its clock in MHz */
	{"errors-step-down",
	 N_("The kernel log shows %s at this clock, so SD Tuner "
	    "prepared the next slower step, %s (%s MHz): restart "
	    "the Pi to try it."),
	 NULL,
	 ", "},
	{"errors-lowest-step",
	 N_("The kernel log shows %s even at the lowest step SD "
	    "Tuner tries, so the change was undone."),
	 NULL,
	 ", "},
	{"not-restarted",
	 N_("The Pi has not restarted since the change: restart it "
	    "to verify the change."),
	 NULL,
	 NULL},
	{"no-boot-id",
	 N_("Verification could not run: the boot id of this system "
	    "cannot be read, so SD Tuner cannot tell whether the Pi "
	    "restarted; the change was undone."),
	 NULL,
	 NULL},
	{"interrupted", NULL, sdt_l10n_reason_interrupted, NULL},
	/* Translators: a recommendation id */
	{"block-missing",
	 N_("SD Tuner's record says %s is pending, but its block is "
	    "not in the file it was written to (a crash before it "
	    "was written, or removed by hand): nothing of it is left "
	    "to verify, so SD Tuner took back what remained and "
	    "stops verifying."),
	 NULL,
	 NULL},
	/* Translators: two recommendation ids */
	{"block-other",
	 N_("SD Tuner's record says %s is pending, but its block in "
	    "the file is %s: the state is inconsistent, so SD Tuner "
	    "took its change out instead of stepping the clock "
	    "anywhere, and stops verifying."),
	 NULL,
	 NULL},
	{"config-edited",
	 N_("config.txt was edited by hand while SD Tuner's change was "
	    "pending, so SD Tuner cannot vouch for what this boot ran: "
	    "it took out only its own lines and left every edit that is "
	    "not its own."),
	 NULL,
	 NULL},
	{"trial-not-booted",
	 N_("This boot did not use the trial: the trial boot failed "
	    "and the firmware started the old config.txt, or the Pi was "
	    "restarted without “reboot '0 tryboot'”. The trial was "
	    "cancelled."),
	 NULL,
	 NULL},
	{"soak-mismatch", NULL, sdt_l10n_reason_soak_mismatch, NULL},
	{"log-errors",
	 N_("The kernel log shows %s with this "
	    "setting, so the change was undone."),
	 NULL,
	 ", "},
	{"clock-unreadable",
	 N_("Verification could not run: the SD clock cannot be "
	    "read (no debugfs “ios” and no “overclocking to” line), "
	    "so the change was undone."),
	 NULL,
	 NULL},
	/* Translators: clocks in MHz */
	{"clock-wrong",
	 N_("The change did not take effect: the SD "
	    "clock is %s MHz, not the expected %s MHz; "
	    "the change was undone."),
	 NULL,
	 NULL},
	{"cannot-verify",
	 N_("SD Tuner cannot verify this setting, so the change was undone."),
	 NULL,
	 NULL},
	{"cqe-still-on",
	 N_("The change did not take effect: command queueing is still on; the "
	    "change was undone."),
	 NULL,
	 NULL},
	{"cqe-off",
	 N_("The change did not take effect: command queueing is off; the change "
	    "was undone."),
	 NULL,
	 NULL},
	{"cqe-host-queue",
	 N_("The change did not take effect: the card runs with the host's "
	    "software queue, not as asked; the change was undone."),
	 NULL,
	 NULL},
	{"cqe-unknown",
	 N_("The change did not take effect: the kernel log does not show whether "
	    "command queueing is on or off; the change was undone."),
	 NULL,
	 NULL},
	{"no-before",
	 N_("Verification could not run: there is no benchmark of the SD "
	    "card from before the change, so SD Tuner cannot show that it "
	    "helped; the change was undone."),
	 NULL,
	 NULL},
	/* Translators: %s is why the soak test or the benchmark failed */
	{"evidence-failed",
	 N_("Verification could not run: %s; the change was undone."),
	 NULL,
	 NULL},
	{"soak-unchecked",
	 N_("Verification could not run: the soak test did not "
	    "check the data it wrote, so SD Tuner cannot show that the "
	    "card stores data correctly; the change was undone."),
	 NULL,
	 NULL},
	{"safety-kept",
	 N_("Command queueing is off, the kernel log shows no "
	    "errors and the soak test checked every byte: the "
	    "change makes the card safer, not faster, so it was "
	    "kept whatever the benchmark says."),
	 NULL,
	 NULL},
	/* Translators: %s lists the figures: test, before → after, change, spreads */
	{"figure-worse",
	 N_("A figure got worse by more than its spread "
	    "(%s), so the change was undone."),
	 NULL,
	 "; "},
	{"no-figures",
	 N_("Verification could not run: there is no "
	    "benchmark from before and after the change, so "
	    "SD Tuner cannot show that it helped; the change "
	    "was undone."),
	 NULL,
	 NULL},
	{"no-improvement",
	 N_("No figure improved by more than the combined "
	    "spread of the runs before and after, so the "
	    "change was undone."),
	 NULL,
	 NULL},
	/* Translators: %s lists the figures: test, before → after, change, spreads */
	{"works",
	 N_("The change works: no errors, the soak test "
	    "checked every byte, and it is faster (%s). It "
	    "was kept."),
	 NULL,
	 "; "},
	/* Translators: %s says what is wrong with the file */
	{"record-damaged",
	 N_("SD Tuner's record of the pending change is damaged (%s), so nothing "
	    "in it can be trusted: the change was undone."),
	 NULL,
	 NULL},
};

/* the reason's format for @count: its msgid (English, whatever the locale), or its
 * translation in the thread's language (@translate) */
static const gchar *
sdt_l10n_reason_format(const SdtL10nReason *r, gulong count, gboolean translate)
{
	gpointer before;
	const gchar *format;

	if (translate)
		return r->msgid != NULL ? g_dgettext(GETTEXT_PACKAGE, r->msgid) : r->plural(count);
	if (r->msgid != NULL)
		return r->msgid;
	/* the plural form's English: a static string of the program */
	before = sdt_l10n_english_begin();
	format = r->plural(count);
	sdt_l10n_english_end(before);
	return format;
}

static const SdtL10nReason *
sdt_l10n_reason_find(const gchar *code)
{
	for (guint i = 0; code != NULL && i < G_N_ELEMENTS(sdt_l10n_reasons); i++) {
		if (strcmp(code, sdt_l10n_reasons[i].code) == 0)
			return &sdt_l10n_reasons[i];
	}
	return NULL;
}

/* how many values a format takes (the highest position its placeholders name) */
static guint
sdt_l10n_format_args(const gchar *format)
{
	g_autofree gchar *probe = NULL;
	const gchar *marks[] = {"\x01", "\x02", "\x03", "\x04", "\x05", "\x06", "\x07", NULL};
	guint n = 0;

	probe = sdt_l10n_fill_args(format, marks);
	for (guint i = 0; marks[i] != NULL; i++) {
		if (strstr(probe, marks[i]) != NULL)
			n = i + 1;
	}
	return n;
}

/* every argument a string or a list of strings, as many as the format takes */
static gboolean
sdt_l10n_reason_args_fit(const SdtL10nReason *r, JsonArray *args)
{
	guint n = args != NULL ? json_array_get_length(args) : 0;

	if (n != sdt_l10n_format_args(sdt_l10n_reason_format(r, 2, FALSE)))
		return FALSE;
	for (guint i = 0; i < n; i++) {
		JsonNode *a = json_array_get_element(args, i);
		if (JSON_NODE_HOLDS_ARRAY(a)) {
			JsonArray *list = json_node_get_array(a);
			if (r->list_sep == NULL)
				return FALSE;
			for (guint j = 0; j < json_array_get_length(list); j++) {
				JsonNode *e = json_array_get_element(list, j);
				if (!JSON_NODE_HOLDS_VALUE(e) ||
				    json_node_get_value_type(e) != G_TYPE_STRING)
					return FALSE;
			}
		} else if (!JSON_NODE_HOLDS_VALUE(a) ||
			   json_node_get_value_type(a) != G_TYPE_STRING) {
			return FALSE;
		}
	}
	return TRUE;
}

/* the count that chooses the plural form: the first argument that is a number */
static gulong
sdt_l10n_reason_count(JsonArray *args)
{
	for (guint i = 0; args != NULL && i < json_array_get_length(args); i++) {
		JsonNode *a = json_array_get_element(args, i);
		guint64 v;
		if (JSON_NODE_HOLDS_VALUE(a) && g_ascii_string_to_unsigned(json_node_get_string(a),
									   10,
									   0,
									   G_MAXUINT64,
									   &v,
									   NULL))
			return (gulong) MIN(v, G_MAXULONG);
	}
	return 1;
}

/* a decimal number written in C ("80.0") */
static gboolean
sdt_l10n_is_number(const gchar *text)
{
	return g_regex_match_simple("\\A[-+]?[0-9]+(\\.[0-9]+)?\\z", text, 0, 0);
}

/* @text with the decimal point of each number the locale's */
static gchar *
sdt_l10n_local_decimals(const gchar *text)
{
	const gchar *point = localeconv()->decimal_point;
	g_autoptr(GRegex) rx = NULL;

	if (point == NULL || strcmp(point, ".") == 0)
		return g_strdup(text);
	rx = g_regex_new("(?<=[0-9])\\.(?=[0-9])", 0, 0, NULL);
	return g_regex_replace_literal(rx, text, -1, 0, point, 0, NULL);
}

/* one value in the reader's language: a number with the locale's decimal point, a
 * benchmark figure ("seq-read: 20.0 → 22.0 MB/s (…)") with the test's title, an
 * English library sentence translated; ids and names stay as they are */
static gchar *
sdt_l10n_reason_value(const gchar *value)
{
	const gchar *colon = strstr(value, ": ");

	if (sdt_l10n_is_number(value))
		return sdt_l10n_local_decimals(value);
	if (colon != NULL) {
		g_autofree gchar *id = g_strndup(value, colon - value);
		const gchar *title = sdt_l10n_bench_test(id);
		if (title != id && strcmp(title, id) != 0) {
			g_autofree gchar *rest = sdt_l10n_local_decimals(colon + 2);
			/* Translators: a benchmark test's title, then its figures */
			return g_strdup_printf(_("%s: %s"), title, rest);
		}
	}
	return g_strdup(sdt_l10n_tr(value));
}

/* a list's separator in the reader's language */
static const gchar *
sdt_l10n_list_sep(const gchar *english)
{
	if (strcmp(english, "; ") == 0)
		/* Translators: what goes between the benchmark figures of a list
		 * (“Sequential write: 9.2 → 8.2 MB/s (…); Random 4K read (QD1): …”) */
		return C_("figure list separator", "; ");
	/* Translators: what goes between the items of a list (“reducing overclock
	 * due to errors”, 3 time-outs) */
	return C_("list separator", ", ");
}

/* the arguments as text, each translated (@translate) or as stored */
static GStrv
sdt_l10n_reason_values(const SdtL10nReason *r, JsonArray *args, gboolean translate)
{
	guint n = args != NULL ? json_array_get_length(args) : 0;
	GStrv values = g_new0(gchar *, n + 1);

	for (guint i = 0; i < n; i++) {
		JsonNode *a = json_array_get_element(args, i);
		if (JSON_NODE_HOLDS_ARRAY(a)) {
			JsonArray *list = json_node_get_array(a);
			g_autoptr(GString) joined = g_string_new(NULL);
			for (guint j = 0; j < json_array_get_length(list); j++) {
				const gchar *e = json_array_get_string_element(list, j);
				g_autofree gchar *t =
					translate ? sdt_l10n_reason_value(e) : g_strdup(e);
				if (j > 0)
					g_string_append(joined,
							translate ? sdt_l10n_list_sep(r->list_sep)
								  : r->list_sep);
				g_string_append(joined, t);
			}
			values[i] = g_string_free(g_steal_pointer(&joined), FALSE);
		} else {
			const gchar *s = json_node_get_string(a);
			values[i] = translate ? sdt_l10n_reason_value(s) : g_strdup(s);
		}
	}
	return values;
}

static gchar *
sdt_l10n_reason_render(const SdtL10nReason *r, JsonArray *args, gboolean translate)
{
	gulong count = sdt_l10n_reason_count(args);
	g_auto(GStrv) values = sdt_l10n_reason_values(r, args, translate);
	const gchar *format = sdt_l10n_reason_format(r, count, translate);

	return sdt_l10n_fill_args(format, (const gchar *const *) values);
}

gchar *
sdt_l10n_record_reason_english(const gchar *code, JsonArray *args)
{
	const SdtL10nReason *r = sdt_l10n_reason_find(code);

	if (r == NULL || !sdt_l10n_reason_args_fit(r, args))
		return NULL;
	return sdt_l10n_reason_render(r, args, FALSE);
}

const gchar *
sdt_l10n_record_reason_tr(const gchar *code, JsonArray *args, const gchar *english)
{
	static GMutex lock;
	static GHashTable *cache;
	const SdtL10nReason *r = sdt_l10n_reason_find(code);
	g_autofree gchar *key = NULL;
	const gchar *result;

	if (r == NULL || !sdt_l10n_reason_args_fit(r, args))
		return sdt_l10n_tr(english);
	{
		g_autoptr(JsonNode) node = json_node_new(JSON_NODE_ARRAY);
		g_autofree gchar *text = NULL;
		json_node_set_array(node, args != NULL ? args : json_array_new());
		text = sdt_json_to_string(node, FALSE);
		key = g_strconcat(code, "\n", text, NULL);
	}
	g_mutex_lock(&lock);
	if (cache == NULL)
		cache = g_hash_table_new(g_str_hash, g_str_equal);
	result = g_hash_table_lookup(cache, key);
	if (result == NULL) {
		gchar *shown = sdt_l10n_reason_render(r, args, TRUE);
		g_hash_table_insert(cache, g_steal_pointer(&key), shown);
		result = shown;
	}
	g_mutex_unlock(&lock);
	return result;
}

JsonArray *
sdt_l10n_record_args(const gchar *first, ...)
{
	JsonArray *args = json_array_new();
	va_list ap;

	va_start(ap, first);
	for (const gchar *s = first; s != NULL; s = va_arg(ap, const gchar *))
		json_array_add_string_element(args, s);
	va_end(ap);
	return args;
}

/* the typed reason (SdtL10nRecordReason) ------------------------------------ */

static void
sdt_l10n_record_arg_free(gpointer data)
{
	SdtL10nRecordArg *a = data;

	if (a == NULL)
		return;
	g_free(a->value);
	g_strfreev(a->list);
	g_free(a);
}

GPtrArray *
sdt_l10n_record_reason_args_new(void)
{
	return g_ptr_array_new_with_free_func(sdt_l10n_record_arg_free);
}

void
sdt_l10n_record_reason_args_add(GPtrArray *args, const gchar *value)
{
	SdtL10nRecordArg *a = g_new0(SdtL10nRecordArg, 1);

	a->value = g_strdup(value);
	g_ptr_array_add(args, a);
}

void
sdt_l10n_record_reason_args_add_list(GPtrArray *args, GPtrArray *list)
{
	SdtL10nRecordArg *a = g_new0(SdtL10nRecordArg, 1);

	a->list = g_new0(gchar *, list->len + 1);
	for (guint i = 0; i < list->len; i++)
		a->list[i] = g_strdup(g_ptr_array_index(list, i));
	g_ptr_array_add(args, a);
}

/* the arguments as the reason's members carry them (a new array) */
static JsonArray *
sdt_l10n_record_args_to_json(GPtrArray *args)
{
	JsonArray *array = json_array_new();

	for (guint i = 0; args != NULL && i < args->len; i++) {
		const SdtL10nRecordArg *a = g_ptr_array_index(args, i);
		if (a->list != NULL) {
			JsonArray *list = json_array_new();
			for (guint j = 0; a->list[j] != NULL; j++)
				json_array_add_string_element(list, a->list[j]);
			json_array_add_array_element(array, list);
		} else {
			json_array_add_string_element(array, a->value != NULL ? a->value : "");
		}
	}
	return array;
}

/* "reason_args" as the typed list, or NULL when an element is neither text nor a
 * list of text (another version, or edited by hand) */
static GPtrArray *
sdt_l10n_record_args_from_json(JsonArray *array)
{
	g_autoptr(GPtrArray) args = sdt_l10n_record_reason_args_new();

	for (guint i = 0; i < json_array_get_length(array); i++) {
		JsonNode *e = json_array_get_element(array, i);
		g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func(g_free);
		JsonArray *values;
		if (JSON_NODE_HOLDS_VALUE(e) && json_node_get_value_type(e) == G_TYPE_STRING) {
			sdt_l10n_record_reason_args_add(args, json_node_get_string(e));
			continue;
		}
		if (!JSON_NODE_HOLDS_ARRAY(e))
			return NULL;
		values = json_node_get_array(e);
		for (guint j = 0; j < json_array_get_length(values); j++) {
			JsonNode *v = json_array_get_element(values, j);
			if (!JSON_NODE_HOLDS_VALUE(v) ||
			    json_node_get_value_type(v) != G_TYPE_STRING)
				return NULL;
			g_ptr_array_add(list, g_strdup(json_node_get_string(v)));
		}
		sdt_l10n_record_reason_args_add_list(args, list);
	}
	return g_steal_pointer(&args);
}

SdtL10nRecordReason *
sdt_l10n_record_reason_new(const gchar *code, GPtrArray *args)
{
	SdtL10nRecordReason *r = g_new0(SdtL10nRecordReason, 1);
	g_autoptr(JsonArray) array = NULL;

	r->code = g_strdup(code);
	r->args = args != NULL ? args : sdt_l10n_record_reason_args_new();
	array = sdt_l10n_record_args_to_json(r->args);
	r->text = sdt_l10n_record_reason_english(code, array);
	g_warn_if_fail(r->text != NULL);
	return r;
}

SdtL10nRecordReason *
sdt_l10n_record_reason_copy(const SdtL10nRecordReason *reason)
{
	SdtL10nRecordReason *r;

	if (reason == NULL)
		return NULL;
	r = g_new0(SdtL10nRecordReason, 1);
	r->text = g_strdup(reason->text);
	r->code = g_strdup(reason->code);
	if (reason->args != NULL) {
		r->args = sdt_l10n_record_reason_args_new();
		for (guint i = 0; i < reason->args->len; i++) {
			const SdtL10nRecordArg *a = g_ptr_array_index(reason->args, i);
			SdtL10nRecordArg *c = g_new0(SdtL10nRecordArg, 1);
			c->value = g_strdup(a->value);
			c->list = g_strdupv(a->list);
			g_ptr_array_add(r->args, c);
		}
	}
	return r;
}

void
sdt_l10n_record_reason_free(SdtL10nRecordReason *reason)
{
	if (reason == NULL)
		return;
	g_free(reason->text);
	g_free(reason->code);
	g_clear_pointer(&reason->args, g_ptr_array_unref);
	g_free(reason);
}

const gchar *
sdt_l10n_record_reason_shown(const SdtL10nRecordReason *reason)
{
	g_autoptr(JsonArray) args = NULL;

	if (reason == NULL || reason->text == NULL)
		return "";
	if (reason->args != NULL)
		args = sdt_l10n_record_args_to_json(reason->args);
	return sdt_l10n_record_reason_tr(reason->code, args, reason->text);
}

#define SDT_L10N_RECORD_KEY_REASON "reason"
#define SDT_L10N_RECORD_KEY_CODE   "reason_code"
#define SDT_L10N_RECORD_KEY_ARGS   "reason_args"

gboolean
sdt_l10n_record_reason_read(JsonObject *obj,
			    const gchar *where,
			    SdtL10nRecordReason **reason,
			    GError **error)
{
	g_autoptr(SdtL10nRecordReason) r = g_new0(SdtL10nRecordReason, 1);
	JsonNode *code;
	JsonNode *args;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	code = json_object_get_member(obj, SDT_L10N_RECORD_KEY_CODE);
	args = json_object_get_member(obj, SDT_L10N_RECORD_KEY_ARGS);
	*reason = NULL;
	if (!sdt_json_strict_string(obj, where, SDT_L10N_RECORD_KEY_REASON, &r->text, error))
		return FALSE;
	/* a reason of another version, or edited by hand, is never an error: its
	 * English text is there to show */
	if (code != NULL && JSON_NODE_HOLDS_VALUE(code) &&
	    json_node_get_value_type(code) == G_TYPE_STRING)
		r->code = g_strdup(json_node_get_string(code));
	if (args != NULL && JSON_NODE_HOLDS_ARRAY(args))
		r->args = sdt_l10n_record_args_from_json(json_node_get_array(args));
	if (r->text != NULL || r->code != NULL || r->args != NULL)
		*reason = g_steal_pointer(&r);
	return TRUE;
}

void
sdt_l10n_record_reason_write(JsonBuilder *b, const SdtL10nRecordReason *reason)
{
	if (reason == NULL)
		return;
	if (reason->text != NULL) {
		json_builder_set_member_name(b, SDT_L10N_RECORD_KEY_REASON);
		json_builder_add_string_value(b, reason->text);
	}
	if (reason->code != NULL) {
		json_builder_set_member_name(b, SDT_L10N_RECORD_KEY_CODE);
		json_builder_add_string_value(b, reason->code);
	}
	if (reason->args != NULL) {
		g_autoptr(JsonNode) node = json_node_new(JSON_NODE_ARRAY);
		json_node_take_array(node, sdt_l10n_record_args_to_json(reason->args));
		json_builder_set_member_name(b, SDT_L10N_RECORD_KEY_ARGS);
		json_builder_add_value(b, g_steal_pointer(&node));
	}
}

/**
 * sdt_l10n_record_history_kind:
 * @kind: (nullable): a history entry's "kind"
 *
 * Returns: (transfer none): the kind as a word for people; an unknown kind of
 * another version as it is
 */
const gchar *
sdt_l10n_record_history_kind(const gchar *kind)
{
	static const struct {
		const gchar *kind;
		const gchar *word;
	} kinds[] = {
		/* Translators: kinds of history entries */
		{"bench", N_("benchmark")},
		{"check", N_("authenticity check")},
		{"soak", N_("soak test")},
		{"apply", N_("change")},
		{"revert", N_("revert")},
		{"verify", N_("verification")},
	};

	for (guint i = 0; kind != NULL && i < G_N_ELEMENTS(kinds); i++) {
		if (strcmp(kind, kinds[i].kind) == 0)
			return _(kinds[i].word);
	}
	return kind != NULL ? kind : "?";
}

const gchar *
sdt_l10n_record_decision(const gchar *decision)
{
	if (g_strcmp0(decision, "keep") == 0)
		/* Translators: a verification's decision: keep the change */
		return C_("decision", "keep");
	if (g_strcmp0(decision, "step-down") == 0)
		/* Translators: a verification's decision: the next slower clock step */
		return C_("decision", "step down");
	if (g_strcmp0(decision, "undo") == 0)
		/* Translators: a verification's decision: take the change back */
		return C_("decision", "undo");
	if (g_strcmp0(decision, "wait") == 0)
		/* Translators: a verification's decision: wait for a restart */
		return C_("decision", "wait");
	return decision != NULL ? decision : "?";
}

const gchar *
sdt_l10n_record_check_verdict(const gchar *verdict)
{
	if (g_strcmp0(verdict, "genuine") == 0)
		/* Translators: a check's verdict: the card holds what it claims */
		return C_("verdict", "genuine");
	if (g_strcmp0(verdict, "fake") == 0)
		/* Translators: a check's verdict: the card holds less than it claims */
		return C_("verdict", "fake");
	/* Translators: a check's verdict: neither could be shown */
	return C_("verdict", "not determinable");
}

gchar *
sdt_l10n_record_bench_note(const gchar *note)
{
	const gchar *gap = note != NULL ? strstr(note, " skipped: ") : NULL;

	if (gap != NULL) {
		g_autofree gchar *id = g_strndup(note, gap - note);
		const gchar *title = sdt_l10n_bench_test(id);

		if (strcmp(title, id) != 0)
			/* Translators: a benchmark test's title ("Raw device read"), then why it
			 * did not run */
			return g_strdup_printf(_("%s: skipped, %s"),
					       title,
					       sdt_l10n_tr(gap + strlen(" skipped: ")));
	}
	return g_strdup(sdt_l10n_tr(note));
}
