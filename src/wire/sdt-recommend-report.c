/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-json-strict-private.h"
#include "sdt-json.h"
#include "sdt-json-private.h"
#include "sdt-recommend-report.h"
#include "sdt-recommend-report-private.h"

#define SDT_RECOMMEND_REPORT_KEY_RECOMMENDATIONS   "recommendations"
#define SDT_RECOMMEND_REPORT_KEY_ID                "id"
#define SDT_RECOMMEND_REPORT_KEY_TITLE             "title"
#define SDT_RECOMMEND_REPORT_KEY_LINES             "lines"
#define SDT_RECOMMEND_REPORT_KEY_FILTER            "filter"
#define SDT_RECOMMEND_REPORT_KEY_REASON            "reason"
#define SDT_RECOMMEND_REPORT_KEY_EXPECTED_EFFECT   "expected_effect"
#define SDT_RECOMMEND_REPORT_KEY_RISK              "risk"
#define SDT_RECOMMEND_REPORT_KEY_TRIAL_ONLY        "trial_only"
#define SDT_RECOMMEND_REPORT_KEY_EXPECTED_CLOCK_HZ "expected_clock_hz"
#define SDT_RECOMMEND_REPORT_KEY_NOTES             "notes"
#define SDT_RECOMMEND_REPORT_KEY_NOT_TUNED         "not_tuned"
#define SDT_RECOMMEND_REPORT_KEY_CORE_CLOCK        "core_clock"
#define SDT_RECOMMEND_REPORT_KEY_HZ                "hz"
#define SDT_RECOMMEND_REPORT_KEY_SOURCE            "source"
#define SDT_RECOMMEND_REPORT_KEY_DETAIL            "detail"

SdtRecommendReportItem *
sdt_recommend_report_item_new(void)
{
	SdtRecommendReportItem *item = g_new0(SdtRecommendReportItem, 1);

	item->lines = g_ptr_array_new_with_free_func(g_free);
	return item;
}

static void
sdt_recommend_report_item_free(gpointer item)
{
	SdtRecommendReportItem *r = item;

	if (r == NULL)
		return;
	g_free(r->id);
	g_free(r->title);
	g_ptr_array_unref(r->lines);
	g_free(r->filter);
	g_free(r->reason);
	g_free(r->expected_effect);
	g_free(r->risk);
	g_free(r);
}

SdtRecommendReport *
sdt_recommend_report_new(void)
{
	SdtRecommendReport *report = g_new0(SdtRecommendReport, 1);

	report->recommendations = g_ptr_array_new_with_free_func(sdt_recommend_report_item_free);
	report->notes = g_ptr_array_new_with_free_func(g_free);
	return report;
}

void
sdt_recommend_report_free(SdtRecommendReport *report)
{
	if (report == NULL)
		return;
	g_ptr_array_unref(report->recommendations);
	g_ptr_array_unref(report->notes);
	g_free(report->not_tuned);
	g_free(report->core_clock_source);
	g_free(report->core_clock_detail);
	g_free(report);
}

/* the reading direction: absent or null is unknown, a wrong type an error */

static gboolean
sdt_recommend_report_read_item(JsonObject *obj,
			       const gchar *at,
			       SdtRecommendReportItem *r,
			       GError **error)
{
	if (!sdt_json_strict_string(obj, at, SDT_RECOMMEND_REPORT_KEY_ID, &r->id, error))
		return FALSE;
	if (r->id == NULL)
		return sdt_json_strict_missing(at, SDT_RECOMMEND_REPORT_KEY_ID, error);
	return sdt_json_strict_string(obj, at, SDT_RECOMMEND_REPORT_KEY_TITLE, &r->title, error) &&
	       sdt_json_strict_strings(obj, at, SDT_RECOMMEND_REPORT_KEY_LINES, r->lines, error) &&
	       sdt_json_strict_string(obj,
				      at,
				      SDT_RECOMMEND_REPORT_KEY_FILTER,
				      &r->filter,
				      error) &&
	       sdt_json_strict_string(obj,
				      at,
				      SDT_RECOMMEND_REPORT_KEY_REASON,
				      &r->reason,
				      error) &&
	       sdt_json_strict_string(obj,
				      at,
				      SDT_RECOMMEND_REPORT_KEY_EXPECTED_EFFECT,
				      &r->expected_effect,
				      error) &&
	       sdt_json_strict_string(obj, at, SDT_RECOMMEND_REPORT_KEY_RISK, &r->risk, error) &&
	       sdt_json_strict_bool(obj,
				    at,
				    SDT_RECOMMEND_REPORT_KEY_TRIAL_ONLY,
				    FALSE,
				    &r->trial_only,
				    error) &&
	       sdt_json_strict_int(obj,
				   at,
				   SDT_RECOMMEND_REPORT_KEY_EXPECTED_CLOCK_HZ,
				   0,
				   &r->expected_clock_hz,
				   error);
}

static gboolean
sdt_recommend_report_read_items(JsonObject *obj, GPtrArray *items, GError **error)
{
	const gchar *key = SDT_RECOMMEND_REPORT_KEY_RECOMMENDATIONS;
	JsonArray *array = NULL;

	if (!sdt_json_strict_array(obj, NULL, key, &array, error))
		return FALSE;
	for (guint i = 0; array != NULL && i < json_array_get_length(array); i++) {
		g_autofree gchar *at = sdt_json_strict_element(NULL, key, i);
		JsonObject *o =
			sdt_json_strict_element_object(json_array_get_element(array, i), at, error);
		SdtRecommendReportItem *r;

		if (o == NULL)
			return FALSE;
		r = sdt_recommend_report_item_new();
		g_ptr_array_add(items, r);
		if (!sdt_recommend_report_read_item(o, at, r, error))
			return FALSE;
	}
	return TRUE;
}

/* the core clock: absent or null is none (0) */
static gboolean
sdt_recommend_report_read_clock(JsonObject *obj, SdtRecommendReport *r, GError **error)
{
	const gchar *at = SDT_RECOMMEND_REPORT_KEY_CORE_CLOCK;
	JsonObject *clock = NULL;

	if (!sdt_json_strict_object(obj, NULL, at, &clock, error))
		return FALSE;
	if (clock == NULL)
		return TRUE;
	return sdt_json_strict_int(clock,
				   at,
				   SDT_RECOMMEND_REPORT_KEY_HZ,
				   0,
				   &r->core_clock_hz,
				   error) &&
	       sdt_json_strict_string(clock,
				      at,
				      SDT_RECOMMEND_REPORT_KEY_SOURCE,
				      &r->core_clock_source,
				      error) &&
	       sdt_json_strict_string(clock,
				      at,
				      SDT_RECOMMEND_REPORT_KEY_DETAIL,
				      &r->core_clock_detail,
				      error);
}

SdtRecommendReport *
sdt_recommend_report_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtRecommendReport) r = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	r = sdt_recommend_report_new();
	if (!sdt_recommend_report_read_items(obj, r->recommendations, error) ||
	    !sdt_json_strict_strings(obj, NULL, SDT_RECOMMEND_REPORT_KEY_NOTES, r->notes, error) ||
	    !sdt_json_strict_string(obj,
				    NULL,
				    SDT_RECOMMEND_REPORT_KEY_NOT_TUNED,
				    &r->not_tuned,
				    error) ||
	    !sdt_recommend_report_read_clock(obj, r, error))
		return NULL;
	return g_steal_pointer(&r);
}

SdtRecommendReport *
sdt_recommend_report_parse(const gchar *text, GError **error)
{
	g_autoptr(JsonNode) root = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL, NULL);

	root = sdt_json_reader_parse(text, error);
	if (root == NULL)
		return NULL;
	return sdt_recommend_report_from_json(json_node_get_object(root), error);
}

/* the writing direction: every member in the engine's order */

static void
sdt_recommend_report_put_item(JsonBuilder *b, const SdtRecommendReportItem *r)
{
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, SDT_RECOMMEND_REPORT_KEY_ID, r->id);
	sdt_json_string_or_null(b, SDT_RECOMMEND_REPORT_KEY_TITLE, r->title);
	sdt_json_put_strings(b, SDT_RECOMMEND_REPORT_KEY_LINES, r->lines);
	sdt_json_string_or_null(b, SDT_RECOMMEND_REPORT_KEY_FILTER, r->filter);
	sdt_json_string_or_null(b, SDT_RECOMMEND_REPORT_KEY_REASON, r->reason);
	sdt_json_string_or_null(b, SDT_RECOMMEND_REPORT_KEY_EXPECTED_EFFECT, r->expected_effect);
	sdt_json_string_or_null(b, SDT_RECOMMEND_REPORT_KEY_RISK, r->risk);
	if (r->trial_only) {
		/* applied with `apply ID --trial`, kept only after the soak test */
		json_builder_set_member_name(b, SDT_RECOMMEND_REPORT_KEY_TRIAL_ONLY);
		json_builder_add_boolean_value(b, TRUE);
	}
	if (r->expected_clock_hz > 0) {
		json_builder_set_member_name(b, SDT_RECOMMEND_REPORT_KEY_EXPECTED_CLOCK_HZ);
		json_builder_add_int_value(b, r->expected_clock_hz);
	}
	json_builder_end_object(b);
}

JsonNode *
sdt_recommend_report_to_json(const SdtRecommendReport *report)
{
	g_autoptr(JsonBuilder) b = NULL;

	g_return_val_if_fail(report != NULL, NULL);
	b = json_builder_new();
	json_builder_begin_object(b);
	json_builder_set_member_name(b, SDT_RECOMMEND_REPORT_KEY_RECOMMENDATIONS);
	json_builder_begin_array(b);
	for (guint i = 0; i < report->recommendations->len; i++)
		sdt_recommend_report_put_item(b, g_ptr_array_index(report->recommendations, i));
	json_builder_end_array(b);
	sdt_json_put_strings(b, SDT_RECOMMEND_REPORT_KEY_NOTES, report->notes);
	/* eMMC or not the system disk: nothing is tuned, whatever the card */
	sdt_json_string_or_null(b, SDT_RECOMMEND_REPORT_KEY_NOT_TUNED, report->not_tuned);
	/* sdhost boards: the core clock the advice is computed for, and its source */
	if (report->core_clock_hz > 0) {
		json_builder_set_member_name(b, SDT_RECOMMEND_REPORT_KEY_CORE_CLOCK);
		json_builder_begin_object(b);
		json_builder_set_member_name(b, SDT_RECOMMEND_REPORT_KEY_HZ);
		json_builder_add_int_value(b, report->core_clock_hz);
		sdt_json_string_or_null(b,
					SDT_RECOMMEND_REPORT_KEY_SOURCE,
					report->core_clock_source);
		sdt_json_string_or_null(b,
					SDT_RECOMMEND_REPORT_KEY_DETAIL,
					report->core_clock_detail);
		json_builder_end_object(b);
	}
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gchar *
sdt_recommend_report_to_string(const SdtRecommendReport *report)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(report != NULL, NULL);
	node = sdt_recommend_report_to_json(report);
	/* config.txt and the kernel may hold any bytes: the text is UTF-8 */
	sdt_json_sanitize_utf8(node);
	return sdt_json_to_string(node, TRUE);
}
