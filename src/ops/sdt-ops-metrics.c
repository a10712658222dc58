/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sdt-check-result.h"
#include "sdt-history.h"
#include "sdt-info.h"
#include "sdt-ops.h"
#include "sdt-ops-private.h"
#include "sdt-prom.h"
#include "sdt-prom-private.h"

/*
 * `metrics`: the documents of info, health and the history as Prometheus
 * samples (sdt-prom).  It reads only what those read (registers in sysfs,
 * ext4's and the block layer's counters, debugfs, the kernel log, the history):
 * nothing is sent to the card, and a benchmark's figures are the last one the
 * history recorded, never measured here.  Names and HELP texts are an
 * interface (docs/DESIGN.md, "metrics"): English, never translated.
 */

#define SDT_METRICS_ONE_BOOT "; since boot, reset at each boot"

/* a number of `info` (SDT_INFO_REPORT_UNKNOWN: not known), or NAN */
static gdouble
sdt_metrics_num(gint64 value)
{
	return value != SDT_INFO_REPORT_UNKNOWN ? (gdouble) value : NAN;
}

/* a yes/no of `info` as 1 or 0, or NAN */
static gdouble
sdt_metrics_flag(SdtInfoReportFlag flag)
{
	if (flag == SDT_INFO_REPORT_FLAG_UNKNOWN)
		return NAN;
	return flag == SDT_INFO_REPORT_FLAG_YES ? 1 : 0;
}

static void
sdt_metrics_gauge(SdtProm *prom, const gchar *name, const gchar *help, gdouble value)
{
	sdt_prom_add(prom, name, SDT_PROM_GAUGE, help, NULL, value);
}

static void
sdt_metrics_counter(SdtProm *prom, const gchar *name, const gchar *help, gdouble value)
{
	sdt_prom_add(prom, name, SDT_PROM_COUNTER, help, NULL, value);
}

/* a label value from a number ("" when unknown) */
static gchar *
sdt_metrics_label_num(gint64 value)
{
	return value != SDT_INFO_REPORT_UNKNOWN ? g_strdup_printf("%" G_GINT64_FORMAT, value)
						: g_strdup("");
}

/* one of @states is 1, the others 0 (a state set); none known: no samples */
static void
sdt_metrics_state_set(SdtProm *prom,
		      const gchar *name,
		      const gchar *label,
		      const gchar *help,
		      const gchar *const *states,
		      const gchar *value)
{
	if (value == NULL || !g_strv_contains(states, value))
		return;
	for (guint i = 0; states[i] != NULL; i++) {
		const gchar *labels[] = {label, states[i], NULL};
		sdt_prom_add(prom,
			     name,
			     SDT_PROM_GAUGE,
			     help,
			     labels,
			     g_strcmp0(states[i], value) == 0 ? 1 : 0);
	}
}

/* the card's identity: one sample with the registers' words as labels */
static void
sdt_metrics_card_info(SdtProm *prom, const SdtInfoReportCard *card)
{
	g_autofree gchar *mid = card->manfid != SDT_INFO_REPORT_UNKNOWN
					? g_strdup_printf("0x%02x", (guint) card->manfid)
					: g_strdup("");
	gint64 emmc_oemid = card->emmc != NULL ? card->emmc->oemid : SDT_INFO_REPORT_UNKNOWN;
	/* an eMMC's OID is one byte (card.emmc.oemid), an SD card's two characters */
	g_autofree gchar *oemid = card->oemid != NULL ? g_strdup(card->oemid)
				  : emmc_oemid != SDT_INFO_REPORT_UNKNOWN
					  ? g_strdup_printf("0x%02x", (guint) emmc_oemid)
					  : NULL;
	g_autofree gchar *app_class = sdt_metrics_label_num(card->app_class);
	g_autofree gchar *speed_class = sdt_metrics_label_num(card->speed_class);
	const gchar *labels[] = {
		"device",
		card->device,
		"type",
		card->type,
		"manfid",
		mid,
		"oemid",
		oemid,
		"name",
		card->name,
		"serial",
		card->serial,
		"app_class",
		app_class,
		"speed_class",
		speed_class,
		NULL,
	};

	sdt_prom_add(prom,
		     "sdtuner_card_info",
		     SDT_PROM_GAUGE,
		     "The card's identity from its CID and SSR registers (app_class 0 none, 1 A1, "
		     "2 A2; speed_class 0, 2, 4, 6, 10); always 1",
		     labels,
		     1);
}

/* an eMMC's own wear figures (EXT_CSD through sysfs: life_time, pre_eol_info) */
static void
sdt_metrics_emmc(SdtProm *prom, const SdtInfoReportEmmc *emmc)
{
	static const gchar *const levels[] = {"normal", "warning", "urgent", "unknown", NULL};

	if (emmc == NULL)
		return;
	for (guint i = 0; i < 2; i++) {
		const gchar *labels[] = {"type", i == 0 ? "a" : "b", NULL};
		sdt_prom_add(
			prom,
			"sdtuner_emmc_life_time_estimate",
			SDT_PROM_GAUGE,
			"The eMMC's DEVICE_LIFE_TIME_EST_TYP_A/B (JEDEC: 1 = 0-10% of its rated "
			"life used ... 10 = 90-100%, 11 = exceeded, 0 = not defined)",
			labels,
			sdt_metrics_num(i == 0 ? emmc->life_time_a.value
					       : emmc->life_time_b.value));
	}
	sdt_metrics_gauge(
		prom,
		"sdtuner_emmc_pre_eol_info",
		"The eMMC's PRE_EOL_INFO (1 normal, 2 warning: 80% of the reserved blocks "
		"used, 3 urgent, 0 not defined)",
		sdt_metrics_num(emmc->pre_eol));
	sdt_metrics_state_set(
		prom,
		"sdtuner_emmc_wear",
		"level",
		"The eMMC's wear, the worst of its three figures: 1 for the level, 0 for "
		"the others",
		levels,
		emmc->wear);
}

/* board and card from `info` */
static void
sdt_metrics_info(SdtProm *prom, const SdtInfoReport *info)
{
	static const gchar *const cqe[] = {"enabled",
					   "host-software-queue",
					   "off",
					   "unknown",
					   NULL};
	const SdtInfoReportCard *card = &info->card;

	sdt_metrics_gauge(prom,
			  "sdtuner_card_present",
			  "1 when SD Tuner found the SD card (or eMMC), else 0",
			  card->present ? 1 : 0);
	if (!card->present)
		return;
	sdt_metrics_card_info(prom, card);
	sdt_metrics_emmc(prom, card->emmc);
	sdt_metrics_gauge(prom,
			  "sdtuner_card_holds_system",
			  "1 when / or /boot/firmware is on this card, 0 when the system boots "
			  "from elsewhere (USB, NVMe)",
			  sdt_metrics_flag(card->holds_system));
	sdt_metrics_gauge(prom,
			  "sdtuner_card_capacity_bytes",
			  "The card's capacity as its CSD register states it",
			  sdt_metrics_num(card->capacity_bytes));
	sdt_metrics_gauge(prom,
			  "sdtuner_bus_requested_clock_hertz",
			  "The SD clock the host asks for (debugfs ios \"clock\")",
			  sdt_metrics_num(info->bus.clock_hz));
	sdt_metrics_gauge(prom,
			  "sdtuner_bus_actual_clock_hertz",
			  "The SD clock the host runs (debugfs ios \"actual clock\", or the kernel "
			  "log's overclock line)",
			  sdt_metrics_num(info->bus.actual_clock_hz));
	sdt_metrics_state_set(
		prom,
		"sdtuner_bus_command_queue",
		"state",
		"Command queueing: 1 for the state the kernel reports, 0 for the others",
		cqe,
		info->bus.cqe);
}

/* a count or size of health: NaN when unknown */
static gdouble
sdt_metrics_size(gint64 value)
{
	return value >= 0 ? (gdouble) value : NAN;
}

/* writes, errors and write protection from `health` */
static void
sdt_metrics_health(SdtProm *prom, const SdtHealthReport *health)
{
	const gchar *verdict = health->registers != NULL ? health->registers->verdict : NULL;

	sdt_metrics_counter(prom,
			    "sdtuner_card_lifetime_written_bytes_total",
			    "Bytes written to the card's ext4 file systems over their life "
			    "(lifetime_write_kbytes)",
			    sdt_metrics_size(health->lifetime_write_bytes));
	sdt_metrics_counter(prom,
			    "sdtuner_card_written_bytes_total",
			    "Bytes written to the card" SDT_METRICS_ONE_BOOT,
			    sdt_metrics_size(health->written_bytes));
	sdt_metrics_counter(prom,
			    "sdtuner_card_read_bytes_total",
			    "Bytes read from the card" SDT_METRICS_ONE_BOOT,
			    sdt_metrics_size(health->read_bytes));
	sdt_metrics_gauge(prom,
			  "sdtuner_card_written_bytes_per_day",
			  "Bytes written per day at the rate since boot (after an hour of uptime)",
			  health->writes_per_day_bytes);
	sdt_metrics_counter(
		prom,
		"sdtuner_mmc_errors_total",
		"Kernel log lines about the card's host or disk saying error, timeout or "
		"failed" SDT_METRICS_ONE_BOOT,
		sdt_metrics_size(health->kernel_errors_since_boot));
	sdt_metrics_counter(prom,
			    "sdtuner_card_read_only_remounts_total",
			    "Kernel log lines of a file system on the card remounted read-only "
			    "after errors" SDT_METRICS_ONE_BOOT,
			    sdt_metrics_size(health->read_only_remounts_since_boot));
	sdt_metrics_gauge(prom,
			  "sdtuner_card_read_only",
			  "1 when a file system on the card is mounted read-only",
			  health->read_only ? 1 : 0);
	for (guint i = 0; i < 2; i++) {
		const gchar *kind = i == 0 ? "permanent" : "temporary";
		const gchar *labels[] = {"kind", kind, NULL};
		gboolean set = i == 0 ? health->card.write_protect_permanent
				      : health->card.write_protect_temporary;
		sdt_prom_add(prom,
			     "sdtuner_card_write_protected",
			     SDT_PROM_GAUGE,
			     "The CSD register's write-protect bits: 1 when set",
			     labels,
			     health->card.write_protect_known ? (set ? 1 : 0) : NAN);
	}
	sdt_metrics_gauge(prom,
			  "sdtuner_card_registers_suspicious",
			  "1 when the card's registers are implausible for a genuine card",
			  verdict == NULL ? NAN : g_strcmp0(verdict, "suspicious") == 0);
}

/* seconds since the epoch of an entry's "time", or NAN */
static gdouble
sdt_metrics_entry_time(const SdtHistoryEntry *entry)
{
	g_autoptr(GDateTime) t = g_date_time_new_from_iso8601(entry->time, NULL);

	if (t == NULL)
		return NAN;
	return (gdouble) g_date_time_to_unix(t) + g_date_time_get_microsecond(t) / 1e6;
}

/* the last entry of @kind in @history, or NULL */
static const SdtHistoryEntry *
sdt_metrics_last(GPtrArray *history, const gchar *kind)
{
	for (guint i = history != NULL ? history->len : 0; i > 0; i--) {
		const SdtHistoryEntry *e = g_ptr_array_index(history, i - 1);
		if (g_strcmp0(e->kind, kind) == 0)
			return e;
	}
	return NULL;
}

/* one test's figures of the last benchmark */
static void
sdt_metrics_bench_test(SdtProm *prom, const SdtBenchRecordTest *test)
{
	static const gchar *const names[] = {"seq-write",
					     "seq-read",
					     "rand-4k-write-qd1",
					     "rand-4k-read-qd1",
					     "rand-4k-write-qd32",
					     "rand-4k-read-qd32",
					     "raw-read",
					     NULL};
	const gchar *name = test->name;
	const gchar *labels[] = {"test", name, NULL};

	/* a fixed set of label values, whatever the history holds */
	if (name == NULL || !g_strv_contains(names, name))
		return;
	sdt_prom_add(prom,
		     "sdtuner_benchmark_throughput_bytes_per_second",
		     SDT_PROM_GAUGE,
		     "The last benchmark of the card: each test's rate",
		     labels,
		     test->mb_s * 1e6);
	sdt_prom_add(prom,
		     "sdtuner_benchmark_iops",
		     SDT_PROM_GAUGE,
		     "The last benchmark of the card: each test's I/O operations per second",
		     labels,
		     test->iops);
}

/* the last benchmark of the card itself (not a stand-in), as the history recorded it */
static void
sdt_metrics_bench(SdtProm *prom, GPtrArray *history)
{
	const SdtHistoryEntry *bench = NULL;
	g_autoptr(SdtBenchRecord) record = NULL;

	for (guint i = history != NULL ? history->len : 0; record == NULL && i > 0; i--) {
		bench = g_ptr_array_index(history, i - 1);
		if (g_strcmp0(bench->kind, SDT_HISTORY_ENTRY_KIND_BENCH) != 0)
			continue;
		record = sdt_history_entry_get_bench(bench, NULL);
		if (record != NULL && record->target_stand_in)
			g_clear_pointer(&record, sdt_bench_record_free);
	}
	if (record == NULL)
		return;
	sdt_metrics_gauge(prom,
			  "sdtuner_benchmark_timestamp_seconds",
			  "When the last benchmark of the card ran (recorded when it ran; metrics "
			  "never benchmark), seconds since the epoch",
			  sdt_metrics_entry_time(bench));
	for (guint i = 0; i < record->tests->len; i++)
		sdt_metrics_bench_test(prom, g_ptr_array_index(record->tests, i));
	for (guint i = 0; i < 2; i++) {
		const gchar *labels[] = {"class", i == 0 ? "A1" : "A2", NULL};
		sdt_prom_add(prom,
			     "sdtuner_benchmark_app_class_met",
			     SDT_PROM_GAUGE,
			     "The last benchmark of the card: 1 when it met the application "
			     "performance class",
			     labels,
			     !record->verdict.present                             ? NAN
			     : (i == 0 ? record->verdict.a1 : record->verdict.a2) ? 1
										  : 0);
	}
}

/* the last verification after a reboot (keep, step down, undo) */
static void
sdt_metrics_verify(SdtProm *prom, GPtrArray *history)
{
	static const gchar *const decisions[] = {"keep", "step-down", "undo", NULL};
	const SdtHistoryEntry *verify = sdt_metrics_last(history, SDT_HISTORY_ENTRY_KIND_VERIFY);
	SdtHistoryEntryChange change;

	if (verify == NULL)
		return;
	sdt_history_entry_get_change(verify, &change);
	sdt_metrics_gauge(prom,
			  "sdtuner_verification_timestamp_seconds",
			  "When the last verification of a change decided, seconds since the epoch",
			  sdt_metrics_entry_time(verify));
	sdt_metrics_state_set(prom,
			      "sdtuner_verification_decision",
			      "decision",
			      "The last verification's decision: 1 for it, 0 for the others",
			      decisions,
			      change.decision);
}

/* the last authenticity check of the card (not one of a card in a reader, issue 34: it
 * has an "identity"); an entry the check result's codec refuses (a member of the wrong
 * type) is left out whole, as a benchmark is */
static void
sdt_metrics_check(SdtProm *prom, GPtrArray *history)
{
	static const gchar *const verdicts[] = {"genuine", "fake", "undetermined", NULL};
	const SdtHistoryEntry *check = NULL;
	g_autoptr(SdtCheckResult) result = NULL;
	gdouble real = NAN;

	for (guint i = history != NULL ? history->len : 0; check == NULL && i > 0; i--) {
		const SdtHistoryEntry *e = g_ptr_array_index(history, i - 1);
		if (g_strcmp0(e->kind, SDT_HISTORY_ENTRY_KIND_CHECK) == 0 &&
		    !sdt_history_entry_has_identity(e))
			check = e;
	}
	result = check != NULL ? sdt_history_entry_get_check(check, NULL) : NULL;
	if (result == NULL)
		return;
	sdt_metrics_gauge(prom,
			  "sdtuner_check_timestamp_seconds",
			  "When the last check for a fake card ran, seconds since the epoch",
			  sdt_metrics_entry_time(check));
	sdt_metrics_state_set(prom,
			      "sdtuner_check_verdict",
			      "verdict",
			      "The last check's verdict: 1 for it, 0 for the others",
			      verdicts,
			      result->verdict);
	sdt_metrics_gauge(prom,
			  "sdtuner_check_claimed_bytes",
			  "The size the card claims, as the last check saw it",
			  (gdouble) result->claimed_bytes);
	if (g_strcmp0(result->verdict, "genuine") == 0)
		real = (gdouble) result->claimed_bytes;
	else if (g_strcmp0(result->verdict, "fake") == 0)
		real = result->estimated_capacity_bytes;
	sdt_metrics_gauge(prom,
			  "sdtuner_check_real_capacity_bytes",
			  "What the card really holds by the last check (genuine: its claim; fake: "
			  "the estimate); absent when undetermined",
			  real);
}

gchar *
sdt_ops_metrics(SdtContext *ctx, GError **error)
{
	g_autoptr(SdtInfo) info = NULL;
	g_autoptr(SdtInfoReport) report = NULL;
	g_autoptr(SdtHealthReport) health = NULL;
	g_autoptr(GPtrArray) history = NULL;
	g_autoptr(SdtProm) prom = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	info = sdt_info_collect(ctx, error);
	if (info == NULL)
		return NULL;
	report = sdt_info_to_report(info);
	health = sdt_ops_health_report(ctx, error);
	if (health == NULL)
		return NULL;
	/* a damaged entry is skipped, as `history` does */
	history = sdt_history_entries(ctx, NULL, NULL);
	prom = sdt_prom_new();
	sdt_metrics_info(prom, report);
	if (report->card.present)
		sdt_metrics_health(prom, health);
	sdt_metrics_bench(prom, history);
	sdt_metrics_check(prom, history);
	sdt_metrics_gauge(prom,
			  "sdtuner_check_journal_damaged",
			  "1 when an interrupted check left a journal with no whole copy (the "
			  "blocks it had out could not be put back; see sdtunerctl health), else 0",
			  health->check_journal_damaged != NULL ? 1.0 : 0.0);
	sdt_metrics_verify(prom, history);
	return sdt_prom_to_string(prom);
}
