/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-json-strict.h"
#include "sdt-client-recommend.h"

static void
sdt_client_recommendation_free(SdtClientRecommendation *rec)
{
	g_free(rec->id);
	g_free(rec->title);
	g_free(rec->filter);
	g_ptr_array_unref(rec->lines);
	g_free(rec->reason);
	g_free(rec->expected_effect);
	g_free(rec->risk);
	g_free(rec);
}

void
sdt_client_recommend_list_free(SdtClientRecommendations *recs)
{
	if (recs == NULL)
		return;
	g_ptr_array_unref(recs->recommendations);
	g_ptr_array_unref(recs->notes);
	g_free(recs->not_tuned);
	g_free(recs);
}

static gboolean
sdt_client_recommendation_read(JsonObject *obj,
			       const gchar *at,
			       SdtClientRecommendation *r,
			       GError **error)
{
	if (!sdt_json_strict_string(obj, at, "id", &r->id, error))
		return FALSE;
	if (r->id == NULL)
		return sdt_json_strict_missing(at, "id", error);
	return sdt_json_strict_string(obj, at, "title", &r->title, error) &&
	       sdt_json_strict_string(obj, at, "filter", &r->filter, error) &&
	       sdt_json_strict_strings(obj, at, "lines", r->lines, error) &&
	       sdt_json_strict_string(obj, at, "reason", &r->reason, error) &&
	       sdt_json_strict_string(obj, at, "expected_effect", &r->expected_effect, error) &&
	       sdt_json_strict_string(obj, at, "risk", &r->risk, error) &&
	       sdt_json_strict_int(obj, at, "expected_clock_hz", 0, &r->expected_clock_hz, error) &&
	       sdt_json_strict_bool(obj, at, "trial_only", FALSE, &r->trial_only, error);
}

static SdtClientRecommendation *
sdt_client_recommendation_from_node(JsonNode *node, guint index, GError **error)
{
	g_autofree gchar *at = sdt_json_strict_element(NULL, "recommendations", index);
	JsonObject *obj = sdt_json_strict_element_object(node, at, error);
	SdtClientRecommendation *r;

	if (obj == NULL)
		return NULL;
	r = g_new0(SdtClientRecommendation, 1);
	r->lines = g_ptr_array_new_with_free_func(g_free);
	if (!sdt_client_recommendation_read(obj, at, r, error)) {
		sdt_client_recommendation_free(r);
		return NULL;
	}
	return r;
}

SdtClientRecommendations *
sdt_client_recommend_list_from_json(JsonObject *obj, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_autoptr(SdtClientRecommendations) recs = g_new0(SdtClientRecommendations, 1);
	JsonArray *array;

	recs->recommendations =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_client_recommendation_free);
	recs->notes = g_ptr_array_new_with_free_func(g_free);
	if (!sdt_json_strict_array(obj, NULL, "recommendations", &array, error) ||
	    !sdt_json_strict_strings(obj, NULL, "notes", recs->notes, error) ||
	    !sdt_json_strict_string(obj, NULL, "not_tuned", &recs->not_tuned, error))
		return NULL;
	for (guint i = 0; array != NULL && i < json_array_get_length(array); i++) {
		SdtClientRecommendation *r =
			sdt_client_recommendation_from_node(json_array_get_element(array, i),
							    i,
							    error);
		if (r == NULL)
			return NULL;
		g_ptr_array_add(recs->recommendations, r);
	}
	return g_steal_pointer(&recs);
}
