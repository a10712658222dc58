/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sdt-history-report.h"
#include "sdt-json-private.h"
#include "sdt-json-strict-private.h"
#include "sdt-json.h"
#include "sdt-verify-report-private.h"

#define KEY_KIND            "kind"
#define KEY_TIME            "time"
#define KEY_ID              "id"
#define KEY_TRIAL           "trial"
#define KEY_TRIAL_CANCELLED "trial_cancelled"
#define KEY_CHANGED         "changed"
#define KEY_PROFILE         "profile"
#define KEY_TARGET          "target"
#define KEY_PATH            "path"
#define KEY_STAND_IN        "stand_in"
#define KEY_RESULT          "result"
#define KEY_EVIDENCE        "evidence"
#define KEY_FIGURES         "figures"
#define KEY_NAME            "name"
#define KEY_UNIT            "unit"
#define KEY_BEFORE          "before"
#define KEY_BEFORE_SPREAD   "before_spread"
#define KEY_AFTER           "after"
#define KEY_AFTER_SPREAD    "after_spread"
#define KEY_VERDICT         "verdict"
#define KEY_REASON          "reason"
#define KEY_IDENTITY        "identity"
#define KEY_DEVICE          "device"
#define KEY_SOAK            "soak"
#define KEY_MISMATCHES      "mismatches"
#define KEY_SERIAL          "serial"
#define KEY_CARD            "card"
#define KEY_IN_SLOT         "in_slot"
#define KEY_TESTS           "tests"
#define KEY_POINTS          "points"
#define KEY_VALUE           "value"
#define KEY_SPREAD          "spread"
#define KEY_CHANGE          "change"
#define KEY_CHANGES         "changes"

/* the series' half of the codec, at the end */
static gboolean sdt_history_report_read_series(JsonArray *array, GPtrArray *out, GError **error);
static void sdt_history_report_put_series(JsonBuilder *b, GPtrArray *series);
static void sdt_history_report_test_free(SdtHistoryReportTest *t);
static void sdt_history_report_series_free(SdtHistoryReportSeries *series);

static void
sdt_history_report_figure_free(SdtHistoryReportFigure *f)
{
	g_free(f->name);
	g_free(f->unit);
	g_free(f);
}

static void
sdt_history_report_entry_free(SdtHistoryReportEntry *e)
{
	g_free(e->kind);
	g_free(e->time);
	g_free(e->id);
	g_free(e->profile);
	g_free(e->target_path);
	g_free(e->verdict);
	g_free(e->reason);
	g_free(e->checked_device);
	sdt_bench_record_free(e->bench);
	sdt_verify_report_free(e->verification);
	g_ptr_array_unref(e->figures);
	g_clear_error(&e->error);
	if (e->node != NULL)
		json_node_unref(e->node);
	g_free(e);
}

SdtHistoryReportCard *
sdt_history_report_card_new(const gchar *id, const gchar *name, const gchar *serial)
{
	SdtHistoryReportCard *c = g_new0(SdtHistoryReportCard, 1);

	c->id = g_strdup(id);
	c->name = g_strdup(name);
	c->serial = g_strdup(serial);
	return c;
}

void
sdt_history_report_card_free(SdtHistoryReportCard *card)
{
	if (card == NULL)
		return;
	g_free(card->id);
	g_free(card->name);
	g_free(card->serial);
	g_free(card);
}

SdtHistoryReport *
sdt_history_report_new(void)
{
	SdtHistoryReport *r = g_new0(SdtHistoryReport, 1);

	r->entries = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_history_report_entry_free);
	r->series = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_history_report_series_free);
	r->warnings = g_ptr_array_new_with_free_func(g_free);
	return r;
}

void
sdt_history_report_free(SdtHistoryReport *report)
{
	if (report == NULL)
		return;
	g_ptr_array_unref(report->entries);
	g_ptr_array_unref(report->series);
	sdt_history_report_card_free(report->card_in_slot);
	g_ptr_array_unref(report->warnings);
	g_free(report);
}

/* the reading direction of an entry: a member that cannot be read stays unknown; the
 * first such is kept in e->error */

static void
sdt_history_report_note(SdtHistoryReportEntry *e, gboolean ok, GError *error)
{
	if (!ok && e->error == NULL)
		e->error = error;
	else if (!ok)
		g_error_free(error);
}

static void
sdt_history_report_read_bench(JsonObject *obj, const gchar *at, SdtHistoryReportEntry *e)
{
	JsonObject *target = NULL;
	g_autofree gchar *at_target = g_strdup_printf("%s." KEY_TARGET, at);
	GError *error = NULL;
	gboolean ok;

	ok = sdt_json_strict_string(obj, at, KEY_PROFILE, &e->profile, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_object(obj, at, KEY_TARGET, &target, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_string(target, at_target, KEY_PATH, &e->target_path, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_bool(target, at_target, KEY_STAND_IN, FALSE, &e->stand_in, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
}

/*
 * The benchmark of a bench entry (its members, or under "result"); an entry without a
 * readable one keeps none, and only the log says why: the history may hold entries of
 * other versions or edited by hand.
 */
static void
sdt_history_report_read_result(JsonObject *obj, const gchar *at, SdtHistoryReportEntry *e)
{
	JsonObject *result = NULL;
	GError *error = NULL;
	gboolean ok;

	ok = sdt_json_strict_object(obj, at, KEY_RESULT, &result, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	e->bench = sdt_bench_record_from_json(result != NULL ? result : obj, &error);
	if (e->bench == NULL) {
		g_debug("%s without a readable result: %s", at, error->message);
		g_error_free(error);
	}
}

/* one of "evidence.figures"; a member of the wrong type stays unknown */
static SdtHistoryReportFigure *
sdt_history_report_read_figure(JsonObject *o, const gchar *at, SdtHistoryReportEntry *e)
{
	SdtHistoryReportFigure *f = g_new0(SdtHistoryReportFigure, 1);
	const gchar *numbers[] = {KEY_BEFORE, KEY_BEFORE_SPREAD, KEY_AFTER, KEY_AFTER_SPREAD};
	gdouble *values[] = {&f->before, &f->before_spread, &f->after, &f->after_spread};
	GError *error = NULL;
	gboolean ok;

	ok = sdt_json_strict_string(o, at, KEY_NAME, &f->name, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_string(o, at, KEY_UNIT, &f->unit, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	for (guint i = 0; i < G_N_ELEMENTS(numbers); i++) {
		ok = sdt_json_strict_number(o, at, numbers[i], values[i], &error);
		sdt_history_report_note(e, ok, g_steal_pointer(&error));
	}
	return f;
}

/* the before/after figures of a verify entry's evidence */
static void
sdt_history_report_read_figures(JsonObject *obj, const gchar *at, SdtHistoryReportEntry *e)
{
	g_autofree gchar *at_evidence = g_strdup_printf("%s." KEY_EVIDENCE, at);
	JsonObject *evidence = NULL;
	JsonArray *figures = NULL;
	GError *error = NULL;
	gboolean ok;

	ok = sdt_json_strict_object(obj, at, KEY_EVIDENCE, &evidence, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_array(evidence, at_evidence, KEY_FIGURES, &figures, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	for (guint i = 0; figures != NULL && i < json_array_get_length(figures); i++) {
		g_autofree gchar *at_figure = sdt_json_strict_element(at_evidence, KEY_FIGURES, i);
		JsonObject *o = sdt_json_strict_element_object(json_array_get_element(figures, i),
							       at_figure,
							       &error);

		ok = o != NULL;
		sdt_history_report_note(e, ok, g_steal_pointer(&error));
		if (ok)
			g_ptr_array_add(e->figures,
					sdt_history_report_read_figure(o, at_figure, e));
	}
}

/* a soak test's result: how many bytes read back wrong */
static void
sdt_history_report_read_soak(JsonObject *obj, const gchar *at, SdtHistoryReportEntry *e)
{
	g_autofree gchar *at_soak = g_strdup_printf("%s." KEY_SOAK, at);
	JsonObject *soak = NULL;
	GError *error = NULL;
	gboolean ok;

	ok = sdt_json_strict_object(obj, at, KEY_SOAK, &soak, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_int(soak, at_soak, KEY_MISMATCHES, -1, &e->soak_mismatches, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
}

/* a check: its verdict, and the device it was checked as ("identity", issue 34) */
static void
sdt_history_report_read_check(JsonObject *obj, const gchar *at, SdtHistoryReportEntry *e)
{
	g_autofree gchar *where = g_strconcat(at, "." KEY_IDENTITY, NULL);
	JsonObject *identity = NULL;
	GError *error = NULL;
	gboolean ok;

	ok = sdt_json_strict_string(obj, at, KEY_VERDICT, &e->verdict, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_string(obj, at, KEY_REASON, &e->reason, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_object(obj, at, KEY_IDENTITY, &identity, &error);
	if (ok && identity != NULL)
		ok = sdt_json_strict_string(identity,
					    where,
					    KEY_DEVICE,
					    &e->checked_device,
					    &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
}

/* the members every entry may have */
static void
sdt_history_report_read_common(JsonObject *obj, const gchar *at, SdtHistoryReportEntry *e)
{
	GError *error = NULL;
	gboolean ok;

	ok = sdt_json_strict_string(obj, at, KEY_KIND, &e->kind, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_string(obj, at, KEY_TIME, &e->time, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_string(obj, at, KEY_ID, &e->id, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_bool(obj, at, KEY_TRIAL, FALSE, &e->trial, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_bool(obj, at, KEY_TRIAL_CANCELLED, FALSE, &e->trial_cancelled, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_bool(obj, at, KEY_CHANGED, TRUE, &e->changed, &error);
	sdt_history_report_note(e, ok, g_steal_pointer(&error));
}

static void
sdt_history_report_add_entry(SdtHistoryReport *report, JsonNode *node)
{
	SdtHistoryReportEntry *e;
	g_autofree gchar *at = NULL;
	JsonObject *obj;
	GError *error = NULL;

	g_return_if_fail(report != NULL);
	g_return_if_fail(node != NULL);

	e = g_new0(SdtHistoryReportEntry, 1);
	at = sdt_json_strict_element(NULL, SDT_HISTORY_REPORT_KEY_ENTRIES, report->entries->len);
	obj = JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
	e->node = json_node_ref(node);
	e->figures =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_history_report_figure_free);
	e->soak_mismatches = -1;
	sdt_history_report_read_common(obj, at, e);
	if (g_strcmp0(e->kind, "bench") == 0) {
		sdt_history_report_read_bench(obj, at, e);
		sdt_history_report_read_result(obj, at, e);
	}
	if (g_strcmp0(e->kind, "check") == 0)
		sdt_history_report_read_check(obj, at, e);
	if (g_strcmp0(e->kind, "soak") == 0)
		sdt_history_report_read_soak(obj, at, e);
	if (g_strcmp0(e->kind, "verify") == 0) {
		e->verification = sdt_verify_report_from_json_at(obj, at, &error);
		sdt_history_report_note(e, e->verification != NULL, g_steal_pointer(&error));
		if (e->verification == NULL)
			e->verification = sdt_verify_report_new();
		sdt_history_report_read_figures(obj, at, e);
	}
	if (obj == NULL && e->error == NULL)
		sdt_json_strict_missing(NULL, at, &e->error);
	g_ptr_array_add(report->entries, e);
}

/* the reading direction of the document: its own members are strict */

static gboolean
sdt_history_report_read_card(JsonObject *obj, SdtHistoryReport *r, GError **error)
{
	const gchar *at = SDT_HISTORY_REPORT_KEY_CARD_IN_SLOT;
	JsonObject *card = NULL;
	g_autoptr(SdtHistoryReportCard) c = g_new0(SdtHistoryReportCard, 1);

	if (!sdt_json_strict_object(obj, NULL, at, &card, error))
		return FALSE;
	if (card == NULL)
		return TRUE;
	if (!sdt_json_strict_string(card, at, KEY_ID, &c->id, error) ||
	    !sdt_json_strict_string(card, at, KEY_NAME, &c->name, error) ||
	    !sdt_json_strict_string(card, at, KEY_SERIAL, &c->serial, error))
		return FALSE;
	r->card_in_slot = g_steal_pointer(&c);
	return TRUE;
}

SdtHistoryReport *
sdt_history_report_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtHistoryReport) r = NULL;
	g_autoptr(GError) error_series = NULL;
	JsonArray *entries = NULL;
	JsonArray *series = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	r = sdt_history_report_new();
	if (!sdt_json_strict_array(obj, NULL, SDT_HISTORY_REPORT_KEY_ENTRIES, &entries, error) ||
	    !sdt_json_strict_array(obj, NULL, SDT_HISTORY_REPORT_KEY_SERIES, &series, error) ||
	    !sdt_history_report_read_card(obj, r, error) ||
	    !sdt_json_strict_strings(obj,
				     NULL,
				     SDT_HISTORY_REPORT_KEY_WARNINGS,
				     r->warnings,
				     error))
		return NULL;
	for (guint i = 0; entries != NULL && i < json_array_get_length(entries); i++)
		sdt_history_report_add_entry(r, json_array_get_element(entries, i));
	/* a series that cannot be read is left out, never the whole history */
	if (!sdt_history_report_read_series(series, r->series, &error_series))
		g_debug("history series: %s", error_series->message);
	return g_steal_pointer(&r);
}

void
sdt_history_report_add_history_entry(SdtHistoryReport *report, const SdtHistoryEntry *entry)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_if_fail(report != NULL);
	g_return_if_fail(entry != NULL);

	node = sdt_history_entry_to_json(entry);
	sdt_history_report_add_entry(report, node);
}

SdtHistoryReport *
sdt_history_report_parse(const gchar *text, GError **error)
{
	g_autoptr(JsonNode) root = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL, NULL);

	root = sdt_json_reader_parse(text, error);
	if (root == NULL)
		return NULL;
	return sdt_history_report_from_json(json_node_get_object(root), error);
}

/* the writing direction: in the order history has always written */

static void
sdt_history_report_put_card(JsonBuilder *b, const gchar *name, const SdtHistoryReportCard *card)
{
	json_builder_set_member_name(b, name);
	if (card == NULL) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
	json_builder_set_member_name(b, KEY_ID);
	json_builder_add_string_value(b, card->id);
	sdt_json_string_or_null(b, KEY_NAME, card->name);
	sdt_json_string_or_null(b, KEY_SERIAL, card->serial);
	json_builder_end_object(b);
}

JsonNode *
sdt_history_report_to_json(const SdtHistoryReport *report)
{
	g_autoptr(JsonBuilder) b = NULL;

	g_return_val_if_fail(report != NULL, NULL);

	b = json_builder_new();
	json_builder_begin_object(b);
	json_builder_set_member_name(b, SDT_HISTORY_REPORT_KEY_ENTRIES);
	json_builder_begin_array(b);
	for (guint i = 0; i < report->entries->len; i++) {
		const SdtHistoryReportEntry *e = g_ptr_array_index(report->entries, i);
		json_builder_add_value(b, json_node_copy(e->node));
	}
	json_builder_end_array(b);
	/* each card's figures over time; the card in the slot (null: none, or no CID) */
	json_builder_set_member_name(b, SDT_HISTORY_REPORT_KEY_SERIES);
	sdt_history_report_put_series(b, report->series);
	sdt_history_report_put_card(b, SDT_HISTORY_REPORT_KEY_CARD_IN_SLOT, report->card_in_slot);
	/* entries skipped as damaged, so that a missing entry is explained */
	if (report->warnings->len > 0)
		sdt_json_put_strings(b, SDT_HISTORY_REPORT_KEY_WARNINGS, report->warnings);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gchar *
sdt_history_report_to_string(const SdtHistoryReport *report)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(report != NULL, NULL);

	node = sdt_history_report_to_json(report);
	/* entries of other versions may hold any bytes: the text is UTF-8 */
	sdt_json_sanitize_utf8(node);
	return sdt_json_to_string(node, TRUE);
}

/* the series: a card's runs, test by test */

SdtHistoryReportSeries *
sdt_history_report_series_new(void)
{
	SdtHistoryReportSeries *s = g_new0(SdtHistoryReportSeries, 1);

	s->tests = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_history_report_test_free);
	s->changes =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_history_report_change_free);
	return s;
}

static void
sdt_history_report_series_free(SdtHistoryReportSeries *series)
{
	if (series == NULL)
		return;
	g_free(series->card_id);
	g_free(series->card_name);
	g_free(series->card_serial);
	g_ptr_array_unref(series->tests);
	g_ptr_array_unref(series->changes);
	g_free(series);
}

static void
sdt_history_report_point_free(SdtHistoryReportPoint *p)
{
	g_free(p->time);
	g_free(p->change);
	g_free(p);
}

SdtHistoryReportPoint *
sdt_history_report_point_new(void)
{
	SdtHistoryReportPoint *p = g_new0(SdtHistoryReportPoint, 1);

	p->value = p->spread = NAN;
	return p;
}

SdtHistoryReportTest *
sdt_history_report_test_new(const gchar *name, const gchar *unit)
{
	SdtHistoryReportTest *t = g_new0(SdtHistoryReportTest, 1);

	t->name = g_strdup(name);
	t->unit = g_strdup(unit);
	t->points = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_history_report_point_free);
	return t;
}

static void
sdt_history_report_test_free(SdtHistoryReportTest *t)
{
	g_free(t->name);
	g_free(t->unit);
	g_ptr_array_unref(t->points);
	g_free(t);
}

SdtHistoryReportChange *
sdt_history_report_change_new(const gchar *time, const gchar *kind, const gchar *id)
{
	SdtHistoryReportChange *c = g_new0(SdtHistoryReportChange, 1);

	c->time = g_strdup(time);
	c->kind = g_strdup(kind);
	c->id = g_strdup(id);
	return c;
}

void
sdt_history_report_change_free(SdtHistoryReportChange *c)
{
	g_free(c->time);
	g_free(c->kind);
	g_free(c->id);
	g_free(c);
}

/* keeps the first problem met, drops the others */
static void
sdt_history_series_note(GError **first, GError *error)
{
	if (error == NULL)
		return;
	if (*first == NULL)
		*first = error;
	else
		g_error_free(error);
}

static gint64
sdt_history_series_usec(const gchar *time)
{
	g_autoptr(GDateTime) dt = time != NULL ? g_date_time_new_from_iso8601(time, NULL) : NULL;

	return dt != NULL
		       ? g_date_time_to_unix(dt) * G_USEC_PER_SEC + g_date_time_get_microsecond(dt)
		       : 0;
}

/* the elements of @array (named @at.@member) that are objects, each with its name for
 * errors, in pairs: the object (borrowed), then its name */
static GPtrArray *
sdt_history_series_objects(JsonArray *array, const gchar *at, const gchar *member, GError **first)
{
	GPtrArray *out = g_ptr_array_new();
	GError *error = NULL;

	for (guint i = 0; array != NULL && i < json_array_get_length(array); i++) {
		gchar *where = sdt_json_strict_element(at, member, i);
		JsonObject *o = sdt_json_strict_element_object(json_array_get_element(array, i),
							       where,
							       &error);
		if (o == NULL) {
			sdt_history_series_note(first, g_steal_pointer(&error));
			g_free(where);
			continue;
		}
		g_ptr_array_add(out, o);
		g_ptr_array_add(out, where);
	}
	return out;
}

static void
sdt_history_series_objects_free(GPtrArray *pairs)
{
	for (guint i = 0; i + 1 < pairs->len; i += 2)
		g_free(g_ptr_array_index(pairs, i + 1));
	g_ptr_array_unref(pairs);
}

/* the array @member of @o, or NULL (and the problem noted) */
static JsonArray *
sdt_history_series_array(JsonObject *o, const gchar *at, const gchar *member, GError **first)
{
	JsonArray *array = NULL;
	GError *error = NULL;

	if (!sdt_json_strict_array(o, at, member, &array, &error))
		sdt_history_series_note(first, g_steal_pointer(&error));
	return array;
}

static SdtHistoryReportTest *
sdt_history_series_read_test(JsonObject *o, const gchar *at, GError **first)
{
	SdtHistoryReportTest *t = sdt_history_report_test_new(NULL, NULL);
	JsonArray *array = sdt_history_series_array(o, at, KEY_POINTS, first);
	GPtrArray *points = sdt_history_series_objects(array, at, KEY_POINTS, first);
	GError *error = NULL;

	if (!sdt_json_strict_string(o, at, KEY_NAME, &t->name, &error) ||
	    !sdt_json_strict_string(o, at, KEY_UNIT, &t->unit, &error))
		sdt_history_series_note(first, g_steal_pointer(&error));
	for (guint i = 0; i + 1 < points->len; i += 2) {
		JsonObject *po = g_ptr_array_index(points, i);
		const gchar *where = g_ptr_array_index(points, i + 1);
		SdtHistoryReportPoint *p = sdt_history_report_point_new();

		if (!sdt_json_strict_string(po, where, KEY_TIME, &p->time, &error) ||
		    !sdt_json_strict_number(po, where, KEY_VALUE, &p->value, &error) ||
		    !sdt_json_strict_number(po, where, KEY_SPREAD, &p->spread, &error) ||
		    !sdt_json_strict_string(po, where, KEY_CHANGE, &p->change, &error))
			sdt_history_series_note(first, g_steal_pointer(&error));
		p->usec = sdt_history_series_usec(p->time);
		g_ptr_array_add(t->points, p);
	}
	sdt_history_series_objects_free(points);
	return t;
}

static void
sdt_history_series_read_changes(JsonObject *o,
				const gchar *at,
				SdtHistoryReportSeries *s,
				GError **first)
{
	JsonArray *array = sdt_history_series_array(o, at, KEY_CHANGES, first);
	GPtrArray *pairs = sdt_history_series_objects(array, at, KEY_CHANGES, first);
	GError *error = NULL;

	for (guint i = 0; i + 1 < pairs->len; i += 2) {
		JsonObject *co = g_ptr_array_index(pairs, i);
		const gchar *where = g_ptr_array_index(pairs, i + 1);
		SdtHistoryReportChange *c = sdt_history_report_change_new(NULL, NULL, NULL);

		if (!sdt_json_strict_string(co, where, KEY_TIME, &c->time, &error) ||
		    !sdt_json_strict_string(co, where, KEY_KIND, &c->kind, &error) ||
		    !sdt_json_strict_string(co, where, KEY_ID, &c->id, &error))
			sdt_history_series_note(first, g_steal_pointer(&error));
		c->usec = sdt_history_series_usec(c->time);
		g_ptr_array_add(s->changes, c);
	}
	sdt_history_series_objects_free(pairs);
}

static SdtHistoryReportSeries *
sdt_history_series_read_one(JsonObject *o, const gchar *at, GError **first)
{
	SdtHistoryReportSeries *s = sdt_history_report_series_new();
	g_autofree gchar *at_card = g_strdup_printf("%s." KEY_CARD, at);
	JsonObject *card = NULL;
	JsonArray *array;
	GPtrArray *pairs;
	GError *error = NULL;

	if (!sdt_json_strict_object(o, at, KEY_CARD, &card, &error) ||
	    !sdt_json_strict_string(card, at_card, KEY_ID, &s->card_id, &error) ||
	    !sdt_json_strict_string(card, at_card, KEY_NAME, &s->card_name, &error) ||
	    !sdt_json_strict_string(card, at_card, KEY_SERIAL, &s->card_serial, &error) ||
	    !sdt_json_strict_bool(o, at, KEY_IN_SLOT, FALSE, &s->in_slot, &error))
		sdt_history_series_note(first, g_steal_pointer(&error));
	array = sdt_history_series_array(o, at, KEY_TESTS, first);
	pairs = sdt_history_series_objects(array, at, KEY_TESTS, first);
	for (guint i = 0; i + 1 < pairs->len; i += 2)
		g_ptr_array_add(s->tests,
				sdt_history_series_read_test(g_ptr_array_index(pairs, i),
							     g_ptr_array_index(pairs, i + 1),
							     first));
	sdt_history_series_objects_free(pairs);
	sdt_history_series_read_changes(o, at, s, first);
	return s;
}

/* the "series" into @out: read leniently, as the entries (an element or member of the
 * wrong type is left out or unknown, the first such reported in @error, FALSE) */
static gboolean
sdt_history_report_read_series(JsonArray *array, GPtrArray *out, GError **error)
{
	GError *first = NULL;
	GPtrArray *pairs =
		sdt_history_series_objects(array, NULL, SDT_HISTORY_REPORT_KEY_SERIES, &first);

	for (guint i = 0; i + 1 < pairs->len; i += 2)
		g_ptr_array_add(out,
				sdt_history_series_read_one(g_ptr_array_index(pairs, i),
							    g_ptr_array_index(pairs, i + 1),
							    &first));
	sdt_history_series_objects_free(pairs);
	if (first != NULL) {
		g_propagate_error(error, first);
		return FALSE;
	}
	return TRUE;
}

static void
sdt_history_series_put_test(JsonBuilder *b, const SdtHistoryReportTest *t)
{
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, KEY_NAME, t->name);
	sdt_json_string_or_null(b, KEY_UNIT, t->unit);
	json_builder_set_member_name(b, KEY_POINTS);
	json_builder_begin_array(b);
	for (guint i = 0; i < t->points->len; i++) {
		const SdtHistoryReportPoint *p = g_ptr_array_index(t->points, i);

		json_builder_begin_object(b);
		sdt_json_string_or_null(b, KEY_TIME, p->time);
		sdt_json_number_or_null(b, KEY_VALUE, p->value);
		sdt_json_number_or_null(b, KEY_SPREAD, p->spread);
		sdt_json_string_or_null(b, KEY_CHANGE, p->change);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
}

static void
sdt_history_series_put_one(JsonBuilder *b, const SdtHistoryReportSeries *s)
{
	g_autoptr(SdtHistoryReportCard) card = NULL;

	if (s->card_id != NULL)
		card = sdt_history_report_card_new(s->card_id, s->card_name, s->card_serial);
	json_builder_begin_object(b);
	sdt_history_report_put_card(b, KEY_CARD, card);
	sdt_json_put_bool(b, KEY_IN_SLOT, s->in_slot);
	json_builder_set_member_name(b, KEY_TESTS);
	json_builder_begin_array(b);
	for (guint i = 0; i < s->tests->len; i++)
		sdt_history_series_put_test(b, g_ptr_array_index(s->tests, i));
	json_builder_end_array(b);
	json_builder_set_member_name(b, KEY_CHANGES);
	json_builder_begin_array(b);
	for (guint i = 0; i < s->changes->len; i++) {
		const SdtHistoryReportChange *c = g_ptr_array_index(s->changes, i);

		json_builder_begin_object(b);
		sdt_json_string_or_null(b, KEY_TIME, c->time);
		sdt_json_string_or_null(b, KEY_KIND, c->kind);
		sdt_json_string_or_null(b, KEY_ID, c->id);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
}

static void
sdt_history_report_put_series(JsonBuilder *b, GPtrArray *series)
{
	json_builder_begin_array(b);
	for (guint i = 0; i < series->len; i++)
		sdt_history_series_put_one(b, g_ptr_array_index(series, i));
	json_builder_end_array(b);
}
