/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>

#include "sdt-error.h"
#include "sdt-info.h"
#include "sdt-json.h"
#include "sdt-mounts.h"

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
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_autoptr(SdtInfo) info = g_new0(SdtInfo, 1);
	g_autoptr(GError) error_mounts = NULL;
	gint64 clock;

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

static void
sdt_info_board_to_json(SdtInfo *info, JsonBuilder *b)
{
	SdtBoard *board = info->board;
	const SdtBoardModel *model = board->info;
	g_autofree gchar *revision = sdt_board_get_revision_string(board);

	json_builder_set_member_name(b, "board");
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, "model", board->model);
	sdt_json_string_or_null(b, "key", sdt_board_get_key(board));
	sdt_json_string_or_null(b, "revision", revision);
	sdt_json_int_or_null(b,
			     "type_code",
			     board->has_revision && board->revision.new_style,
			     board->revision.type_code);
	sdt_json_string_or_null(b, "soc", board->soc);
	sdt_json_string_or_null(b,
				"sd_controller",
				sdt_board_sd_controller_to_string(sdt_board_get_controller(board)));
	/* extras */
	sdt_json_string_or_null(b, "name", model != NULL ? model->name : NULL);
	sdt_json_string_or_null(b, "filter", model != NULL ? model->filter : NULL);
	sdt_json_int_or_null(b,
			     "core_clock_hz",
			     model != NULL && model->core_clock_hz > 0,
			     model != NULL ? model->core_clock_hz : 0);
	sdt_json_int_or_null(b,
			     "memory_mb",
			     board->has_revision && board->revision.memory_mb > 0,
			     board->revision.memory_mb);
	sdt_json_string_or_null(b, "source", sdt_board_source_to_string(board->source));
	json_builder_set_member_name(b, "compatible");
	json_builder_begin_array(b);
	for (guint i = 0; board->compatible != NULL && board->compatible[i] != NULL; i++)
		json_builder_add_string_value(b, board->compatible[i]);
	json_builder_end_array(b);
	json_builder_end_object(b);
}

/* the DESIGN.md members of "card": who made it and what it says it can do */
static void
sdt_info_card_identity_to_json(SdtCard *card, JsonBuilder *b)
{
	gboolean cid = card->present && card->cid_valid;
	gboolean scr = card->present && card->scr_valid;
	gboolean ssr = card->present && card->ssr_valid;
	gboolean emmc = card->kind == SDT_CARD_KIND_EMMC;
	g_autofree gchar *date = cid ? sdt_card_regs_cid_get_date(&card->cid) : NULL;
	const gchar *name = cid ? card->cid.name : card->present ? card->sysfs_name : NULL;
	/* the eMMC manufacturer ids are not the SD ones; its OID is a byte (card.emmc.oemid) */
	const gchar *maker = !cid   ? NULL
			     : emmc ? sdt_emmc_manufacturer_name(card->cid.manfid)
				    : sdt_card_regs_manufacturer_name(card->cid.manfid);

	json_builder_set_member_name(b, "present");
	json_builder_add_boolean_value(b, card->present);
	sdt_json_string_or_null(b, "device", card->device);
	sdt_json_int_or_null(b, "manfid", cid, card->cid.manfid);
	sdt_json_string_or_null(b, "manufacturer", maker);
	sdt_json_string_or_null(b, "oemid", cid && !emmc ? card->cid.oemid : NULL);
	sdt_json_string_or_null(b, "name", name);
	sdt_json_string_or_null(b, "date", date);
	sdt_json_int_or_null(b,
			     "capacity_bytes",
			     card->present && card->capacity_bytes >= 0,
			     card->capacity_bytes);
	sdt_json_string_or_null(b,
				"spec_version",
				scr ? sdt_card_regs_scr_get_spec_version(&card->scr) : NULL);
	sdt_json_int_or_null(b,
			     "speed_class",
			     ssr && card->ssr.speed_class >= 0,
			     card->ssr.speed_class);
	sdt_json_int_or_null(b, "uhs_grade", ssr && card->ssr.uhs_grade >= 0, card->ssr.uhs_grade);
	sdt_json_int_or_null(b,
			     "video_class",
			     ssr && card->ssr.video_class >= 0,
			     card->ssr.video_class);
	sdt_json_int_or_null(b, "app_class", ssr && card->ssr.app_class >= 0, card->ssr.app_class);
	sdt_json_int_or_null(b, "cq_depth", ssr, card->ssr.cq_depth);
	sdt_json_bool_or_null(b, "cache", ssr, card->ssr.cache);
}

/* extras: where the card sits (host, driver, mounts) */
static void
sdt_info_card_place_to_json(SdtCard *card, JsonBuilder *b)
{
	sdt_json_string_or_null(b, "type", card->type);
	sdt_json_string_or_null(b,
				"kind",
				card->present ? sdt_card_kind_to_string(card->kind) : NULL);
	sdt_json_string_or_null(b, "mmc_device", card->mmc_name);
	sdt_json_string_or_null(b, "host", card->host);
	sdt_json_string_or_null(b, "host_device", card->host_device);
	sdt_json_string_or_null(b, "host_driver", card->host_driver);
	sdt_json_bool_or_null(b,
			      "holds_system",
			      card->present && card->mounts_known,
			      card->holds_system);
	sdt_json_string_or_null(b, "system_device", card->system_device);
	json_builder_set_member_name(b, "mount_points");
	json_builder_begin_array(b);
	for (guint i = 0; i < card->mount_points->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(card->mount_points, i));
	json_builder_end_array(b);
	sdt_json_int_or_null(b, "size_bytes", card->size_bytes >= 0, card->size_bytes);
}

/* extras: the register fields the DESIGN.md members leave out */
static void
sdt_info_card_registers_to_json(SdtCard *card, JsonBuilder *b)
{
	gboolean cid = card->present && card->cid_valid;
	gboolean scr = card->present && card->scr_valid;
	gboolean ssr = card->present && card->ssr_valid;
	g_autofree gchar *serial = cid ? g_strdup_printf("0x%08x", card->cid.serial) : NULL;

	sdt_json_string_or_null(b, "serial", serial);
	sdt_json_int_or_null(b, "hwrev", cid, card->cid.hwrev);
	sdt_json_int_or_null(b, "fwrev", cid, card->cid.fwrev);
	sdt_json_int_or_null(b,
			     "csd_version",
			     card->present && card->csd_valid,
			     card->csd.structure + 1);
	sdt_json_int_or_null(b,
			     "max_dtr_hz",
			     card->present && card->csd_valid && card->csd.max_dtr_hz > 0,
			     card->csd.max_dtr_hz);
	sdt_json_bool_or_null(b, "cmd23", scr, card->scr.cmd23);
	sdt_json_bool_or_null(b, "cmd48", scr, card->scr.cmd48);
	sdt_json_int_or_null(b, "performance_move", ssr, card->ssr.performance_move);
	sdt_json_int_or_null(b,
			     "au_size_bytes",
			     ssr && card->ssr.au_size_bytes > 0,
			     card->ssr.au_size_bytes);
	sdt_json_bool_or_null(b, "discard", ssr, card->ssr.discard);
	sdt_json_bool_or_null(b, "card_maintenance", ssr, card->ssr.card_maintenance);
	sdt_json_bool_or_null(b, "host_maintenance", ssr, card->ssr.host_maintenance);
}

static void
sdt_json_flag(JsonBuilder *b, const gchar *name, gboolean value)
{
	json_builder_set_member_name(b, name);
	json_builder_add_boolean_value(b, value);
}

/* extras: the SD 4.x extension registers (performance, power), null when unread */
static void
sdt_info_card_extensions_to_json(SdtCard *card, JsonBuilder *b)
{
	json_builder_set_member_name(b, "ext_perf");
	if (card->present && card->ext_perf >= 0) {
		json_builder_begin_object(b);
		json_builder_set_member_name(b, "raw");
		json_builder_add_int_value(b, card->ext_perf);
		sdt_json_flag(b, "cache", card->ext_perf & SDT_EXT_PERF_CACHE);
		sdt_json_flag(b, "cmd_queue", card->ext_perf & SDT_EXT_PERF_CMD_QUEUE);
		sdt_json_flag(b, "card_maintenance", card->ext_perf & SDT_EXT_PERF_CARD_MAINT);
		sdt_json_flag(b, "host_maintenance", card->ext_perf & SDT_EXT_PERF_HOST_MAINT);
		json_builder_end_object(b);
	} else {
		json_builder_add_null_value(b);
	}
	json_builder_set_member_name(b, "ext_power");
	if (card->present && card->ext_power >= 0) {
		json_builder_begin_object(b);
		json_builder_set_member_name(b, "raw");
		json_builder_add_int_value(b, card->ext_power);
		sdt_json_flag(b, "power_off_notify", card->ext_power & SDT_EXT_POWER_OFF_NOTIFY);
		json_builder_end_object(b);
	} else {
		json_builder_add_null_value(b);
	}
	json_builder_set_member_name(b, "registers");
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, "cid", card->cid_hex);
	sdt_json_string_or_null(b, "csd", card->csd_hex);
	sdt_json_string_or_null(b, "scr", card->scr_hex);
	sdt_json_string_or_null(b, "ssr", card->ssr_hex);
	sdt_json_string_or_null(b, "ext_perf", card->ext_perf_hex);
	sdt_json_string_or_null(b, "ext_power", card->ext_power_hex);
	json_builder_end_object(b);
}

/* one life-time estimate: the raw byte, its JEDEC meaning, the share of life used */
static void
sdt_info_emmc_life_to_json(JsonBuilder *b, const gchar *member, gint value)
{
	gint lo = -1, hi = -1;
	gboolean range = sdt_emmc_life_time_range(value, &lo, &hi);

	json_builder_set_member_name(b, member);
	json_builder_begin_object(b);
	sdt_json_int_or_null(b, "value", value >= 0, value);
	sdt_json_string_or_null(b, "state", sdt_emmc_life_time_state_to_string(value));
	sdt_json_int_or_null(b, "used_min_percent", range, lo);
	sdt_json_int_or_null(b, "used_max_percent", range && hi >= 0, hi);
	json_builder_end_object(b);
}

void
sdt_info_emmc_to_json(const SdtCard *card, JsonBuilder *b)
{
	json_builder_set_member_name(b, "emmc");
	if (!card->present || card->kind != SDT_CARD_KIND_EMMC) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "wear");
	json_builder_add_string_value(
		b,
		sdt_emmc_wear_level_to_string(sdt_emmc_wear_level(&card->emmc)));
	sdt_info_emmc_life_to_json(b, "life_time_a", card->emmc.life_time_a);
	sdt_info_emmc_life_to_json(b, "life_time_b", card->emmc.life_time_b);
	json_builder_set_member_name(b, "pre_eol");
	json_builder_begin_object(b);
	sdt_json_int_or_null(b, "value", card->emmc.pre_eol >= 0, card->emmc.pre_eol);
	sdt_json_string_or_null(b, "state", sdt_emmc_pre_eol_to_string(card->emmc.pre_eol));
	json_builder_end_object(b);
	sdt_json_int_or_null(b, "ext_csd_rev", card->emmc_ext_csd_rev >= 0, card->emmc_ext_csd_rev);
	sdt_json_int_or_null(b, "oemid", card->cid_valid, card->emmc_oemid);
	json_builder_set_member_name(b, "raw");
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, "life_time", card->life_time_text);
	sdt_json_string_or_null(b, "pre_eol_info", card->pre_eol_text);
	sdt_json_string_or_null(b, "rev", card->ext_csd_rev_text);
	json_builder_end_object(b);
	json_builder_end_object(b);
}

static void
sdt_info_card_to_json(SdtInfo *info, JsonBuilder *b)
{
	json_builder_set_member_name(b, "card");
	json_builder_begin_object(b);
	sdt_info_card_identity_to_json(info->card, b);
	sdt_info_card_place_to_json(info->card, b);
	sdt_info_card_registers_to_json(info->card, b);
	sdt_info_card_extensions_to_json(info->card, b);
	sdt_info_emmc_to_json(info->card, b);
	json_builder_end_object(b);
}

static void
sdt_info_bus_to_json(SdtInfo *info, JsonBuilder *b)
{
	SdtSdBusState *bus = &info->bus;
	/* one decimal is all the precision a ceiling has */
	gdouble ceiling = (gdouble) (gint64) (bus->ceiling_mb_s * 10 + 0.5) / 10;

	json_builder_set_member_name(b, "bus");
	json_builder_begin_object(b);
	sdt_json_int_or_null(b, "clock_hz", bus->ios.clock_hz >= 0, bus->ios.clock_hz);
	sdt_json_int_or_null(b,
			     "actual_clock_hz",
			     bus->ios.actual_clock_hz >= 0,
			     bus->ios.actual_clock_hz);
	sdt_json_string_or_null(b, "timing", sdt_sd_bus_timing_to_string(bus->ios.timing));
	sdt_json_int_or_null(b, "bus_width", bus->ios.bus_width > 0, bus->ios.bus_width);
	sdt_json_double_or_null(b, "ceiling_mb_s", bus->ceiling_mb_s >= 0, ceiling);
	sdt_json_string_or_null(b, "cqe", sdt_info_cqe_state_to_string(bus->cqe));
	/* extras */
	/* the kernel's ios file gives hundredths of a volt */
	sdt_json_double_or_null(b,
				"signal_voltage",
				bus->ios.signal_voltage > 0,
				(gdouble) (gint64) (bus->ios.signal_voltage * 100 + 0.5) / 100);
	sdt_json_string_or_null(b, "timing_text", bus->ios.timing_text);
	sdt_json_string_or_null(b, "source", sdt_sd_bus_source_to_string(bus->source));
	json_builder_end_object(b);
}

static void
sdt_info_kernel_log_to_json(SdtInfo *info, JsonBuilder *b)
{
	SdtKmsgFacts *f = &info->kernel_log;
	gboolean read = info->kernel_log_read;
	g_autofree gchar *quirks =
		f->quirks >= 0 ? g_strdup_printf("0x%08x", (guint) f->quirks) : NULL;

	json_builder_set_member_name(b, "kernel_log");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "read");
	json_builder_add_boolean_value(b, read);
	sdt_json_int_or_null(b, "overclock_hz", read && f->overclock_hz >= 0, f->overclock_hz);
	sdt_json_int_or_null(b,
			     "overclock_current_hz",
			     read && f->overclock_current_hz >= 0,
			     f->overclock_current_hz);
	sdt_json_int_or_null(b, "overclock_reduced", read, f->overclock_reduced);
	sdt_json_bool_or_null(b, "overclock_cancelled", read, f->overclock_cancelled);
	sdt_json_bool_or_null(b, "cqe_enabled", read, f->cqe_enabled && !f->cmdq_failed);
	sdt_json_int_or_null(b, "cqe_tags", read && f->cqe_tags >= 0, f->cqe_tags);
	sdt_json_bool_or_null(b, "host_software_queue", read, f->host_software_queue);
	sdt_json_bool_or_null(b, "cmdq_failed", read, f->cmdq_failed);
	sdt_json_int_or_null(b, "cqe_recovery", read, f->cqe_recovery);
	sdt_json_string_or_null(b, "quirks", quirks);
	sdt_json_string_or_null(b,
				"card_timing",
				read && f->card_seen ? sdt_sd_bus_timing_to_string(f->card_timing)
						     : NULL);
	sdt_json_string_or_null(b, "card_type", f->card_type);
	json_builder_end_object(b);
}

JsonNode *
sdt_info_to_json(SdtInfo *info)
{
	g_autoptr(JsonBuilder) b = json_builder_new();

	json_builder_begin_object(b);
	sdt_info_board_to_json(info, b);
	sdt_info_card_to_json(info, b);
	sdt_info_bus_to_json(info, b);
	sdt_info_kernel_log_to_json(info, b);
	json_builder_set_member_name(b, "simulated");
	json_builder_add_boolean_value(b, info->simulated);
	json_builder_set_member_name(b, "warnings");
	json_builder_begin_array(b);
	for (guint i = 0; i < info->warnings->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(info->warnings, i));
	json_builder_end_array(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}
