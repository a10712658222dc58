/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-history-report.h"

G_BEGIN_DECLS

/* a card's figures over time: the "series" of `history --json`, read by its codec
 * (sdt-history-report.h); the client's names for its types */
typedef SdtHistoryReportPoint SdtClientPoint;
typedef SdtHistoryReportTest SdtClientSeriesTest;
typedef SdtHistoryReportChange SdtClientChange;
typedef SdtHistoryReportSeries SdtClientSeries;

/*
 * The series to show for the card in the slot: the one marked in_slot; else the one of
 * runs that did not record their card (an older history: they may be another card's,
 * @unidentified is set TRUE to say so); else NULL.  Borrowed from @all.
 */
const SdtClientSeries *sdt_client_series_for_slot(GPtrArray *all, gboolean *unidentified);

/* @series's test @name, or NULL */
const SdtClientSeriesTest *sdt_client_series_get_test(const SdtClientSeries *series,
						      const gchar *name);

G_END_DECLS
