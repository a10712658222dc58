/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>
#include <unistd.h>

#include "sdt-check-result.h"
#include "sdt-cli-ops.h"
#include "sdt-error.h"
#include "sdt-client-disk-words.h"
#include "sdt-health-report.h"
#include "sdt-l10n-record.h"
#include "sdt-l10n.h"
#include "sdt-ops.h"
#include "sdtunerctl-check.h"

typedef struct {
	SdtCli *cli;
	gboolean tty;
	gboolean line_shown;
	gchar *last_phase;
	gint64 started;
	const gchar *mode;
	const gchar *dir;
	const gchar *device;
	const gchar *confirm; /* --destroy-data-on */
	guint last_tenth;     /* not on a terminal: the tenths of a pass said so far */
} SdtCliCheck;

/* called from the worker thread */
static void
sdt_cli_check_progress_cb(const gchar *phase, gdouble fraction, gdouble rate, gpointer user_data)
{
	SdtCliCheck *self = user_data;
	guint pct = (guint) (CLAMP(fraction, 0.0, 1.0) * 100 + 0.5);
	gdouble elapsed = (gdouble) (g_get_monotonic_time() - self->started) / G_USEC_PER_SEC;
	gboolean new_phase = g_strcmp0(phase, self->last_phase) != 0;

	const gchar *label = sdt_check_result_phase_label(phase);

	if (phase == NULL || phase[0] == '\0')
		return;
	if (self->tty) {
		if (fraction > 0.02 && fraction < 1.0 && rate > 0) {
			g_printerr("\r");
			/* Translators: a check's phase, its progress in percent, the rate in MB/s
			 * (10^6 bytes) and the time left */
			g_printerr(_("%s: %3u%%  %.1f MB/s  about %.0f s left"),
				   label,
				   pct,
				   rate,
				   elapsed / fraction * (1.0 - fraction));
			g_printerr("\033[K");
		} else if (fraction > 0.02 && fraction < 1.0) {
			g_printerr("\r");
			/* Translators: a check's phase, its progress in percent and the time left
			 */
			g_printerr(_("%s: %3u%%  about %.0f s left"),
				   label,
				   pct,
				   elapsed / fraction * (1.0 - fraction));
			g_printerr("\033[K");
		} else
			g_printerr("\r%s: %3u%%\033[K", label, pct);
		self->line_shown = TRUE;
	} else if (new_phase) {
		g_printerr("%s: %u%%\n", label, pct);
		self->last_tenth = pct / 10;
	} else if (rate > 0 && fraction < 1.0 && pct / 10 > self->last_tenth) {
		/* a long pass (the full check) in a log: every tenth, with its rate */
		self->last_tenth = pct / 10;
		g_printerr(_("%s: %3u%%  %.1f MB/s  about %.0f s left"),
			   label,
			   pct,
			   rate,
			   elapsed / MAX(fraction, 0.01) * (1.0 - fraction));
		g_printerr("\n");
	}
	if (new_phase) {
		g_free(self->last_phase);
		self->last_phase = g_strdup(phase);
	}
}

static void
sdt_cli_check_interrupted(gpointer data)
{
	SdtCliCheck *self = data;

	if (self->line_shown)
		g_printerr("\n");
	self->line_shown = FALSE;
	if (self->confirm != NULL)
		g_printerr(_("Stopping the check…\n"));
	else if (self->device != NULL)
		g_printerr(_("Stopping the check and putting back what it changed…\n"));
	else
		g_printerr(_("Stopping the check and removing its reserved file…\n"));
}

static gchar *
sdt_cli_check_work(gpointer data, GCancellable *cancellable, GError **error)
{
	SdtCliCheck *self = data;

	if (self->device != NULL)
		return sdt_cli_ops_device_check(self->cli,
						self->mode,
						self->device,
						self->confirm,
						sdt_cli_check_progress_cb,
						self,
						cancellable,
						error);
	return sdt_cli_ops_job(self->cli,
			       self->device != NULL ? SDT_CLI_JOB_CHECK_DEVICE : SDT_CLI_JOB_CHECK,
			       self->mode,
			       self->device != NULL ? self->device : self->dir,
			       sdt_cli_check_progress_cb,
			       self,
			       cancellable,
			       error);
}

/* the card's register plausibility ("registers" of check and health), as the Health page
 * says it; the findings come in English and are shown in the user's language */
static void
sdt_cli_print_registers(const SdtHealthReportRegisters *registers)
{
	if (registers == NULL)
		return;
	if (registers->findings->len == 0)
		g_print("%s\n",
			_("Registers: plausible. Nothing in what the card says "
			  "about itself is suspicious."));
	else
		/* Translators: the card's registers; "sdtunerctl check" is a command */
		g_print("%s\n",
			_("Registers: suspicious. This alone does not prove a fake; "
			  "“sdtunerctl check” tells."));
	for (guint i = 0; i < registers->findings->len; i++) {
		const SdtHealthReportFinding *f = g_ptr_array_index(registers->findings, i);
		if (f->message != NULL)
			g_print("  • %s\n", sdt_l10n_tr(f->message));
	}
}

/* the registers ops adds to the check result (@obj: the reply) */
static void
sdt_cli_check_print_registers(const gchar *reply)
{
	g_autoptr(SdtHealthReportRegisters) registers = NULL;

	if (sdt_check_result_parse_registers(reply, &registers, NULL))
		sdt_cli_print_registers(registers);
}

/* the map of a whole card: one character for each 64th of its addresses */
static void
sdt_cli_check_print_map(const SdtCheckResult *r)
{
	static const struct {
		const gchar *state;
		gchar c;
	} marks[] = {{"ok", '#'},
		     {"wrap", 'W'},
		     {"lost-writes", '0'},
		     {"io-error", 'E'},
		     {"corrupted", 'C'},
		     {"untested", '.'}};
	GString *line = g_string_new(NULL);
	gint64 cell = (r->claimed_bytes + 63) / 64;

	for (guint i = 0; i < r->map->len && cell > 0; i++) {
		const SdtCheckResultRegion *region = g_ptr_array_index(r->map, i);
		gchar c = '?';
		for (guint m = 0; m < G_N_ELEMENTS(marks); m++)
			if (g_strcmp0(region->state, marks[m].state) == 0)
				c = marks[m].c;
		for (gint64 at = region->from; at < region->to; at += cell)
			g_string_append_c(line, c);
	}
	/* Translators: the map of the card, then what its characters mean */
	g_print(_("Map (each character is 1/64 of the card, from its start):\n  %s\n"), line->str);
	if (g_strcmp0(r->mode, "full") == 0)
		g_print("  %s\n",
			_("# holds what was written   W shows a lower address again (wraps)   0 "
			  "reads back zeros   E fails   C reads back changed"));
	else
		g_print("  %s\n",
			_("# wrote and read back right, then put back   W shows a lower address "
			  "again (wraps)   0 reads back zeros   E fails   C reads back changed   . "
			  "not probed"));
	g_string_free(line, TRUE);
}

/* @obj: the reply, for the card's registers that ops adds to the check result */
static void
sdt_cli_check_print_human(const SdtCheckResult *r, const gchar *reply)
{
	if (g_strcmp0(r->verdict, "genuine") == 0)
		g_print(_("Verdict: genuine\n"));
	else if (g_strcmp0(r->verdict, "fake") == 0)
		g_print(_("Verdict: FAKE\n"));
	else
		g_print(_("Verdict: not determinable\n"));
	if (r->target.whole_device && g_strcmp0(r->mode, "full") == 0)
		/* Translators: the claimed size in MiB, the card's device */
		g_print(_("The card claims %" PRId64 " MiB (%s, every block written and read "
			  "back; what it held is gone)\n"),
			r->claimed_bytes / 1048576,
			r->target.disk);
	else if (r->target.whole_device)
		/* Translators: the claimed size in MiB, the card's device */
		g_print(_("The card claims %" PRId64 " MiB (%s, checked whole, every block "
			  "put back)\n"),
			r->claimed_bytes / 1048576,
			r->target.disk);
	else
		/* Translators: the claimed size in MiB, the disk, the file system and its
		 * directory */
		g_print(_("The card claims %" PRId64 " MiB (%s, %s at %s)\n"),
			r->claimed_bytes / 1048576,
			r->target.disk,
			r->target.filesystem,
			r->target.path);
	if (r->target.whole_device && g_strcmp0(r->mode, "full") == 0 && !isnan(r->write_mb_s))
		/* Translators: the full check's rates in MB/s (10^6 bytes) */
		g_print(_("Wrote at %.1f MB/s, read back at %.1f MB/s\n"),
			r->write_mb_s,
			r->read_mb_s);
	if (sdt_check_result_has_capacity(r)) {
		/* Translators: the real capacity's range and estimate in MiB */
		g_print(_("Real capacity between %.1f and %.1f MiB (about %.1f MiB)\n"),
			r->capacity_at_least_bytes / 1048576.0,
			r->capacity_at_most_bytes / 1048576.0,
			r->estimated_capacity_bytes / 1048576.0);
		if (r->target.whole_device && g_strcmp0(r->mode, "full") == 0)
			/* Translators: a size in MB (10^6 bytes); the full check left no
			 * files on the card */
			g_print(_("Files written past about %.0f MB would be lost on this "
				  "card. Do not use it for anything important.\n"),
				r->capacity_at_least_bytes / 1e6);
		else
			/* Translators: a size in MB (10^6 bytes) */
			g_print(_("Files written past about %.0f MB are lost on this card. "
				  "Copy your files off it and do not use it for anything "
				  "important.\n"),
				r->capacity_at_least_bytes / 1e6);
	}
	/* English from the helper, or in-process (docs/ARCHITECTURE.md) */
	g_print("%s\n", sdt_l10n_tr(r->reason));
	/* Translators: coverage in percent, blocks written, blocks read, seconds */
	g_print(_("Covered %.0f%% of the card's addresses (%" PRId64 " blocks written, %" PRId64
		  " read) in %.1f s\n"),
		r->coverage * 100,
		r->samples.written,
		r->samples.read,
		r->seconds);
	if (!isnan(r->cache_at_most_bytes))
		/* Translators: two sizes in MiB; the check's later read-backs came after
		 * writing more than the larger */
		g_print(_("Write cache: between %.0f and %.0f MiB (the card answered reads "
			  "from a cache of the last writes; the check wrote past it)\n"),
			r->cache_at_least_bytes / 1048576.0,
			r->cache_at_most_bytes / 1048576.0);
	else if (r->cache_flushed_bytes >= 0)
		/* Translators: a size in MiB */
		g_print(_("Write cache: none found up to %.0f MiB (blocks were read back "
			  "after that much more was written)\n"),
			r->cache_flushed_bytes / 1048576.0);
	if (r->map->len > 0)
		sdt_cli_check_print_map(r);
	sdt_cli_check_print_registers(reply);
	for (guint i = 0; i < r->notes->len; i++)
		g_print(_("Note: %s\n"), sdt_l10n_tr(g_ptr_array_index(r->notes, i)));
}

/* the check's reply (an object: sdt-cli-ops checks) in words; a reply the codec
 * refuses is an error */
static gboolean
sdt_cli_check_print_reply(const gchar *reply, GError **error)
{
	g_autoptr(SdtCheckResult) result = NULL;

	result = sdt_check_result_parse(reply, error);
	if (result == NULL)
		return FALSE;
	sdt_cli_check_print_human(result, reply);
	return TRUE;
}

/* the options that go together */
static gboolean
sdt_cli_check_usage(const gchar *dir,
		    const gchar *device,
		    gboolean full,
		    const gchar *confirm,
		    GError **error)
{
	if (dir != NULL && device != NULL) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_ARGUMENT,
				    _("Name a folder or a device to check, not both"));
		return FALSE;
	}
	if (confirm != NULL && (device == NULL || !full)) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_ARGUMENT,
				    _("--destroy-data-on goes with --device and --full"));
		return FALSE;
	}
	return TRUE;
}

/* the full check of @device refused for want of a confirmation: the option that gives
 * it, which the helper and the library do not know of */
static void
sdt_cli_check_confirm_hint(const gchar *device, GError **error)
{
	g_autofree gchar *message = NULL;

	if (error == NULL || !g_error_matches(*error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT))
		return;
	message = (*error)->message;
	/* Translators: the refusal, then the device to name again */
	(*error)->message =
		g_strdup_printf(_("%s\nTo go on, add --destroy-data-on %s"), message, device);
}

gint
sdtunerctl_check(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	SdtCliCheck self = {.cli = cli};
	g_autofree gchar *result = NULL;
	g_autofree gchar *dir = NULL;
	g_autofree gchar *device = NULL;
	g_autofree gchar *confirm = NULL;
	gboolean full = FALSE;
	gint rc = SDT_CLI_EXIT_OK;
	const GOptionEntry entries[] = {
		{"full",
		 0,
		 0,
		 G_OPTION_ARG_NONE,
		 &full,
		 N_("Write and verify all the free space (slow) instead of samples"),
		 NULL},
		{"dir",
		 0,
		 0,
		 G_OPTION_ARG_FILENAME,
		 &dir,
		 N_("Check the file system that holds DIR, a folder of yours, instead of "
		    "the SD card"),
		 N_("DIR")},
		{"device",
		 0,
		 0,
		 G_OPTION_ARG_FILENAME,
		 &device,
		 N_("Check the whole card DEV (in a reader, unmounted) in place, putting back "
		    "every block it writes"),
		 N_("DEV")},
		{"destroy-data-on",
		 0,
		 0,
		 G_OPTION_ARG_FILENAME,
		 &confirm,
		 N_("With --device and --full: DEV again, your word that everything on it is "
		    "lost (every block is written and read back, nothing saved)"),
		 N_("DEV")},
		{NULL},
	};

	/* --json and --help/-h come from sdt_cli_parse(), as for every command */
	if (!sdt_cli_parse(cli, entries, 0, 0, &argc, &argv, &rc, error))
		return rc;
	if (!sdt_cli_check_usage(dir, device, full, confirm, error))
		return SDT_CLI_EXIT_USAGE;
	self.tty = isatty(STDERR_FILENO);
	self.started = g_get_monotonic_time();
	self.mode = full ? "full" : "quick";
	self.dir = dir;
	self.device = device;
	self.confirm = confirm;
	result = sdt_cli_run_in_thread(sdt_cli_check_work, sdt_cli_check_interrupted, &self, error);
	if (self.line_shown)
		g_printerr("\n");
	g_clear_pointer(&self.last_phase, g_free);

	if (result == NULL && full && device != NULL && confirm == NULL)
		sdt_cli_check_confirm_hint(device, error);
	if (result == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json)
		sdt_cli_print_text(cli, result);
	else if (!sdt_cli_check_print_reply(result, error))
		return SDT_CLI_EXIT_FAILED;
	return rc;
}

/* which disk the figures are about: eMMC and its own wear report, or a card that is not
 * the system disk */
static void
sdt_cli_health_print_disk(const SdtHealthReportCard *card)
{
	const SdtInfoReportEmmc *emmc = card->emmc;
	const gchar *device = card->device != NULL ? card->device : "?";

	if (emmc != NULL) {
		g_autofree gchar *summary = sdt_client_disk_words_emmc_summary(emmc->wear);
		g_autofree gchar *a = sdt_client_disk_words_life_time(emmc->life_time_a.value);
		g_autofree gchar *b = sdt_client_disk_words_life_time(emmc->life_time_b.value);
		g_autofree gchar *eol = sdt_client_disk_words_pre_eol(emmc->pre_eol);

		/* Translators: %s is the block device, e.g. "mmcblk0" */
		g_print(_("eMMC %s (not an SD card): %s\n"), device, summary);
		g_print(_("  Life used (type A memory): %s\n"), a);
		g_print(_("  Life used (type B memory): %s\n"), b);
		g_print(_("  Reserved blocks (pre-EOL): %s\n"), eol);
	}
	if (card->holds_system == SDT_INFO_REPORT_FLAG_NO) {
		if (card->system_device != NULL)
			/* Translators: the card's device ("mmcblk0"), then the system's partition
			 * ("nvme0n1p2") */
			g_print(_("The system does not run from this card: the figures below are "
				  "for %s, not for the system disk %s\n"),
				device,
				card->system_device);
		else
			g_print(_("The system does not run from this card: the figures below are "
				  "for %s, not for the system disk\n"),
				device);
	}
}

/* the card checked before in a reader or another slot (health "checked_before") */
static void
sdt_cli_health_print_checked_before(const SdtHealthReportCheckedBefore *c)
{
	g_autofree gchar *when = NULL;
	const gchar *verdict;

	if (c == NULL)
		return;
	when = sdt_l10n_time(c->time != NULL ? c->time : "?");
	verdict = sdt_l10n_record_check_verdict(c->verdict);
	if (g_strcmp0(c->match, "cid") == 0)
		/* Translators: a date and time, then the verdict (genuine, fake, ...) */
		g_print(_("This card was checked before, on %s: %s\n"), when, verdict);
	else
		/* Translators: a date and time, then the verdict (genuine, fake, ...) */
		g_print(_("A card of the same size was checked in a card reader on %s (maybe "
			  "this one): %s\n"),
			when,
			verdict);
}

/* the figures of the writes: lifetime, since boot, per day and the projection */
static void
sdt_cli_health_print_writes(const SdtHealthReport *r)
{
	if (r->lifetime_write_bytes >= 0)
		g_print(_("Written over the file systems' lifetime: %.1f GB\n"),
			r->lifetime_write_bytes / 1e9);
	if (r->written_bytes >= 0)
		g_print(_("Written since boot: %.1f GB\n"), r->written_bytes / 1e9);
	if (!isnan(r->writes_per_day_bytes))
		g_print(_("Writes per day: %.2f GB\n"), r->writes_per_day_bytes / 1e9);
	if (r->projection != NULL) {
		gdouble years = r->projection->years;

		/* Translators: %.0f is a whole number of years; then the assumption */
		g_print(ngettext("At this rate the card lasts about %.0f more year.\n%s\n",
				 "At this rate the card lasts about %.0f more years.\n%s\n",
				 sdt_l10n_plural_count(years)),
			years,
			sdt_l10n_tr(r->projection->assumption));
	}
}

static void
sdt_cli_health_print_human(const SdtHealthReport *r)
{
	GPtrArray *alerts = r->trend != NULL ? r->trend->alerts : NULL;

	if (!r->card.present) {
		g_print(_("No SD card found\n"));
		return;
	}
	sdt_cli_health_print_disk(&r->card);
	sdt_cli_health_print_writes(r);
	if (r->kernel_errors_since_boot >= 0)
		g_print(ngettext("%" PRId64 " card error reported by the kernel since boot\n",
				 "%" PRId64 " card errors reported by the kernel since boot\n",
				 (gulong) r->kernel_errors_since_boot),
			r->kernel_errors_since_boot);
	if (r->read_only)
		g_print(_("A file system on the card is mounted read-only\n"));
	if (r->check_journal_damaged != NULL) {
		g_autofree gchar *words =
			sdt_check_result_damaged_journal_words(r->check_journal_damaged);
		g_print("%s\n", words);
	}
	if (r->state_error != NULL)
		/* Translators: why SD Tuner refuses its state folder, with what to do */
		g_print(_("SD Tuner cannot read its state folder, so the benchmark trend leaves "
			  "out its history until it is fixed: %s\n"),
			sdt_l10n_tr(r->state_error));
	sdt_cli_health_print_checked_before(r->checked_before);
	sdt_cli_print_registers(r->registers);
	/* the same sentences as the Health page: the JSON names the metric for scripts */
	for (guint i = 0; alerts != NULL && i < alerts->len; i++) {
		if (g_strcmp0(g_ptr_array_index(alerts, i), "seq_write_mb_s") == 0)
			g_print("%s",
				_("Alert: sequential writes got clearly slower over the "
				  "benchmark history.\n"));
		else
			g_print("%s",
				_("Alert: small writes got clearly slower over the "
				  "benchmark history.\n"));
	}
	for (guint i = 0; i < r->notes->len; i++)
		g_print(_("Note: %s\n"), sdt_l10n_tr(g_ptr_array_index(r->notes, i)));
}

gint
sdtunerctl_check_health(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autofree gchar *text = NULL;
	g_autoptr(SdtHealthReport) report = NULL;
	gint rc;

	if (!sdt_cli_no_args(cli, argc, argv, &rc, error))
		return rc;
	text = sdt_cli_ops_read_text(cli, sdt_ops_health, sdt_manager_call_get_health_sync, error);
	if (text == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		sdt_cli_print_text(cli, text);
		return SDT_CLI_EXIT_OK;
	}
	report = sdt_health_report_parse(text, error);
	if (report == NULL)
		return SDT_CLI_EXIT_FAILED;
	sdt_cli_health_print_human(report);
	return SDT_CLI_EXIT_OK;
}
