/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>
#include <unistd.h>

#include "sdt-bench.h"
#include "sdt-bench-record.h"
#include "sdt-cli-ops.h"
#include "sdt-cli-table.h"
#include "sdt-error.h"
#include "sdt-l10n-record.h"
#include "sdt-l10n.h"
#include "sdt-ops.h"
#include "sdt-soak-report.h"
#include "sdt-soak.h"
#include "sdtunerctl-bench.h"

#define SDT_CLI_BENCH_BAR_WIDTH 30
/* without a terminal, one line per phase and then at most one a second */
#define SDT_CLI_BENCH_LINE_INTERVAL G_USEC_PER_SEC

typedef struct {
	SdtCli *cli;
	gboolean tty;
	gboolean bar_shown;
	gchar *last_phase;
	gint64 last_line;
	gchar *result; /* the document's text */
	GError *error;
	const gchar *profile;
	const gchar *dir;
	const gchar *device;  /* --device: a whole unmounted card (issue 34) */
	const gchar *confirm; /* --destroy-data-on */
	gint soak_mib;        /* --size of the soak profile */
	gdouble soak_seconds; /* --seconds of the soak profile */
} SdtCliBenchRun;

static void
sdt_cli_bench_clear(SdtCliBenchRun *self)
{
	g_clear_pointer(&self->last_phase, g_free);
	g_clear_pointer(&self->result, g_free);
	g_clear_error(&self->error);
}

static void
sdt_cli_bench_show_progress(SdtCliBenchRun *self,
			    const gchar *phase,
			    gdouble fraction,
			    gdouble rate)
{
	gboolean new_phase = g_strcmp0(phase, self->last_phase) != 0;
	gint64 now = g_get_monotonic_time();
	guint pct = (guint) (CLAMP(fraction, 0.0, 1.0) * 100 + 0.5);

	if (phase == NULL || phase[0] == '\0')
		return;
	if (self->tty) {
		gchar bar[SDT_CLI_BENCH_BAR_WIDTH + 1];
		guint filled = (guint) (CLAMP(fraction, 0.0, 1.0) * SDT_CLI_BENCH_BAR_WIDTH);
		for (guint i = 0; i < SDT_CLI_BENCH_BAR_WIDTH; i++)
			bar[i] = i < filled ? '#' : '-';
		bar[SDT_CLI_BENCH_BAR_WIDTH] = '\0';
		g_autofree gchar *title = sdt_l10n_pad(sdt_l10n_bench_test(phase), 30);
		g_printerr("\r%s [%s] %3u%% %9.1f MB/s\033[K", title, bar, pct, rate);
		self->bar_shown = TRUE;
	} else if (new_phase || now - self->last_line >= SDT_CLI_BENCH_LINE_INTERVAL) {
		g_printerr("%s %u%% %.1f MB/s\n", sdt_l10n_bench_test(phase), pct, rate);
		self->last_line = now;
	}
	if (new_phase) {
		g_free(self->last_phase);
		self->last_phase = g_strdup(phase);
	}
}

static void
sdt_cli_bench_end_progress(SdtCliBenchRun *self)
{
	if (self->bar_shown)
		g_printerr("\n");
	self->bar_shown = FALSE;
}

/* called from the benchmark thread; stderr is locked per call */
static void
sdt_cli_bench_progress_cb(const gchar *phase, gdouble fraction, gdouble rate, gpointer user_data)
{
	sdt_cli_bench_show_progress(user_data, phase, fraction, rate);
}

/* then the run is cancelled; in bus mode sdt_cli_ops_job() sends Job.Cancel to the helper */
static void
sdt_cli_bench_interrupted(gpointer data)
{
	sdt_cli_bench_end_progress(data);
	g_printerr(_("Cancelling…\n"));
}

/* the soak test: in-process with --root, else the helper's StartSoak job */
static gboolean
sdt_cli_bench_is_soak(const SdtCliBenchRun *self)
{
	return self->device == NULL && g_strcmp0(self->profile, "soak") == 0;
}

static gchar *
sdt_cli_bench_work(gpointer data, GCancellable *cancellable, GError **error)
{
	SdtCliBenchRun *self = data;

	if (self->device != NULL)
		return sdt_cli_ops_device_bench(self->cli,
						self->profile,
						self->device,
						self->confirm,
						sdt_cli_bench_progress_cb,
						self,
						cancellable,
						error);
	if (sdt_cli_bench_is_soak(self))
		return sdt_cli_ops_soak(self->cli,
					self->dir,
					(guint64) self->soak_mib * 1024 * 1024,
					self->soak_seconds,
					sdt_cli_bench_progress_cb,
					self,
					cancellable,
					error);
	/* in-process with --root, else a job of the helper followed over the bus */
	return sdt_cli_ops_job(self->cli,
			       SDT_CLI_JOB_BENCH,
			       self->profile,
			       self->dir,
			       sdt_cli_bench_progress_cb,
			       self,
			       cancellable,
			       error);
}

static const gchar *
sdt_cli_bench_human_size(gint64 bytes, gchar *buf, gsize bufsz)
{
	if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
		g_snprintf(buf, bufsz, "%" G_GINT64_FORMAT " MiB", bytes / (1024 * 1024));
	else if (bytes >= 1024 && bytes % 1024 == 0)
		g_snprintf(buf, bufsz, "%" G_GINT64_FORMAT " KiB", bytes / 1024);
	else
		g_snprintf(buf, bufsz, "%" G_GINT64_FORMAT " B", bytes);
	return buf;
}

/* a whole card: its node, the region, and why the write tests ran */
static void
sdt_cli_bench_print_device(SdtBenchRecord *bench)
{
	const gchar *node = bench->device_node != NULL ? bench->device_node : bench->device;
	gint64 mib = 1024 * 1024;

	/* Translators: the card's device, the region's size and start in MiB, the profile */
	g_print(_("Whole card %s: %" PRId64 " MiB from %" PRId64 " MiB on, profile %s\n"),
		node,
		bench->file_size / mib,
		bench->region_offset / mib,
		bench->profile);
	if (g_strcmp0(bench->writes, "blank") == 0)
		g_print("%s\n",
			_("Write tests: the card holds no partition table and no file system"));
	else if (g_strcmp0(bench->writes, "confirmed") == 0)
		/* Translators: the card's device */
		g_print(_("Write tests: confirmed with --destroy-data-on %s\n"), node);
	else
		g_print("%s\n", _("Write tests: skipped, the card is only read"));
	if (isfinite(bench->usb_speed_mbit_s))
		/* Translators: the USB reader's link speed in Mbit/s (480) */
		g_print(_("USB reader linked at %.0f Mbit/s\n"), bench->usb_speed_mbit_s);
}

/* where the test file was */
static void
sdt_cli_bench_print_target(SdtBenchRecord *bench)
{
	if (bench->whole_device)
		sdt_cli_bench_print_device(bench);
	else if (bench->stand_in)
		/* Translators: the benchmark's test file: directory, block device, file system */
		g_print(_("STAND-IN, NOT THE SD CARD: test file in %s on %s (%s), profile %s\n"),
			bench->path,
			bench->device,
			bench->filesystem,
			bench->profile);
	else
		/* Translators: the benchmark's test file: directory, block device, file system */
		g_print(_("Test file in %s on %s (%s), profile %s\n"),
			bench->path,
			bench->device,
			bench->filesystem,
			bench->profile);
}

/* the table of results, aligned by display width (a Japanese title is twice as wide) */
static void
sdt_cli_bench_print_tests(SdtBenchRecord *bench)
{
	static const SdtCliTableAlign align[] = {SDT_CLI_TABLE_START,
						 SDT_CLI_TABLE_END,
						 SDT_CLI_TABLE_END,
						 SDT_CLI_TABLE_END,
						 SDT_CLI_TABLE_END,
						 SDT_CLI_TABLE_END,
						 SDT_CLI_TABLE_END};
	static const glong width[] = {30, 8, 3, 10, 10, 10, 8};
	g_autoptr(SdtCliTable) table = sdt_cli_table_new(G_N_ELEMENTS(width), align, width, " ");
	const gchar *head[] = {_("Test"),
			       _("Block"),
			       _("QD"),
			       _("MB/s"),
			       _("IOPS"),
			       _("p99 µs"),
			       /* Translators: column head: how much a figure varied over the
				* run's slices (a 95% confidence interval); keep it short */
			       _("Spread")};
	g_autofree gchar *text = NULL;

	sdt_cli_table_add(table, head);
	for (guint i = 0; i < bench->tests->len; i++) {
		SdtBenchRecordTest *t = g_ptr_array_index(bench->tests, i);
		gchar size[32];
		g_autofree gchar *qd = g_strdup_printf("%" G_GINT64_FORMAT, t->queue_depth);
		g_autofree gchar *mb_s = g_strdup_printf("%.2f", t->mb_s);
		g_autofree gchar *iops = g_strdup_printf("%.0f", t->iops);
		g_autofree gchar *p99 = NULL;
		g_autofree gchar *spread = NULL;
		const gchar *row[7];

		if (isfinite(t->ci_percent))
			/* Translators: a figure's spread in percent, e.g. ±4.3% */
			spread = g_strdup_printf(_("±%.1f%%"), t->ci_percent);
		if (t->has_latency)
			p99 = g_strdup_printf("%.0f", t->latency.p99);
		row[0] = sdt_l10n_bench_test(t->name);
		row[1] = sdt_cli_bench_human_size(t->block_size, size, sizeof(size));
		row[2] = qd;
		row[3] = mb_s;
		row[4] = iops;
		row[5] = p99;
		row[6] = spread != NULL ? spread : "—";
		sdt_cli_table_add(table, row);
	}
	text = sdt_cli_table_format(table);
	g_print("%s", text);
}

static void
sdt_cli_bench_print_verdict(SdtBenchRecord *bench)
{
	const SdtBenchRecordVerdict *v = &bench->verdict;

	if (!v->present)
		g_print("%s\n",
			_("No A1/A2 verdict: it needs the write tests, which did not run (the "
			  "read figures stand)"));
	else if (bench->stand_in)
		/* Translators: %s is a block device such as sda1; the figures are its own */
		g_print(_("No A1/A2 verdict on the SD card: the test file was on %s, a stand-in "
			  "(sequential write %.1f MB/s, random read %.0f IOPS, random write %.0f "
			  "IOPS at queue depth 32)\n"),
			bench->device,
			v->seq_write_mb_s,
			v->read_iops,
			v->write_iops);
	else
		/* Translators: A1 and A2 are SD card classes; the values are “pass” or “fail” */
		g_print(_("A1: %s   A2: %s   (sequential write %.1f MB/s, random read %.0f IOPS, "
			  "random write %.0f IOPS at queue depth 32; verdict after %.1f s)\n"),
			v->a1 ? _("pass") : _("fail"),
			v->a2 ? _("pass") : _("fail"),
			v->seq_write_mb_s,
			v->read_iops,
			v->write_iops,
			v->seconds);
}

static void
sdt_cli_bench_print_human(SdtBenchRecord *bench)
{
	sdt_cli_bench_print_target(bench);
	sdt_cli_bench_print_tests(bench);
	sdt_cli_bench_print_verdict(bench);
	for (guint i = 0; i < bench->notes->len; i++) {
		g_autofree gchar *note =
			sdt_l10n_record_bench_note(g_ptr_array_index(bench->notes, i));
		g_print(_("Note: %s\n"), note);
	}
	if (bench->ceiling_mb_s > 0)
		/* Translators: the bus ceiling, then the percentage of it the sequential read
		 * reached */
		g_print(_("Bus ceiling %.1f MB/s: %.0f%% reached\n"),
			bench->ceiling_mb_s,
			bench->ceiling_percent);
}

/* "Wrote 1048576 bytes and checked 1048576 bytes in 3 rounds (2.0 s, seed 1f)." */
static void
sdt_cli_bench_print_soak_counts(const SdtSoakReport *soak)
{
	gint64 written = soak->bytes_written;
	gint64 checked = soak->bytes_checked;
	gint64 rounds = soak->rounds;
	/* Translators: a count of bytes in a sentence ("Wrote %s and checked %s in %s") */
	g_autofree gchar *w = g_strdup_printf(ngettext("%" PRId64 " byte",
						       "%" PRId64 " bytes",
						       sdt_l10n_plural_count((gdouble) written)),
					      (int64_t) written);
	/* Translators: a count of bytes in a sentence ("Wrote %s and checked %s in %s") */
	g_autofree gchar *c = g_strdup_printf(ngettext("%" PRId64 " byte",
						       "%" PRId64 " bytes",
						       sdt_l10n_plural_count((gdouble) checked)),
					      (int64_t) checked);
	/* Translators: the soak test's rounds in a sentence ("Wrote %s and checked %s in %s") */
	g_autofree gchar *r = g_strdup_printf(ngettext("%" PRId64 " round",
						       "%" PRId64 " rounds",
						       sdt_l10n_plural_count((gdouble) rounds)),
					      (int64_t) rounds);

	/* Translators: bytes written (“1048576 bytes”), bytes checked, rounds (“3 rounds”),
	 * seconds, the data's seed */
	g_print(_("Wrote %s and checked %s in %s (%.1f s, seed %s).\n"),
		w,
		c,
		r,
		soak->seconds,
		soak->seed);
}

static void
sdt_cli_bench_print_soak(const SdtSoakReport *soak)
{
	gint64 mismatches = soak->mismatches;
	const gchar *path = soak->target.path;
	const gchar *device = soak->target.device;
	const gchar *filesystem = soak->target.filesystem;

	if (soak->target.stand_in)
		/* Translators: the soak test's file: directory, block device, file system */
		g_print(_("Soak test in %s on %s (%s), a stand-in, not the SD card\n"),
			path,
			device,
			filesystem);
	else
		/* Translators: the soak test's file: directory, block device, file system */
		g_print(_("Soak test in %s on %s (%s)\n"), path, device, filesystem);
	sdt_cli_bench_print_soak_counts(soak);
	if (mismatches > 0 && soak->first_bad_offset >= 0)
		/* Translators: a count of bytes, then a byte offset */
		g_print(g_dngettext(GETTEXT_PACKAGE,
				    "DATA ERROR: %" PRId64
				    " byte read back wrong, the first at offset %" PRId64 ".\n",
				    "DATA ERROR: %" PRId64
				    " bytes read back wrong, the first at offset %" PRId64 ".\n",
				    (gulong) MIN(mismatches, G_MAXLONG)),
			(int64_t) mismatches,
			(int64_t) soak->first_bad_offset);
	else
		g_print("%s\n", _("Every byte read back as written."));
}

/* the soak profile's own options, and --dir only in-process */
static gint
sdt_cli_bench_check_options(SdtCli *cli,
			    SdtCliBenchRun *self,
			    const gchar *profile,
			    const gchar *dir,
			    GError **error)
{
	SdtBenchConfig config;
	g_autoptr(GError) error_profile = NULL;

	if (g_strcmp0(profile, "soak") == 0) {
		if (self->soak_mib == -1)
			self->soak_mib = (gint) (SDT_SOAK_DEFAULT_SIZE >> 20);
		if (self->soak_seconds == -1)
			self->soak_seconds = SDT_SOAK_DEFAULT_SECONDS;
	} else if (self->soak_mib != -1 || self->soak_seconds != -1) {
		g_set_error_literal(error,
				    G_OPTION_ERROR,
				    G_OPTION_ERROR_BAD_VALUE,
				    _("bench: --size and --seconds belong to the soak profile"));
		return SDT_CLI_EXIT_USAGE;
	} else if (!sdt_bench_config_for_profile(profile, &config, &error_profile)) {
		g_set_error_literal(error,
				    G_OPTION_ERROR,
				    G_OPTION_ERROR_BAD_VALUE,
				    error_profile->message);
		return SDT_CLI_EXIT_USAGE;
	}
	if (self->device != NULL && (dir != NULL || g_strcmp0(profile, "soak") == 0)) {
		g_set_error_literal(error,
				    G_OPTION_ERROR,
				    G_OPTION_ERROR_BAD_VALUE,
				    dir != NULL ? _("bench: name a folder or a device, not both")
						: _("bench: the soak profile runs on the running "
						    "card's file system only, not with --device"));
		return SDT_CLI_EXIT_USAGE;
	}
	if (self->confirm != NULL && self->device == NULL) {
		g_set_error_literal(
			error,
			G_OPTION_ERROR,
			G_OPTION_ERROR_BAD_VALUE,
			_("bench: --destroy-data-on goes with --device, naming the same "
			  "card"));
		return SDT_CLI_EXIT_USAGE;
	}
	if (dir != NULL && cli->ctx == NULL) {
		g_set_error_literal(error,
				    G_OPTION_ERROR,
				    G_OPTION_ERROR_BAD_VALUE,
				    _("bench: --dir is accepted only with --root"));
		return SDT_CLI_EXIT_USAGE;
	}
	return SDT_CLI_EXIT_OK;
}

/* the run in a worker thread, while this one answers SIGINT and SIGTERM */
static void
sdt_cli_bench_run(SdtCliBenchRun *self)
{
	self->tty = isatty(STDERR_FILENO);
	self->result = sdt_cli_run_in_thread(sdt_cli_bench_work,
					     sdt_cli_bench_interrupted,
					     self,
					     &self->error);
	sdt_cli_bench_end_progress(self);
}

static gint
sdt_cli_bench_print_result(SdtCli *cli, SdtCliBenchRun *self, GError **error)
{
	g_autoptr(SdtBenchRecord) bench = NULL;

	if (self->error != NULL) {
		g_propagate_error(error, g_steal_pointer(&self->error));
		return SDT_CLI_EXIT_FAILED;
	}
	if (cli->json) {
		sdt_cli_print_text(cli, self->result);
		return SDT_CLI_EXIT_OK;
	}
	if (sdt_cli_bench_is_soak(self)) {
		g_autoptr(SdtSoakReport) soak = sdt_soak_report_parse(self->result, error);
		if (soak == NULL)
			return SDT_CLI_EXIT_FAILED;
		sdt_cli_bench_print_soak(soak);
		return SDT_CLI_EXIT_OK;
	}
	bench = sdt_bench_record_parse(self->result, error);
	if (bench == NULL)
		return SDT_CLI_EXIT_FAILED;
	sdt_cli_bench_print_human(bench);
	return SDT_CLI_EXIT_OK;
}

gint
sdtunerctl_bench(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	SdtCliBenchRun self = {.cli = cli};
	g_autofree gchar *profile = NULL;
	g_autofree gchar *dir = NULL;
	g_autofree gchar *device = NULL;
	g_autofree gchar *confirm = NULL;
	gint rc = SDT_CLI_EXIT_OK;
	const GOptionEntry entries[] = {
		{"profile",
		 'p',
		 0,
		 G_OPTION_ARG_STRING,
		 &profile,
		 N_("quick, standard (the default), full or soak"),
		 N_("PROFILE")},
		{"dir",
		 0,
		 0,
		 G_OPTION_ARG_FILENAME,
		 &dir,
		 N_("Put the test file in DIR (only with --root, for tests)"),
		 N_("DIR")},
		{"device",
		 0,
		 0,
		 G_OPTION_ARG_FILENAME,
		 &device,
		 N_("Benchmark the whole unmounted card DEV (a card in a USB reader or another "
		    "slot); its write tests only where nothing can be lost"),
		 N_("DEV")},
		{"destroy-data-on",
		 0,
		 0,
		 G_OPTION_ARG_FILENAME,
		 &confirm,
		 N_("Let the write tests overwrite part of DEV, the card given with --device, "
		    "whatever it holds"),
		 N_("DEV")},
		{"size",
		 0,
		 0,
		 G_OPTION_ARG_INT,
		 &self.soak_mib,
		 N_("Soak profile: the test file's size in MiB (default 256)"),
		 N_("MIB")},
		{"seconds",
		 0,
		 0,
		 G_OPTION_ARG_DOUBLE,
		 &self.soak_seconds,
		 N_("Soak profile: keep checking for this many seconds (default 120)"),
		 N_("SECONDS")},
		{NULL},
	};

	self.soak_mib = -1;
	self.soak_seconds = -1;
	if (!sdt_cli_parse(cli, entries, 0, 0, &argc, &argv, &rc, error))
		return rc;
	if (profile == NULL)
		profile = g_strdup("standard");
	self.device = device;
	self.confirm = confirm;
	rc = sdt_cli_bench_check_options(cli, &self, profile, dir, error);
	if (rc != SDT_CLI_EXIT_OK)
		return rc;
	self.profile = profile;
	self.dir = dir;
	sdt_cli_bench_run(&self);
	rc = sdt_cli_bench_print_result(cli, &self, error);
	sdt_cli_bench_clear(&self);
	return rc;
}
