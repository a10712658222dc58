/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-error-report.h"
#include "sdt-error-report-private.h"
#include "sdt-json.h"
#include "sdt-json-private.h"
#include "sdt-json-strict-private.h"

#define KEY_ERROR   "error"
#define KEY_NAME    "name"
#define KEY_CODE    "code"
#define KEY_MESSAGE "message"

SdtErrorReport *
sdt_error_report_new(const gchar *name, gint64 code, const gchar *message)
{
	SdtErrorReport *report = g_new0(SdtErrorReport, 1);

	report->name = g_strdup(name);
	report->code = code;
	report->message = g_strdup(message);
	return report;
}

void
sdt_error_report_free(SdtErrorReport *report)
{
	if (report == NULL)
		return;
	g_free(report->name);
	g_free(report->message);
	g_free(report);
}

SdtErrorReport *
sdt_error_report_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtErrorReport) report = sdt_error_report_new(NULL, 0, NULL);
	JsonObject *e = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	if (!sdt_json_strict_object(obj, NULL, KEY_ERROR, &e, error))
		return NULL;
	if (e == NULL) {
		sdt_json_strict_missing(NULL, KEY_ERROR, error);
		return NULL;
	}
	if (!sdt_json_strict_string(e, KEY_ERROR, KEY_NAME, &report->name, error) ||
	    !sdt_json_strict_int(e, KEY_ERROR, KEY_CODE, 0, &report->code, error) ||
	    !sdt_json_strict_string(e, KEY_ERROR, KEY_MESSAGE, &report->message, error))
		return NULL;
	return g_steal_pointer(&report);
}

SdtErrorReport *
sdt_error_report_parse(const gchar *text, GError **error)
{
	g_autoptr(JsonNode) root = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL, NULL);

	root = sdt_json_reader_parse(text, error);
	if (root == NULL)
		return NULL;
	return sdt_error_report_from_json(json_node_get_object(root), error);
}

JsonNode *
sdt_error_report_to_json(const SdtErrorReport *report)
{
	g_autoptr(JsonBuilder) b = json_builder_new();

	g_return_val_if_fail(report != NULL, NULL);

	json_builder_begin_object(b);
	json_builder_set_member_name(b, KEY_ERROR);
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, KEY_NAME, report->name);
	json_builder_set_member_name(b, KEY_CODE);
	json_builder_add_int_value(b, report->code);
	sdt_json_string_or_null(b, KEY_MESSAGE, report->message);
	json_builder_end_object(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gchar *
sdt_error_report_to_string(const SdtErrorReport *report)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(report != NULL, NULL);

	node = sdt_error_report_to_json(report);
	sdt_json_sanitize_utf8(node);
	return sdt_json_to_string(node, TRUE);
}
