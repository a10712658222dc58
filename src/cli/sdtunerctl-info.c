/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>

#include "sdt-cli-ops.h"
#include "sdt-client-disk-words.h"
#include "sdt-error.h"
#include "sdt-info-report.h"
#include "sdt-l10n.h"
#include "sdt-ops.h"
#include "sdtunerctl-info.h"

/* labels are padded to this many characters */
#define SDT_CLI_INFO_LABEL_WIDTH 18

static void
sdt_cli_info_row(GString *out, const gchar *label, const gchar *value)
{
	/* in terminal columns: a Japanese label's characters are two wide */
	glong len = sdt_l10n_columns(label);

	g_string_append_printf(out, "  %s", label);
	for (glong i = len; i < SDT_CLI_INFO_LABEL_WIDTH; i++)
		g_string_append_c(out, ' ');
	g_string_append_printf(out, " %s\n", value);
}

/* a count or a frequency the helper knew (SDT_INFO_REPORT_UNKNOWN: null) */
#define SDT_CLI_INFO_KNOWN(v) ((v) != SDT_INFO_REPORT_UNKNOWN)

/* eMMC soldered to the board, not an SD card */
#define SDT_CLI_INFO_EMMC(card) (g_strcmp0((card)->kind, "emmc") == 0)

static gchar *
sdt_cli_info_mhz(gint64 hz)
{
	/* Translators: a clock frequency */
	return g_strdup_printf(_("%.2f MHz"), (gdouble) hz / 1e6);
}

/* "C10", "U3", "V30", "A2"; "none" for 0, "unknown" for null */
static gchar *
sdt_cli_info_class(gint64 value, const gchar *prefix)
{
	if (!SDT_CLI_INFO_KNOWN(value))
		return g_strdup(_("unknown"));
	if (value == 0)
		return g_strdup(_("none"));
	return g_strdup_printf("%s%" G_GINT64_FORMAT, prefix, value);
}

static void
sdt_cli_info_format_board(GString *out, const SdtInfoReportBoard *board)
{
	g_autofree gchar *key = NULL;
	g_autofree gchar *ctrl = NULL;

	g_string_append_printf(out, "%s\n", _("Board"));
	sdt_cli_info_row(out, _("Model"), board->model != NULL ? board->model : _("unknown"));
	if (board->name != NULL && g_strcmp0(board->name, board->key) != 0)
		key = g_strdup_printf("%s (%s)", board->key, board->name);
	else
		key = g_strdup(board->key);
	sdt_cli_info_row(out, _("Board key"), key);
	if (board->revision != NULL && SDT_CLI_INFO_KNOWN(board->type_code)) {
		g_autofree gchar *rev =
			/* Translators: the revision code, then the board type in hex */
			g_strdup_printf(_("%s (type 0x%02x)"),
					board->revision,
					(guint) board->type_code);
		sdt_cli_info_row(out, _("Revision"), rev);
	} else {
		sdt_cli_info_row(out,
				 _("Revision"),
				 board->revision != NULL ? board->revision : _("none"));
	}
	sdt_cli_info_row(out, _("SoC"), board->soc != NULL ? board->soc : _("unknown"));
	if (SDT_CLI_INFO_KNOWN(board->core_clock_hz)) {
		g_autofree gchar *core = sdt_cli_info_mhz(board->core_clock_hz);
		/* Translators: the SD controller and the board's default core clock */
		ctrl = g_strdup_printf(_("%s (default core clock %s)"), board->sd_controller, core);
	} else {
		ctrl = g_strdup(board->sd_controller);
	}
	sdt_cli_info_row(out, _("SD controller"), ctrl);
	if (board->filter != NULL)
		sdt_cli_info_row(out, _("config.txt filter"), board->filter);
}

/* what Linux found out through CMD48 (ext_perf, ext_power), when the kernel shows it */
static void
sdt_cli_info_format_kernel_view(GString *out, const SdtInfoReportCard *card)
{
	g_autoptr(GPtrArray) parts = g_ptr_array_new();
	g_autofree gchar *joined = NULL;

	if (!card->ext_perf.present && !card->ext_power.present)
		return;
	if (card->ext_perf.cache)
		g_ptr_array_add(parts, (gpointer) _("cache"));
	if (card->ext_perf.cmd_queue)
		g_ptr_array_add(parts, (gpointer) _("command queue"));
	if (card->ext_power.power_off_notify)
		g_ptr_array_add(parts, (gpointer) _("power-off notification"));
	if (parts->len == 0)
		g_ptr_array_add(parts, (gpointer) _("no extensions"));
	g_ptr_array_add(parts, NULL);
	joined = g_strjoinv(", ", (gchar **) parts->pdata);
	sdt_cli_info_row(out, _("Linux detected"), joined);
}

/* which device, made by whom, when */
static void
sdt_cli_info_format_card_identity(GString *out, const SdtInfoReportCard *card)
{
	g_autofree gchar *device = NULL;
	g_autofree gchar *maker = NULL;
	g_autofree gchar *date = sdt_l10n_month(card->date);

	/* Translators: block device, mmc device, controller, driver:
	 * "mmcblk0 (mmc0:0001 on 3f202000.mmc, driver sdhost-bcm2835)" */
	device = g_strdup_printf(_("%1$s (%2$s on %3$s, driver %4$s)"),
				 card->device != NULL ? card->device : _("no block device"),
				 card->mmc_device,
				 card->host_device != NULL ? card->host_device
							   : _("unknown controller"),
				 card->host_driver != NULL ? card->host_driver : _("none"));
	sdt_cli_info_row(out, _("Device"), device);
	if (SDT_CLI_INFO_KNOWN(card->manfid) && SDT_CLI_INFO_EMMC(card)) {
		/* Translators: the maker is a guess from the eMMC manufacturer id */
		g_autofree gchar *likely =
			card->manufacturer != NULL
				? g_strdup_printf(_("likely %s"), card->manufacturer)
				: g_strdup(_("not in the table"));
		/* Translators: likely maker, then the eMMC manufacturer id */
		maker = g_strdup_printf(_("%s (eMMC manufacturer id 0x%02x)"),
					likely,
					(guint) card->manfid);
		sdt_cli_info_row(out, _("Maker"), maker);
	} else if (SDT_CLI_INFO_KNOWN(card->manfid)) {
		/* Translators: the maker is a guess from the manufacturer id (PLATFORM.md §8) */
		g_autofree gchar *likely =
			card->manufacturer != NULL
				? g_strdup_printf(_("likely %s"), card->manufacturer)
				: g_strdup(_("not in the table"));
		/* Translators: likely maker, manufacturer id, OEM id */
		maker = g_strdup_printf(_("%s (manufacturer id 0x%02x, OEM “%s”)"),
					likely,
					(guint) card->manfid,
					card->oemid);
		sdt_cli_info_row(out, _("Maker"), maker);
	} else {
		sdt_cli_info_row(out, _("Maker"), _("unknown"));
	}
	sdt_cli_info_row(out, _("Name"), card->name != NULL ? card->name : _("unknown"));
	if (card->serial != NULL)
		sdt_cli_info_row(out, _("Serial"), card->serial);
	sdt_cli_info_row(out, _("Date"), date != NULL ? date : _("unknown"));
}

static void
sdt_cli_info_format_card_capacity(GString *out, const SdtInfoReportCard *card)
{
	if (SDT_CLI_INFO_KNOWN(card->capacity_bytes)) {
		gint64 bytes = card->capacity_bytes;
		/* grouped as the locale groups digits: 7,948,206,080; 7.948.206.080 */
		g_autofree gchar *bytes_str = g_strdup_printf("%'" G_GINT64_FORMAT, bytes);
		/* Translators: capacity in GB (10^9 bytes), in bytes, and in GiB (2^30 bytes) */
		g_autofree gchar *cap = g_strdup_printf(_("%.1f GB (%s bytes, %.1f GiB)"),
							(gdouble) bytes / 1e9,
							bytes_str,
							(gdouble) bytes / (1 << 30));
		sdt_cli_info_row(out, _("Capacity"), cap);
	} else {
		sdt_cli_info_row(out, _("Capacity"), _("unknown"));
	}
}

/* the classes it claims and what it supports */
static void
sdt_cli_info_format_card_features(GString *out, const SdtInfoReportCard *card)
{
	g_autofree gchar *speed = sdt_cli_info_class(card->speed_class, "C");
	g_autofree gchar *uhs = sdt_cli_info_class(card->uhs_grade, "U");
	g_autofree gchar *video = sdt_cli_info_class(card->video_class, "V");
	g_autofree gchar *app = sdt_cli_info_class(card->app_class, "A");
	g_autofree gchar *cq = NULL;

	sdt_cli_info_row(out,
			 _("SD spec"),
			 card->spec_version != NULL ? card->spec_version : _("unknown"));
	sdt_cli_info_row(out, _("Speed class"), speed);
	sdt_cli_info_row(out, _("UHS grade"), uhs);
	sdt_cli_info_row(out, _("Video class"), video);
	sdt_cli_info_row(out, _("App class"), app);
	if (!SDT_CLI_INFO_KNOWN(card->cq_depth))
		cq = g_strdup(_("unknown"));
	else if (card->cq_depth == 0)
		cq = g_strdup(_("not supported"));
	else
		cq = g_strdup_printf(_("card supports depth %d"), (gint) card->cq_depth);
	sdt_cli_info_row(out, _("Command queue"), cq);
	if (card->cache == SDT_INFO_REPORT_FLAG_UNKNOWN)
		sdt_cli_info_row(out, _("Cache"), _("unknown"));
	else
		sdt_cli_info_row(out,
				 _("Cache"),
				 card->cache == SDT_INFO_REPORT_FLAG_YES
					 ? _("card supports a cache")
					 : _("not supported"));
}

/* eMMC: the chip's own wear report, in words (PLATFORM.md §6.8) */
static void
sdt_cli_info_format_emmc_wear(GString *out, const SdtInfoReportCard *card)
{
	const SdtInfoReportEmmc *emmc = card->emmc; /* NULL: every figure unknown */
	g_autofree gchar *summary =
		sdt_client_disk_words_emmc_summary(emmc != NULL ? emmc->wear : NULL);
	g_autofree gchar *a = sdt_client_disk_words_life_time(
		emmc != NULL ? emmc->life_time_a.value : SDT_INFO_REPORT_UNKNOWN);
	g_autofree gchar *b = sdt_client_disk_words_life_time(
		emmc != NULL ? emmc->life_time_b.value : SDT_INFO_REPORT_UNKNOWN);
	g_autofree gchar *eol = sdt_client_disk_words_pre_eol(
		emmc != NULL ? emmc->pre_eol : SDT_INFO_REPORT_UNKNOWN);

	sdt_cli_info_row(out, _("Wear"), summary);
	/* Translators: JEDEC's "type A" memory (SLC or the enhanced area) */
	sdt_cli_info_row(out, _("Life used (A)"), a);
	/* Translators: JEDEC's "type B" memory (the MLC/TLC main area) */
	sdt_cli_info_row(out, _("Life used (B)"), b);
	/* Translators: the eMMC's pre-EOL (end of life) information */
	sdt_cli_info_row(out, _("Reserved blocks"), eol);
}

/* where the system runs from when it is not this card */
static gchar *
sdt_cli_info_system_elsewhere(const SdtInfoReportCard *card)
{
	const gchar *what = sdt_client_disk_words_system_device_kind(card->system_device);

	if (card->system_device == NULL)
		return g_strdup(_("no: SD Tuner tunes nothing for a card that is not the "
				  "system disk"));
	if (what != NULL)
		/* Translators: the system's partition ("nvme0n1p2"), then what it is
		 * ("an NVMe drive") */
		return g_strdup_printf(_("no: the system runs from %s (%s); SD Tuner tunes "
					 "nothing for this card"),
				       card->system_device,
				       what);
	/* Translators: the system's partition, e.g. "nvme0n1p2" */
	return g_strdup_printf(_("no: the system runs from %s; SD Tuner tunes nothing for "
				 "this card"),
			       card->system_device);
}

/* CMD48, and whether the running system is on the card */
static void
sdt_cli_info_format_card_system(GString *out, const SdtInfoReportCard *card)
{
	g_autofree gchar *system = NULL;

	if (card->cmd48 != SDT_INFO_REPORT_FLAG_UNKNOWN)
		sdt_cli_info_row(out,
				 _("CMD48 (ext. regs)"),
				 card->cmd48 == SDT_INFO_REPORT_FLAG_YES ? _("yes") : _("no"));
	if (card->holds_system == SDT_INFO_REPORT_FLAG_UNKNOWN) {
		system = g_strdup(_("unknown"));
	} else if (card->holds_system == SDT_INFO_REPORT_FLAG_YES) {
		g_autoptr(GString) list = g_string_new(NULL);
		for (guint i = 0; i < card->mount_points->len; i++) {
			if (i > 0)
				g_string_append(list, ", ");
			g_string_append(list, g_ptr_array_index(card->mount_points, i));
		}
		system = g_strdup_printf(_("yes, mounted at %s"), list->str);
	} else {
		system = sdt_cli_info_system_elsewhere(card);
	}
	sdt_cli_info_row(out,
			 SDT_CLI_INFO_EMMC(card) ? _("System on eMMC") : _("System on card"),
			 system);
}

static void
sdt_cli_info_format_card(GString *out, const SdtInfoReportCard *card)
{
	g_string_append_printf(out,
			       "\n%s\n",
			       SDT_CLI_INFO_EMMC(card) ? _("eMMC (not an SD card)") : _("SD card"));
	if (!card->present) {
		sdt_cli_info_row(out, _("Card"), _("none found"));
		return;
	}
	sdt_cli_info_format_card_identity(out, card);
	sdt_cli_info_format_card_capacity(out, card);
	if (SDT_CLI_INFO_EMMC(card)) {
		sdt_cli_info_format_emmc_wear(out, card);
	} else {
		sdt_cli_info_format_card_features(out, card);
		sdt_cli_info_format_kernel_view(out, card);
	}
	sdt_cli_info_format_card_system(out, card);
}

/* the clock now and the clock asked for */
static gchar *
sdt_cli_info_bus_clock(const SdtInfoReportBus *bus)
{
	g_autofree gchar *req = NULL;
	g_autofree gchar *act = NULL;

	if (!SDT_CLI_INFO_KNOWN(bus->clock_hz) && !SDT_CLI_INFO_KNOWN(bus->actual_clock_hz))
		return g_strdup(_("unknown"));
	req = SDT_CLI_INFO_KNOWN(bus->clock_hz) ? sdt_cli_info_mhz(bus->clock_hz)
						: g_strdup(_("unknown"));
	act = SDT_CLI_INFO_KNOWN(bus->actual_clock_hz) ? sdt_cli_info_mhz(bus->actual_clock_hz)
						       : g_strdup(_("unknown"));
	/* Translators: requested and actual SD clock */
	return g_strdup_printf(_("%s actual (%s requested)"), act, req);
}

static void
sdt_cli_info_format_bus(GString *out, const SdtInfoReportBus *bus)
{
	g_autofree gchar *clock = sdt_cli_info_bus_clock(bus);
	g_autofree gchar *width = NULL;
	g_autofree gchar *ceiling = NULL;
	g_autofree gchar *volts = NULL;

	g_string_append_printf(out, "\n%s\n", _("Bus"));
	sdt_cli_info_row(out, _("Clock"), clock);
	sdt_cli_info_row(out, _("Timing"), sdt_l10n_timing(bus->timing));
	if (SDT_CLI_INFO_KNOWN(bus->bus_width))
		width = g_strdup_printf(ngettext("%d bit", "%d bits", (gulong) bus->bus_width),
					(gint) bus->bus_width);
	sdt_cli_info_row(out, _("Bus width"), width != NULL ? width : _("unknown"));
	if (!isnan(bus->signal_voltage))
		volts = g_strdup_printf(_("%.2f V"), bus->signal_voltage);
	sdt_cli_info_row(out, _("Signal voltage"), volts != NULL ? volts : _("unknown"));
	if (!isnan(bus->ceiling_mb_s))
		/* Translators: MB/s means 10^6 bytes per second */
		ceiling = g_strdup_printf(_("%.1f MB/s (10^6 bytes/s, from clock × width)"),
					  bus->ceiling_mb_s);
	sdt_cli_info_row(out, _("Bus ceiling"), ceiling != NULL ? ceiling : _("unknown"));
	sdt_cli_info_row(out, _("Command queueing"), sdt_l10n_cqe(bus->cqe));
	if (g_strcmp0(bus->source, "kernel-log") == 0)
		sdt_cli_info_row(out, _("Source"), _("kernel log (debugfs not available)"));
}

/* the SD overclock the driver reported, and how often it lowered it */
static gchar *
sdt_cli_info_overclock(const SdtInfoReportKernelLog *klog)
{
	g_autofree gchar *mhz = NULL;
	gint reduced = (gint) MAX(klog->overclock_reduced, 0); /* unknown: not said */

	if (!SDT_CLI_INFO_KNOWN(klog->overclock_hz))
		return NULL;
	mhz = sdt_cli_info_mhz(klog->overclock_hz);
	if (klog->overclock_cancelled == SDT_INFO_REPORT_FLAG_YES)
		/* Translators: the overclock (e.g. "100.00 MHz"), how often the driver
		 * lowered it after errors, and that it then gave up overclocking */
		return g_strdup_printf(ngettext("%1$s, reduced %2$d time, then cancelled",
						"%1$s, reduced %2$d times, then cancelled",
						(gulong) reduced),
				       mhz,
				       reduced);
	return g_strdup_printf(
		/* Translators: the overclock (e.g. "100.00 MHz") and how often the
		 * driver lowered it after errors */
		ngettext("%1$s, reduced %2$d time", "%1$s, reduced %2$d times", (gulong) reduced),
		mhz,
		reduced);
}

static void
sdt_cli_info_format_kernel_log(GString *out, const SdtInfoReportKernelLog *klog)
{
	g_autofree gchar *oc = NULL;

	if (!klog->read)
		return;
	g_string_append_printf(out, "\n%s\n", _("Kernel log"));
	oc = sdt_cli_info_overclock(klog);
	sdt_cli_info_row(out, _("SD overclock"), oc != NULL ? oc : _("none"));
	if (klog->cqe_enabled == SDT_INFO_REPORT_FLAG_YES) {
		g_autofree gchar *cqe = NULL;
		if (SDT_CLI_INFO_KNOWN(klog->cqe_tags))
			cqe = g_strdup_printf(ngettext("enabled, %d tag",
						       "enabled, %d tags",
						       (gulong) klog->cqe_tags),
					      (gint) klog->cqe_tags);
		else
			cqe = g_strdup(_("enabled"));
		sdt_cli_info_row(out, _("CQ engine"), cqe);
	} else if (klog->host_software_queue == SDT_INFO_REPORT_FLAG_YES) {
		sdt_cli_info_row(out, _("CQ engine"), _("host software queue (card not queued)"));
	}
	if (klog->cqe_recovery > 0) {
		g_autofree gchar *rec = g_strdup_printf("%" G_GINT64_FORMAT, klog->cqe_recovery);
		sdt_cli_info_row(out, _("CQE recoveries"), rec);
	}
	if (klog->quirks != NULL)
		sdt_cli_info_row(out, _("mmcblk quirks"), klog->quirks);
}

static void
sdt_cli_info_format_setting(GString *out, const SdtInfoReportSetting *s)
{
	g_autofree gchar *label = NULL;
	g_autofree gchar *value = NULL;

	/* Translators: "line 12" of config.txt */
	label = g_strdup_printf(_("line %d"), (gint) s->line);
	value = g_strdup_printf(
		/* Translators: the config.txt line, its filter section, whether it
		 * applies to this board, and who wrote it */
		_("%s  %s, %s, %s"),
		s->text,
		s->filter != NULL ? s->filter : "[all]",
		s->applies ? _("applies to this board") : _("not for this board"),
		s->managed ? _("written by SD Tuner") : _("written by hand"));
	sdt_cli_info_row(out, label, value);
	if (s->warning != NULL) {
		g_autofree gchar *warn = g_strdup_printf(_("warning: %s"), s->warning);
		sdt_cli_info_row(out, "", warn);
	}
}

static void
sdt_cli_info_format_config(GString *out, const SdtInfoReportConfig *config)
{
	if (config == NULL)
		return;
	g_string_append_printf(out, "\n%s\n", _("Boot configuration"));
	if (config->error != NULL) {
		sdt_cli_info_row(out, _("config.txt"), sdt_l10n_tr(config->error));
		return;
	}
	sdt_cli_info_row(out, _("config.txt"), config->path != NULL ? config->path : _("unknown"));
	sdt_cli_info_row(out,
			 _("SD Tuner block"),
			 config->managed_block != NULL ? config->managed_block : _("none"));
	if (config->sd_settings->len == 0) {
		sdt_cli_info_row(out, _("SD settings"), _("none: the firmware defaults apply"));
		return;
	}
	for (guint i = 0; i < config->sd_settings->len; i++)
		sdt_cli_info_format_setting(out, g_ptr_array_index(config->sd_settings, i));
}

static gchar *
sdt_cli_info_format(const SdtInfoReport *info)
{
	g_autoptr(GString) out = g_string_new(NULL);

	if (info->simulated)
		g_string_append_printf(out,
				       "%s\n\n",
				       _("SIMULATED: this is read from a test root, not from the "
					 "hardware of this machine"));
	sdt_cli_info_format_board(out, &info->board);
	sdt_cli_info_format_card(out, &info->card);
	sdt_cli_info_format_bus(out, &info->bus);
	sdt_cli_info_format_kernel_log(out, &info->kernel_log);
	sdt_cli_info_format_config(out, info->config);
	if (info->warnings->len > 0) {
		g_string_append_printf(out, "\n%s\n", _("Warnings"));
		for (guint i = 0; i < info->warnings->len; i++)
			g_string_append_printf(out,
					       "  - %s\n",
					       sdt_l10n_tr(g_ptr_array_index(info->warnings, i)));
	}
	return g_string_free(g_steal_pointer(&out), FALSE);
}

gint
sdtunerctl_info(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autofree gchar *json = NULL;
	g_autoptr(SdtInfoReport) info = NULL;
	g_autofree gchar *text = NULL;
	gint rc;

	if (!sdt_cli_no_args(cli, argc, argv, &rc, error))
		return rc;
	/* info reads nothing private: without the helper, read this machine directly */
	json = sdt_cli_ops_read_text(cli, sdt_ops_info, sdt_manager_call_get_info_sync, error);
	if (json == NULL)
		return SDT_CLI_EXIT_FAILED;
	info = sdt_info_report_parse(json, error);
	if (info == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		/* JSON is UTF-8 for every reader, never converted to the locale's charset */
		text = sdt_info_report_to_string(info);
		fputs(text, stdout);
		fputc('\n', stdout);
		fflush(stdout);
	} else {
		text = sdt_cli_info_format(info);
		g_print("%s", text);
	}
	return SDT_CLI_EXIT_OK;
}
