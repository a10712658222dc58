/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* one recommendation of `recommend --json` (DESIGN.md); texts are English */
typedef struct {
	gchar *id;
	gchar *title;
	gchar *filter;    /* the [filter] line the block goes under */
	GPtrArray *lines; /* of gchar*: the config.txt lines */
	gchar *reason;
	gchar *expected_effect;
	gchar *risk;
	gint64 expected_clock_hz; /* 0: not said */
	gboolean trial_only;      /* applied only as a tryboot trial */
} SdtClientRecommendation;

typedef struct {
	GPtrArray *recommendations; /* of SdtClientRecommendation, best first */
	GPtrArray *notes;           /* of gchar*, English */
	gchar *not_tuned;           /* "emmc", "not-system-disk", NULL: why nothing is tuned */
} SdtClientRecommendations;

void sdt_client_recommend_list_free(SdtClientRecommendations *recs);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtClientRecommendations, sdt_client_recommend_list_free)

/*
 * A recommendation without an id is SDT_ERROR_INVALID_DATA, as is a member of
 * the wrong type (named in the message); absent texts are NULL.
 */
SdtClientRecommendations *sdt_client_recommend_list_from_json(JsonObject *obj, GError **error);

G_END_DECLS
