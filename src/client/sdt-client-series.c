/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-client-series.h"

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
