/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sdt-bench-record.h"
#include "sdt-card.h"
#include "sdt-history-report.h"
#include "sdt-history.h"
#include "sdt-mounts.h"
#include "sdt-ops-private.h"
#include "sdt-ops.h"

/*
 * `history`: the entries under the state dir (sdt-history.c), with the damaged ones
 * named, and each card's benchmark figures over time ("series", DESIGN.md "Results over
 * time"): per card and per test the runs' figures with their spread and the change in
 * force, and SD Tuner's changes as markers.
 */

/* the card of an SdtCard: {id, name, serial}, or NULL when it has no readable CID */
static SdtHistoryReportCard *
sdt_ops_history_slot_card(const SdtCard *card)
{
	g_autofree gchar *id = NULL;
	g_autofree gchar *serial = NULL;

	if (card == NULL || !card->present || card->cid_hex == NULL)
		return NULL;
	id = g_ascii_strdown(g_strstrip(g_strdup(card->cid_hex)), -1);
	if (id[0] == '\0')
		return NULL;
	if (card->cid_valid)
		serial = g_strdup_printf("0x%08x", card->cid.serial);
	return sdt_history_report_card_new(
		id,
		card->cid_valid && card->cid.name[0] != '\0' ? card->cid.name : NULL,
		serial);
}

static SdtHistoryReportCard *
sdt_ops_history_detect_card(SdtContext *ctx)
{
	g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) mounts = sdt_mounts_load(ctx, NULL);
	g_autoptr(SdtCard) card = sdt_card_detect(mounts, warnings);

	return sdt_ops_history_slot_card(card);
}

SdtHistoryReportCard *
sdt_ops_history_card(SdtContext *ctx)
{
	return sdt_ops_history_detect_card(ctx);
}

/* the change a config entry made: a marker (NULL: none) and the id in force after it */
static SdtHistoryReportChange *
sdt_ops_history_change(const SdtHistoryEntry *e, gchar **in_force)
{
	const gchar *kind = e->kind;
	SdtHistoryEntryChange change;
	const gchar *what;
	const gchar *marker = NULL;
	const gchar *id;

	sdt_history_entry_get_change(e, &change);
	what = change.what;
	id = change.id;
	if (g_strcmp0(kind, "apply") == 0) {
		marker = "apply";
		g_free(*in_force);
		*in_force = g_strdup(id);
	} else if (g_strcmp0(kind, "revert") == 0 || g_strcmp0(what, "reverted") == 0) {
		marker = g_strcmp0(kind, "revert") == 0 ? "revert" : "undo";
		g_clear_pointer(in_force, g_free);
	} else if (g_strcmp0(what, "stepped-down") == 0) {
		marker = "step-down";
		id = change.next_id;
		g_free(*in_force);
		*in_force = g_strdup(id);
	}
	if (marker == NULL)
		return NULL;
	return sdt_history_report_change_new(e->time, marker, id);
}

/* the series of @card_id (NULL: runs that did not record their card), new when none */
static SdtHistoryReportSeries *
sdt_ops_series_get(GPtrArray *all, const SdtHistoryEntryCard *card)
{
	const gchar *card_id = card->id;
	SdtHistoryReportSeries *s;

	for (guint i = 0; i < all->len; i++) {
		s = g_ptr_array_index(all, i);
		if (g_strcmp0(s->card_id, card_id) == 0)
			return s;
	}
	s = sdt_history_report_series_new();
	s->card_id = g_strdup(card_id);
	if (card_id != NULL) {
		s->card_name = g_strdup(card->name);
		s->card_serial = g_strdup(card->serial);
	}
	g_ptr_array_add(all, s);
	return s;
}

/* a test's figure: MB/s for the sequential tests, IOPS for the random ones */
static gboolean
sdt_ops_series_iops(const gchar *name)
{
	return !g_str_has_prefix(name, "seq-");
}

static SdtHistoryReportTest *
sdt_ops_series_test(SdtHistoryReportSeries *s, const gchar *name)
{
	SdtHistoryReportTest *t;

	for (guint i = 0; i < s->tests->len; i++) {
		t = g_ptr_array_index(s->tests, i);
		if (g_strcmp0(t->name, name) == 0)
			return t;
	}
	t = sdt_history_report_test_new(name, sdt_ops_series_iops(name) ? "IOPS" : "MB/s");
	g_ptr_array_add(s->tests, t);
	return t;
}

/* a benchmark of the card (never a stand-in's): one point per valid test */
static void
sdt_ops_series_add_bench(SdtHistoryReportSeries *s, const SdtHistoryEntry *e, const gchar *in_force)
{
	g_autoptr(SdtBenchRecord) r = sdt_history_entry_get_bench(e, NULL);

	for (guint i = 0; r != NULL && i < r->tests->len; i++) {
		SdtBenchRecordTest *t = g_ptr_array_index(r->tests, i);
		gdouble value = t->name != NULL && sdt_ops_series_iops(t->name) ? t->iops : t->mb_s;
		SdtHistoryReportPoint *p;

		if (t->name == NULL || !t->valid || !isfinite(value))
			continue;
		p = sdt_history_report_point_new();
		p->time = g_strdup(e->time);
		p->value = value;
		if (isfinite(t->ci_percent) && t->ci_percent >= 0)
			p->spread = round(value * t->ci_percent * 10) / 1000;
		p->change = g_strdup(in_force);
		g_ptr_array_add(sdt_ops_series_test(s, t->name)->points, p);
	}
}

/* each card's figures over time, and SD Tuner's changes as markers in every series */
static void
sdt_ops_history_fill_series(GPtrArray *all, GPtrArray *entries, const gchar *slot_id)
{
	g_autoptr(GPtrArray) changes =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_history_report_change_free);
	g_autofree gchar *in_force = NULL;

	for (guint i = 0; entries != NULL && i < entries->len; i++) {
		const SdtHistoryEntry *e = g_ptr_array_index(entries, i);
		SdtHistoryEntryCard card;
		SdtHistoryReportChange *marker;

		if (g_strcmp0(e->kind, SDT_HISTORY_ENTRY_KIND_BENCH) != 0) {
			marker = sdt_ops_history_change(e, &in_force);
			if (marker != NULL)
				g_ptr_array_add(changes, marker);
			continue;
		}
		sdt_history_entry_get_card(e, &card);
		if (card.stand_in)
			continue;
		sdt_ops_series_add_bench(sdt_ops_series_get(all, &card), e, in_force);
	}
	for (guint i = 0; i < all->len; i++) {
		SdtHistoryReportSeries *s = g_ptr_array_index(all, i);

		s->in_slot = s->card_id != NULL && g_strcmp0(s->card_id, slot_id) == 0;
		for (guint j = 0; j < changes->len; j++) {
			const SdtHistoryReportChange *c = g_ptr_array_index(changes, j);
			g_ptr_array_add(s->changes,
					sdt_history_report_change_new(c->time, c->kind, c->id));
		}
	}
}

SdtHistoryReport *
sdt_ops_history_series(GPtrArray *entries, const gchar *slot_id)
{
	SdtHistoryReport *report = sdt_history_report_new();

	sdt_ops_history_fill_series(report->series, entries, slot_id);
	return report;
}

gchar *
sdt_ops_history(SdtContext *ctx, GError **error)
{
	g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) entries = NULL;
	g_autoptr(SdtHistoryReport) report = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	entries = sdt_history_entries(ctx, warnings, error);
	if (entries == NULL)
		return NULL;
	report = sdt_history_report_new();
	for (guint i = 0; i < entries->len; i++)
		sdt_history_report_add_history_entry(report, g_ptr_array_index(entries, i));
	report->card_in_slot = sdt_ops_history_detect_card(ctx);
	sdt_ops_history_fill_series(report->series,
				    entries,
				    report->card_in_slot != NULL ? report->card_in_slot->id : NULL);
	g_ptr_array_extend_and_steal(report->warnings, g_steal_pointer(&warnings));
	return sdt_history_report_to_string(report);
}

GPtrArray *
sdt_ops_history_benches(GPtrArray *history)
{
	GPtrArray *benches = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_bench_record_free);

	for (guint i = 0; history != NULL && i < history->len; i++) {
		const SdtHistoryEntry *e = g_ptr_array_index(history, i);
		SdtBenchRecord *record;

		if (g_strcmp0(e->kind, SDT_HISTORY_ENTRY_KIND_BENCH) != 0)
			continue;
		record = sdt_history_entry_get_bench(e, NULL);
		if (record != NULL)
			g_ptr_array_add(benches, record);
	}
	return benches;
}
