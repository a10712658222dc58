/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sdt-client-series.h"
#include "sdt-client-series-private.h"
#include "sdt-json-strict.h"

static void
sdt_client_point_free(SdtClientPoint *p)
{
	g_free(p->time);
	g_free(p->change);
	g_free(p);
}

static void
sdt_client_series_test_free(SdtClientSeriesTest *t)
{
	g_free(t->name);
	g_free(t->unit);
	g_ptr_array_unref(t->points);
	g_free(t);
}

static void
sdt_client_change_free(SdtClientChange *c)
{
	g_free(c->time);
	g_free(c->kind);
	g_free(c->id);
	g_free(c);
}

void
sdt_client_series_free(SdtClientSeries *series)
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

/* keeps the first problem met, drops the others */
static void
sdt_client_series_note(GError **first, GError *error)
{
	if (error == NULL)
		return;
	if (*first == NULL)
		*first = error;
	else
		g_error_free(error);
}

static gint64
sdt_client_series_usec(const gchar *time)
{
	g_autoptr(GDateTime) dt = time != NULL ? g_date_time_new_from_iso8601(time, NULL) : NULL;

	return dt != NULL
		       ? g_date_time_to_unix(dt) * G_USEC_PER_SEC + g_date_time_get_microsecond(dt)
		       : 0;
}

/* the elements of @member of @obj that are objects, each with its name for errors */
static GPtrArray *
sdt_client_series_objects(JsonObject *obj, const gchar *at, const gchar *member, GError **first)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	JsonArray *array = NULL;
	GError *error = NULL;

	if (!sdt_json_strict_array(obj, at, member, &array, &error))
		sdt_client_series_note(first, g_steal_pointer(&error));
	for (guint i = 0; array != NULL && i < json_array_get_length(array); i++) {
		gchar *where = sdt_json_strict_element(at, member, i);
		JsonObject *o = sdt_json_strict_element_object(json_array_get_element(array, i),
							       where,
							       &error);
		if (o == NULL) {
			sdt_client_series_note(first, g_steal_pointer(&error));
			g_free(where);
			continue;
		}
		/* pairs: the object, then its name */
		g_ptr_array_add(out, json_object_ref(o));
		g_ptr_array_add(out, where);
	}
	g_ptr_array_set_free_func(out, NULL);
	return out;
}

static void
sdt_client_series_objects_free(GPtrArray *pairs)
{
	for (guint i = 0; i + 1 < pairs->len; i += 2) {
		json_object_unref(g_ptr_array_index(pairs, i));
		g_free(g_ptr_array_index(pairs, i + 1));
	}
	g_ptr_array_unref(pairs);
}

static SdtClientSeriesTest *
sdt_client_series_test_read(JsonObject *o, const gchar *at, GError **first)
{
	SdtClientSeriesTest *t = g_new0(SdtClientSeriesTest, 1);
	GPtrArray *points;
	GError *error = NULL;

	t->points = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_client_point_free);
	if (!sdt_json_strict_string(o, at, "name", &t->name, &error) ||
	    !sdt_json_strict_string(o, at, "unit", &t->unit, &error))
		sdt_client_series_note(first, g_steal_pointer(&error));
	points = sdt_client_series_objects(o, at, "points", first);
	for (guint i = 0; i + 1 < points->len; i += 2) {
		JsonObject *po = g_ptr_array_index(points, i);
		const gchar *where = g_ptr_array_index(points, i + 1);
		SdtClientPoint *p = g_new0(SdtClientPoint, 1);

		p->value = p->spread = NAN;
		if (!sdt_json_strict_string(po, where, "time", &p->time, &error) ||
		    !sdt_json_strict_number(po, where, "value", &p->value, &error) ||
		    !sdt_json_strict_number(po, where, "spread", &p->spread, &error) ||
		    !sdt_json_strict_string(po, where, "change", &p->change, &error))
			sdt_client_series_note(first, g_steal_pointer(&error));
		p->usec = sdt_client_series_usec(p->time);
		g_ptr_array_add(t->points, p);
	}
	sdt_client_series_objects_free(points);
	return t;
}

static SdtClientSeries *
sdt_client_series_one(JsonObject *o, const gchar *at, GError **first)
{
	SdtClientSeries *s = g_new0(SdtClientSeries, 1);
	g_autofree gchar *at_card = g_strdup_printf("%s.card", at);
	JsonObject *card = NULL;
	GPtrArray *pairs;
	GError *error = NULL;

	s->tests = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_client_series_test_free);
	s->changes = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_client_change_free);
	if (!sdt_json_strict_object(o, at, "card", &card, &error) ||
	    !sdt_json_strict_string(card, at_card, "id", &s->card_id, &error) ||
	    !sdt_json_strict_string(card, at_card, "name", &s->card_name, &error) ||
	    !sdt_json_strict_string(card, at_card, "serial", &s->card_serial, &error) ||
	    !sdt_json_strict_bool(o, at, "in_slot", FALSE, &s->in_slot, &error))
		sdt_client_series_note(first, g_steal_pointer(&error));
	pairs = sdt_client_series_objects(o, at, "tests", first);
	for (guint i = 0; i + 1 < pairs->len; i += 2)
		g_ptr_array_add(s->tests,
				sdt_client_series_test_read(g_ptr_array_index(pairs, i),
							    g_ptr_array_index(pairs, i + 1),
							    first));
	sdt_client_series_objects_free(pairs);
	pairs = sdt_client_series_objects(o, at, "changes", first);
	for (guint i = 0; i + 1 < pairs->len; i += 2) {
		JsonObject *co = g_ptr_array_index(pairs, i);
		const gchar *where = g_ptr_array_index(pairs, i + 1);
		SdtClientChange *c = g_new0(SdtClientChange, 1);

		if (!sdt_json_strict_string(co, where, "time", &c->time, &error) ||
		    !sdt_json_strict_string(co, where, "kind", &c->kind, &error) ||
		    !sdt_json_strict_string(co, where, "id", &c->id, &error))
			sdt_client_series_note(first, g_steal_pointer(&error));
		c->usec = sdt_client_series_usec(c->time);
		g_ptr_array_add(s->changes, c);
	}
	sdt_client_series_objects_free(pairs);
	return s;
}

gboolean
sdt_client_series_read(JsonObject *obj, GPtrArray *out, GError **error)
{
	GError *first = NULL;
	GPtrArray *pairs;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	pairs = sdt_client_series_objects(obj, NULL, "series", &first);
	for (guint i = 0; i + 1 < pairs->len; i += 2)
		g_ptr_array_add(out,
				sdt_client_series_one(g_ptr_array_index(pairs, i),
						      g_ptr_array_index(pairs, i + 1),
						      &first));
	sdt_client_series_objects_free(pairs);
	if (first != NULL) {
		g_propagate_error(error, first);
		return FALSE;
	}
	return TRUE;
}

const SdtClientSeries *
sdt_client_series_for_slot(GPtrArray *all, gboolean *unidentified)
{
	const SdtClientSeries *older = NULL;

	*unidentified = FALSE;
	for (guint i = 0; all != NULL && i < all->len; i++) {
		const SdtClientSeries *s = g_ptr_array_index(all, i);
		if (s->in_slot)
			return s;
		if (s->card_id == NULL)
			older = s;
	}
	*unidentified = older != NULL;
	return older;
}

const SdtClientSeriesTest *
sdt_client_series_get_test(const SdtClientSeries *series, const gchar *name)
{
	for (guint i = 0; series != NULL && i < series->tests->len; i++) {
		const SdtClientSeriesTest *t = g_ptr_array_index(series->tests, i);
		if (g_strcmp0(t->name, name) == 0)
			return t;
	}
	return NULL;
}
