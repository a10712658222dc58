/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* one benchmark's figure of one test ("series[].tests[].points[]" of `history --json`) */
typedef struct {
	gchar *time;    /* ISO 8601 */
	gdouble value;  /* in the test's unit; NaN: unknown (never drawn) */
	gdouble spread; /* absolute, in the unit; NaN: unknown */
	gchar *change;  /* the id of SD Tuner's change in force, NULL: none */
	gint64 usec;    /* @time as microseconds since the epoch, 0: unreadable */
} SdtClientPoint;

typedef struct {
	gchar *name;       /* "seq-write", ... */
	gchar *unit;       /* "MB/s" or "IOPS" */
	GPtrArray *points; /* of SdtClientPoint, oldest first; never NULL */
} SdtClientSeriesTest;

/* one of SD Tuner's changes, a marker on the time axis */
typedef struct {
	gchar *time;
	gchar *kind; /* "apply", "revert", "step-down", "undo" */
	gchar *id;   /* NULL: not said */
	gint64 usec;
} SdtClientChange;

/* a card's figures over time ("series[]") */
typedef struct {
	gchar *card_id; /* NULL: runs that did not record their card (older versions) */
	gchar *card_name;
	gchar *card_serial;
	gboolean in_slot;
	GPtrArray *tests;   /* of SdtClientSeriesTest; never NULL */
	GPtrArray *changes; /* of SdtClientChange; never NULL */
} SdtClientSeries;

void sdt_client_series_free(SdtClientSeries *series);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtClientSeries, sdt_client_series_free)

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
