/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <math.h>

#include "sdt-error.h"
#include "sdt-info.h"
#include "sdt-mounts.h"
#include "sdt-board-private.h"
#include "sdt-card-regs-private.h"
#include "sdt-emmc-private.h"
#include "sdt-kmsg-private.h"
#include "sdt-sd-bus-private.h"

/* debugfs ios is a few hundred bytes */
#define SDT_INFO_IOS_MAX_SIZE (64 * 1024)

const gchar *
sdt_info_cqe_state_to_string(SdtCqeState state)
{
	switch (state) {
	case SDT_CQE_ENABLED:
		return "enabled";
	case SDT_CQE_HOST_SOFTWARE_QUEUE:
		return "host-software-queue";
	case SDT_CQE_OFF:
		return "off";
	case SDT_CQE_UNKNOWN:
	default:
		return "unknown";
	}
}

static const gchar *
sdt_sd_bus_source_to_string(SdtSdBusSource source)
{
	switch (source) {
	case SDT_SD_BUS_SOURCE_DEBUGFS:
		return "debugfs";
	case SDT_SD_BUS_SOURCE_KERNEL_LOG:
		return "kernel-log";
	case SDT_SD_BUS_SOURCE_NONE:
	default:
		return NULL;
	}
}

void
sdt_info_free(SdtInfo *info)
{
	if (info == NULL)
		return;
	sdt_board_free(info->board);
	sdt_card_free(info->card);
	sdt_sd_bus_ios_clear(&info->bus.ios);
	g_free(info->bus.ios_path);
	sdt_kmsg_facts_clear(&info->kernel_log);
	g_ptr_array_unref(info->mounts);
	g_free(info->core_clock_source);
	g_ptr_array_unref(info->warnings);
	g_free(info);
}

static void
sdt_info_warn(SdtInfo *info, gchar *msg)
{
	g_ptr_array_add(info->warnings, msg);
}

static void
sdt_info_collect_kernel_log(SdtInfo *info, SdtContext *ctx)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) records = NULL;
	g_autofree gchar *text = NULL;
	gsize len = 0;
	guint n_bad = 0;

	sdt_kmsg_facts_init(&info->kernel_log);
	text = sdt_kmsg_read(ctx, &len, &error);
	if (text == NULL) {
		sdt_info_warn(info,
			      g_strdup_printf(_("The kernel log cannot be read (%s): overclock and "
						"command-queue facts are unknown"),
					      error->message));
		return;
	}
	info->kernel_log_read = TRUE;
	records = sdt_kmsg_parse(text, len, &n_bad);
	if (n_bad > 0)
		sdt_info_warn(info,
			      g_strdup_printf(ngettext("%u line of the kernel log is not a kmsg "
						       "record; it is ignored",
						       "%u lines of the kernel log are not kmsg "
						       "records; they are ignored",
						       n_bad),
					      n_bad));
	sdt_kmsg_facts_scan(&info->kernel_log,
			    records,
			    info->card->present ? info->card->host : NULL,
			    info->card->present ? info->card->device : NULL);
}

static const gchar *
sdt_info_bus_fallback(SdtInfo *info)
{
	return info->kernel_log_read ? _("the bus state comes from the kernel log")
				     : _("the bus state is unknown");
}

/* reads the debugfs ios of the card's host; FALSE (with a warning) to fall back */
static gboolean
sdt_info_collect_ios(SdtInfo *info, SdtContext *ctx)
{
	g_autofree gchar *abs = g_strdup_printf("/sys/kernel/debug/%s/ios", info->card->host);
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;
	gsize len = 0;

	info->bus.ios_path = sdt_context_build_path(ctx, abs);
	if (!sdt_context_read_kernel_file(ctx, abs, SDT_INFO_IOS_MAX_SIZE, &text, &len, &error)) {
		if (g_error_matches(error, SDT_ERROR, SDT_ERROR_NOT_FOUND))
			sdt_info_warn(info,
				      /* Translators: the ios file's path, then where the bus
				       * state comes from instead */
				      g_strdup_printf(_("%s does not exist (debugfs is not "
							"mounted): %s"),
						      info->bus.ios_path,
						      sdt_info_bus_fallback(info)));
		else if (g_error_matches(error, SDT_ERROR, SDT_ERROR_NOT_AUTHORIZED))
			sdt_info_warn(info,
				      /* Translators: the ios file's path, then where the bus
				       * state comes from instead */
				      g_strdup_printf(_("%s cannot be read without root: %s"),
						      info->bus.ios_path,
						      sdt_info_bus_fallback(info)));
		else
			sdt_info_warn(info,
				      /* Translators: the ios file's path, the system's error
				       * message, then where the bus state comes from instead */
				      g_strdup_printf(_("%s cannot be read (%s): %s"),
						      info->bus.ios_path,
						      error->message,
						      sdt_info_bus_fallback(info)));
		return FALSE;
	}
	if (memchr(text, '\0', len) != NULL ||
	    !sdt_sd_bus_ios_parse(&info->bus.ios, text, &error)) {
		sdt_info_warn(info,
			      /* Translators: the file's path, what is wrong with it, then
			       * where the bus state comes from instead */
			      g_strdup_printf(_("%s is not an mmc ios file (%s): %s"),
					      info->bus.ios_path,
					      error != NULL ? error->message : _("binary data"),
					      sdt_info_bus_fallback(info)));
		sdt_sd_bus_ios_clear(&info->bus.ios);
		return FALSE;
	}
	info->bus.source = SDT_SD_BUS_SOURCE_DEBUGFS;
	return TRUE;
}

/* what the "new … card" and "overclocking to" lines say, when debugfs is missing */
static void
sdt_info_bus_from_kernel_log(SdtInfo *info)
{
	SdtKmsgFacts *facts = &info->kernel_log;
	SdtSdBusIos *ios = &info->bus.ios;
	guint64 nominal;

	if (!facts->card_seen || facts->card_timing == SDT_TIMING_UNKNOWN) {
		sdt_info_warn(info,
			      g_strdup(_("The kernel log does not say how the card was set up: "
					 "the bus state is unknown")));
		return;
	}
	info->bus.source = SDT_SD_BUS_SOURCE_KERNEL_LOG;
	ios->timing = facts->card_timing;
	nominal = sdt_sd_bus_timing_get_nominal_clock_hz(facts->card_timing);
	if (nominal > 0)
		ios->clock_hz = (gint64) nominal;
	/* sdhost overclocks only what the core asks to run at 50 MHz (High Speed) */
	if (facts->card_timing != SDT_TIMING_SD_HIGH_SPEED || facts->overclock_current_hz == 0)
		ios->actual_clock_hz = ios->clock_hz;
	else if (facts->overclock_current_hz > 0)
		ios->actual_clock_hz = facts->overclock_current_hz;
	/* every Raspberry Pi SD slot is wired 4 bits wide */
	if (sdt_board_get_controller(info->board) != SDT_SD_CONTROLLER_UNKNOWN)
		ios->bus_width = 4;
	if (ios->bus_width < 0)
		sdt_info_warn(info,
			      g_strdup(_("The bus width of this board is not known: the bus "
					 "ceiling is unknown")));
	else if (ios->actual_clock_hz < 0)
		sdt_info_warn(info,
			      g_strdup(_("The overclock was reduced or cancelled and the kernel "
					 "log does not say to what: the actual clock is unknown")));
}

static SdtCqeState
sdt_info_cqe_state(SdtInfo *info)
{
	SdtKmsgFacts *facts = &info->kernel_log;
	SdtSdController controller = sdt_board_get_controller(info->board);

	if (!info->card->present)
		return SDT_CQE_UNKNOWN;
	if (facts->cqe_enabled && !facts->cmdq_failed)
		return SDT_CQE_ENABLED;
	if (facts->host_software_queue)
		return SDT_CQE_HOST_SOFTWARE_QUEUE;
	/* neither sdhost nor emmc2 has a command queue engine */
	if (controller == SDT_SD_CONTROLLER_SDHOST || controller == SDT_SD_CONTROLLER_EMMC2)
		return SDT_CQE_OFF;
	if (info->kernel_log_read && (facts->card_seen || facts->cmdq_failed))
		return SDT_CQE_OFF;
	return SDT_CQE_UNKNOWN;
}

SdtInfo *
sdt_info_collect(SdtContext *ctx, GError **error)
{
	g_autoptr(SdtInfo) info = g_new0(SdtInfo, 1);
	g_autoptr(GError) error_mounts = NULL;
	gint64 clock;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(SDT_IS_CONTEXT(ctx), NULL);

	info->warnings = g_ptr_array_new_with_free_func(g_free);
	info->simulated = sdt_context_is_simulated(ctx);
	sdt_sd_bus_ios_init(&info->bus.ios);
	info->bus.ceiling_mb_s = -1;
	sdt_kmsg_facts_init(&info->kernel_log);

	info->board = sdt_board_detect(ctx, info->warnings);

	info->mounts = sdt_mounts_load(ctx, &error_mounts);
	if (info->mounts == NULL) {
		sdt_info_warn(info,
			      g_strdup_printf(_("%s: which device holds the system is unknown"),
					      error_mounts->message));
		info->mounts =
			g_ptr_array_new_with_free_func((GDestroyNotify) sdt_mounts_entry_free);
	}
	info->card = sdt_card_detect(error_mounts == NULL ? info->mounts : NULL, info->warnings);

	sdt_info_collect_kernel_log(info, ctx);

	if (info->card->present && info->card->host != NULL) {
		if (!sdt_info_collect_ios(info, ctx)) {
			if (info->kernel_log_read)
				sdt_info_bus_from_kernel_log(info);
		}
		clock = info->bus.ios.actual_clock_hz >= 0 ? info->bus.ios.actual_clock_hz
							   : info->bus.ios.clock_hz;
		info->bus.ceiling_mb_s = sdt_sd_bus_ceiling_mb_s(clock,
								 info->bus.ios.bus_width,
								 info->bus.ios.timing);
	}
	info->bus.cqe = sdt_info_cqe_state(info);
	/* the sdhost divides the core clock: what it runs at now, where it can be read */
	if (sdt_board_get_controller(info->board) == SDT_SD_CONTROLLER_SDHOST)
		info->core_clock_hz = sdt_board_read_core_clock_hz(ctx, &info->core_clock_source);
	return g_steal_pointer(&info);
}

/* a value the document carries when @known, else unknown (null) */
#define SDT_INFO_INT(known, value) ((known) ? (gint64) (value) : SDT_INFO_REPORT_UNKNOWN)
#define SDT_INFO_FLAG(known, value)               \
	(!(known)  ? SDT_INFO_REPORT_FLAG_UNKNOWN \
	 : (value) ? SDT_INFO_REPORT_FLAG_YES     \
		   : SDT_INFO_REPORT_FLAG_NO)

static void
sdt_info_strings_copy(GPtrArray *to, gchar *const *strv)
{
	for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
		g_ptr_array_add(to, g_strdup(strv[i]));
}

static void
sdt_info_board_to_report(const SdtInfo *info, SdtInfoReportBoard *r)
{
	SdtBoard *board = info->board;
	const SdtBoardModel *model = board->info;

	r->model = g_strdup(board->model);
	r->key = g_strdup(sdt_board_get_key(board));
	r->revision = sdt_board_get_revision_string(board);
	r->type_code = SDT_INFO_INT(board->has_revision && board->revision.new_style,
				    board->revision.type_code);
	r->soc = g_strdup(board->soc);
	r->sd_controller =
		g_strdup(sdt_board_sd_controller_to_string(sdt_board_get_controller(board)));
	r->name = g_strdup(model != NULL ? model->name : NULL);
	r->filter = g_strdup(model != NULL ? model->filter : NULL);
	r->core_clock_hz = SDT_INFO_INT(model != NULL && model->core_clock_hz > 0,
					model != NULL ? model->core_clock_hz : 0);
	r->memory_mb = SDT_INFO_INT(board->has_revision && board->revision.memory_mb > 0,
				    board->revision.memory_mb);
	r->source = g_strdup(sdt_board_source_to_string(board->source));
	sdt_info_strings_copy(r->compatible, board->compatible);
}

/* the DESIGN.md members of "card": who made it and what it says it can do */
static void
sdt_info_card_identity_to_report(const SdtCard *card, SdtInfoReportCard *r)
{
	gboolean cid = card->present && card->cid_valid;
	gboolean scr = card->present && card->scr_valid;
	gboolean ssr = card->present && card->ssr_valid;
	gboolean emmc = card->kind == SDT_CARD_KIND_EMMC;
	/* the eMMC manufacturer ids are not the SD ones; its OID is a byte (card.emmc.oemid) */
	const gchar *maker = !cid   ? NULL
			     : emmc ? sdt_emmc_manufacturer_name(card->cid.manfid)
				    : sdt_card_regs_manufacturer_name(card->cid.manfid);

	r->present = card->present;
	r->device = g_strdup(card->device);
	r->manfid = SDT_INFO_INT(cid, card->cid.manfid);
	r->manufacturer = g_strdup(maker);
	r->oemid = g_strdup(cid && !emmc ? card->cid.oemid : NULL);
	r->name = g_strdup(cid ? card->cid.name : card->present ? card->sysfs_name : NULL);
	r->date = cid ? sdt_card_regs_cid_get_date(&card->cid) : NULL;
	r->capacity_bytes =
		SDT_INFO_INT(card->present && card->capacity_bytes >= 0, card->capacity_bytes);
	r->spec_version = g_strdup(scr ? sdt_card_regs_scr_get_spec_version(&card->scr) : NULL);
	r->speed_class = SDT_INFO_INT(ssr && card->ssr.speed_class >= 0, card->ssr.speed_class);
	r->uhs_grade = SDT_INFO_INT(ssr && card->ssr.uhs_grade >= 0, card->ssr.uhs_grade);
	r->video_class = SDT_INFO_INT(ssr && card->ssr.video_class >= 0, card->ssr.video_class);
	r->app_class = SDT_INFO_INT(ssr && card->ssr.app_class >= 0, card->ssr.app_class);
	r->cq_depth = SDT_INFO_INT(ssr, card->ssr.cq_depth);
	r->cache = SDT_INFO_FLAG(ssr, card->ssr.cache);
}

/* extras: where the card sits (host, driver, mounts) */
static void
sdt_info_card_place_to_report(const SdtCard *card, SdtInfoReportCard *r)
{
	r->type = g_strdup(card->type);
	r->kind = g_strdup(card->present ? sdt_card_kind_to_string(card->kind) : NULL);
	r->mmc_device = g_strdup(card->mmc_name);
	r->host = g_strdup(card->host);
	r->host_device = g_strdup(card->host_device);
	r->host_driver = g_strdup(card->host_driver);
	r->holds_system = SDT_INFO_FLAG(card->present && card->mounts_known, card->holds_system);
	r->system_device = g_strdup(card->system_device);
	for (guint i = 0; i < card->mount_points->len; i++)
		g_ptr_array_add(r->mount_points,
				g_strdup(g_ptr_array_index(card->mount_points, i)));
	r->size_bytes = SDT_INFO_INT(card->size_bytes >= 0, card->size_bytes);
}

/* extras: the register fields the DESIGN.md members leave out */
static void
sdt_info_card_registers_to_report(const SdtCard *card, SdtInfoReportCard *r)
{
	gboolean cid = card->present && card->cid_valid;
	gboolean csd = card->present && card->csd_valid;
	gboolean scr = card->present && card->scr_valid;
	gboolean ssr = card->present && card->ssr_valid;

	r->serial = cid ? g_strdup_printf("0x%08x", card->cid.serial) : NULL;
	r->hwrev = SDT_INFO_INT(cid, card->cid.hwrev);
	r->fwrev = SDT_INFO_INT(cid, card->cid.fwrev);
	r->csd_version = SDT_INFO_INT(csd, card->csd.structure + 1);
	r->max_dtr_hz = SDT_INFO_INT(csd && card->csd.max_dtr_hz > 0, card->csd.max_dtr_hz);
	r->cmd23 = SDT_INFO_FLAG(scr, card->scr.cmd23);
	r->cmd48 = SDT_INFO_FLAG(scr, card->scr.cmd48);
	r->performance_move = SDT_INFO_INT(ssr, card->ssr.performance_move);
	r->au_size_bytes =
		SDT_INFO_INT(ssr && card->ssr.au_size_bytes > 0, card->ssr.au_size_bytes);
	r->discard = SDT_INFO_FLAG(ssr, card->ssr.discard);
	r->card_maintenance = SDT_INFO_FLAG(ssr, card->ssr.card_maintenance);
	r->host_maintenance = SDT_INFO_FLAG(ssr, card->ssr.host_maintenance);
}

/* extras: the SD 4.x extension registers (performance, power), null when unread */
static void
sdt_info_card_extensions_to_report(const SdtCard *card, SdtInfoReportCard *r)
{
	r->ext_perf.present = card->present && card->ext_perf >= 0;
	if (r->ext_perf.present) {
		r->ext_perf.raw = card->ext_perf;
		r->ext_perf.cache = (card->ext_perf & SDT_EXT_PERF_CACHE) != 0;
		r->ext_perf.cmd_queue = (card->ext_perf & SDT_EXT_PERF_CMD_QUEUE) != 0;
		r->ext_perf.card_maintenance = (card->ext_perf & SDT_EXT_PERF_CARD_MAINT) != 0;
		r->ext_perf.host_maintenance = (card->ext_perf & SDT_EXT_PERF_HOST_MAINT) != 0;
	}
	r->ext_power.present = card->present && card->ext_power >= 0;
	if (r->ext_power.present) {
		r->ext_power.raw = card->ext_power;
		r->ext_power.power_off_notify = (card->ext_power & SDT_EXT_POWER_OFF_NOTIFY) != 0;
	}
	r->registers.cid = g_strdup(card->cid_hex);
	r->registers.csd = g_strdup(card->csd_hex);
	r->registers.scr = g_strdup(card->scr_hex);
	r->registers.ssr = g_strdup(card->ssr_hex);
	r->registers.ext_perf = g_strdup(card->ext_perf_hex);
	r->registers.ext_power = g_strdup(card->ext_power_hex);
}

/* one life-time estimate: the raw byte, its JEDEC meaning, the share of life used */
static void
sdt_info_emmc_life_to_report(gint value, SdtInfoReportLifeTime *r)
{
	gint lo = -1, hi = -1;
	gboolean range = sdt_emmc_life_time_range(value, &lo, &hi);

	r->value = SDT_INFO_INT(value >= 0, value);
	r->state = g_strdup(sdt_emmc_life_time_state_to_string(value));
	r->used_min_percent = SDT_INFO_INT(range, lo);
	r->used_max_percent = SDT_INFO_INT(range && hi >= 0, hi);
}

SdtInfoReportEmmc *
sdt_info_emmc_to_report(const SdtCard *card)
{
	SdtInfoReportEmmc *r;

	g_return_val_if_fail(card != NULL, NULL);
	if (!card->present || card->kind != SDT_CARD_KIND_EMMC)
		return NULL;
	r = sdt_info_report_emmc_new();
	r->wear = g_strdup(sdt_emmc_wear_level_to_string(sdt_emmc_wear_level(&card->emmc)));
	sdt_info_emmc_life_to_report(card->emmc.life_time_a, &r->life_time_a);
	sdt_info_emmc_life_to_report(card->emmc.life_time_b, &r->life_time_b);
	r->pre_eol = SDT_INFO_INT(card->emmc.pre_eol >= 0, card->emmc.pre_eol);
	r->pre_eol_state = g_strdup(sdt_emmc_pre_eol_to_string(card->emmc.pre_eol));
	r->ext_csd_rev = SDT_INFO_INT(card->emmc_ext_csd_rev >= 0, card->emmc_ext_csd_rev);
	r->oemid = SDT_INFO_INT(card->cid_valid, card->emmc_oemid);
	r->raw_life_time = g_strdup(card->life_time_text);
	r->raw_pre_eol_info = g_strdup(card->pre_eol_text);
	r->raw_rev = g_strdup(card->ext_csd_rev_text);
	return r;
}

static void
sdt_info_bus_to_report(const SdtInfo *info, SdtInfoReportBus *r)
{
	const SdtSdBusState *bus = &info->bus;

	r->clock_hz = SDT_INFO_INT(bus->ios.clock_hz >= 0, bus->ios.clock_hz);
	r->actual_clock_hz = SDT_INFO_INT(bus->ios.actual_clock_hz >= 0, bus->ios.actual_clock_hz);
	r->timing = g_strdup(sdt_sd_bus_timing_to_string(bus->ios.timing));
	r->bus_width = SDT_INFO_INT(bus->ios.bus_width > 0, bus->ios.bus_width);
	/* one decimal is all the precision a ceiling has */
	r->ceiling_mb_s = bus->ceiling_mb_s >= 0
				  ? (gdouble) (gint64) (bus->ceiling_mb_s * 10 + 0.5) / 10
				  : NAN;
	r->cqe = g_strdup(sdt_info_cqe_state_to_string(bus->cqe));
	/* extras; the kernel's ios file gives hundredths of a volt */
	r->signal_voltage = bus->ios.signal_voltage > 0
				    ? (gdouble) (gint64) (bus->ios.signal_voltage * 100 + 0.5) / 100
				    : NAN;
	r->timing_text = g_strdup(bus->ios.timing_text);
	r->source = g_strdup(sdt_sd_bus_source_to_string(bus->source));
}

static void
sdt_info_kernel_log_to_report(const SdtInfo *info, SdtInfoReportKernelLog *r)
{
	const SdtKmsgFacts *f = &info->kernel_log;
	gboolean read = info->kernel_log_read;

	r->read = read;
	r->overclock_hz = SDT_INFO_INT(read && f->overclock_hz >= 0, f->overclock_hz);
	r->overclock_current_hz =
		SDT_INFO_INT(read && f->overclock_current_hz >= 0, f->overclock_current_hz);
	r->overclock_reduced = SDT_INFO_INT(read, f->overclock_reduced);
	r->overclock_cancelled = SDT_INFO_FLAG(read, f->overclock_cancelled);
	r->cqe_enabled = SDT_INFO_FLAG(read, f->cqe_enabled && !f->cmdq_failed);
	r->cqe_tags = SDT_INFO_INT(read && f->cqe_tags >= 0, f->cqe_tags);
	r->host_software_queue = SDT_INFO_FLAG(read, f->host_software_queue);
	r->cmdq_failed = SDT_INFO_FLAG(read, f->cmdq_failed);
	r->cqe_recovery = SDT_INFO_INT(read, f->cqe_recovery);
	r->quirks = f->quirks >= 0 ? g_strdup_printf("0x%08x", (guint) f->quirks) : NULL;
	r->card_timing =
		g_strdup(read && f->card_seen ? sdt_sd_bus_timing_to_string(f->card_timing) : NULL);
	r->card_type = g_strdup(f->card_type);
}

SdtInfoReport *
sdt_info_to_report(const SdtInfo *info)
{
	SdtInfoReport *r;

	g_return_val_if_fail(info != NULL, NULL);
	r = sdt_info_report_new();
	sdt_info_board_to_report(info, &r->board);
	sdt_info_card_identity_to_report(info->card, &r->card);
	sdt_info_card_place_to_report(info->card, &r->card);
	sdt_info_card_registers_to_report(info->card, &r->card);
	sdt_info_card_extensions_to_report(info->card, &r->card);
	r->card.emmc = sdt_info_emmc_to_report(info->card);
	sdt_info_bus_to_report(info, &r->bus);
	sdt_info_kernel_log_to_report(info, &r->kernel_log);
	r->simulated = info->simulated;
	for (guint i = 0; i < info->warnings->len; i++)
		g_ptr_array_add(r->warnings, g_strdup(g_ptr_array_index(info->warnings, i)));
	return r;
}
