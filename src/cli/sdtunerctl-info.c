/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-cli-ops.h"
#include "sdt-error.h"
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

static gboolean
sdt_cli_info_has(JsonObject *obj, const gchar *name)
{
	return obj != NULL && json_object_has_member(obj, name) &&
	       !json_object_get_null_member(obj, name);
}

static const gchar *
sdt_cli_info_str(JsonObject *obj, const gchar *name)
{
	if (!sdt_cli_info_has(obj, name))
		return NULL;
	return json_object_get_string_member(obj, name);
}

static gchar *
sdt_cli_info_mhz(gint64 hz)
{
	/* Translators: a clock frequency */
	return g_strdup_printf(_("%.2f MHz"), (gdouble) hz / 1e6);
}

/* "C10", "U3", "V30", "A2"; "none" for 0, "unknown" for null */
static gchar *
sdt_cli_info_class(JsonObject *card, const gchar *name, const gchar *prefix)
{
	gint64 value;

	if (!sdt_cli_info_has(card, name))
		return g_strdup(_("unknown"));
	value = json_object_get_int_member(card, name);
	if (value == 0)
		return g_strdup(_("none"));
	return g_strdup_printf("%s%" G_GINT64_FORMAT, prefix, value);
}

static void
sdt_cli_info_format_board(GString *out, JsonObject *board)
{
	const gchar *model = sdt_cli_info_str(board, "model");
	const gchar *name = sdt_cli_info_str(board, "name");
	const gchar *revision = sdt_cli_info_str(board, "revision");
	const gchar *soc = sdt_cli_info_str(board, "soc");
	const gchar *controller = sdt_cli_info_str(board, "sd_controller");
	g_autofree gchar *key = NULL;
	g_autofree gchar *ctrl = NULL;

	g_string_append_printf(out, "%s\n", _("Board"));
	sdt_cli_info_row(out, _("Model"), model != NULL ? model : _("unknown"));
	if (name != NULL && g_strcmp0(name, sdt_cli_info_str(board, "key")) != 0)
		key = g_strdup_printf("%s (%s)", sdt_cli_info_str(board, "key"), name);
	else
		key = g_strdup(sdt_cli_info_str(board, "key"));
	sdt_cli_info_row(out, _("Board key"), key);
	if (revision != NULL && sdt_cli_info_has(board, "type_code")) {
		g_autofree gchar *rev =
			/* Translators: the revision code, then the board type in hex */
			g_strdup_printf(_("%s (type 0x%02x)"),
					revision,
					(guint) json_object_get_int_member(board, "type_code"));
		sdt_cli_info_row(out, _("Revision"), rev);
	} else {
		sdt_cli_info_row(out, _("Revision"), revision != NULL ? revision : _("none"));
	}
	sdt_cli_info_row(out, _("SoC"), soc != NULL ? soc : _("unknown"));
	if (sdt_cli_info_has(board, "core_clock_hz")) {
		g_autofree gchar *core =
			sdt_cli_info_mhz(json_object_get_int_member(board, "core_clock_hz"));
		/* Translators: the SD controller and the board's default core clock */
		ctrl = g_strdup_printf(_("%s (default core clock %s)"), controller, core);
	} else {
		ctrl = g_strdup(controller);
	}
	sdt_cli_info_row(out, _("SD controller"), ctrl);
	if (sdt_cli_info_has(board, "filter"))
		sdt_cli_info_row(out, _("config.txt filter"), sdt_cli_info_str(board, "filter"));
}

/* what Linux found out through CMD48 (ext_perf, ext_power), when the kernel shows it */
static void
sdt_cli_info_format_kernel_view(GString *out, JsonObject *card)
{
	JsonObject *perf = sdt_cli_info_has(card, "ext_perf")
				   ? json_object_get_object_member(card, "ext_perf")
				   : NULL;
	JsonObject *power = sdt_cli_info_has(card, "ext_power")
				    ? json_object_get_object_member(card, "ext_power")
				    : NULL;
	g_autoptr(GPtrArray) parts = g_ptr_array_new();
	g_autofree gchar *joined = NULL;

	if (perf == NULL && power == NULL)
		return;
	if (perf != NULL && json_object_get_boolean_member(perf, "cache"))
		g_ptr_array_add(parts, (gpointer) _("cache"));
	if (perf != NULL && json_object_get_boolean_member(perf, "cmd_queue"))
		g_ptr_array_add(parts, (gpointer) _("command queue"));
	if (power != NULL && json_object_get_boolean_member(power, "power_off_notify"))
		g_ptr_array_add(parts, (gpointer) _("power-off notification"));
	if (parts->len == 0)
		g_ptr_array_add(parts, (gpointer) _("no extensions"));
	g_ptr_array_add(parts, NULL);
	joined = g_strjoinv(", ", (gchar **) parts->pdata);
	sdt_cli_info_row(out, _("Linux detected"), joined);
}

/* which device, made by whom, when */
static void
sdt_cli_info_format_card_identity(GString *out, JsonObject *card)
{
	const gchar *host_device = sdt_cli_info_str(card, "host_device");
	const gchar *host_driver = sdt_cli_info_str(card, "host_driver");
	const gchar *manufacturer = sdt_cli_info_str(card, "manufacturer");
	g_autofree gchar *device = NULL;
	g_autofree gchar *maker = NULL;

	/* Translators: block device, mmc device, controller, driver:
	 * "mmcblk0 (mmc0:0001 on 3f202000.mmc, driver sdhost-bcm2835)" */
	device = g_strdup_printf(_("%1$s (%2$s on %3$s, driver %4$s)"),
				 sdt_cli_info_str(card, "device") != NULL
					 ? sdt_cli_info_str(card, "device")
					 : _("no block device"),
				 sdt_cli_info_str(card, "mmc_device"),
				 host_device != NULL ? host_device : _("unknown controller"),
				 host_driver != NULL ? host_driver : _("none"));
	sdt_cli_info_row(out, _("Device"), device);
	if (sdt_cli_info_has(card, "manfid")) {
		/* Translators: the maker is a guess from the manufacturer id (PLATFORM.md §8) */
		g_autofree gchar *likely = manufacturer != NULL
						   ? g_strdup_printf(_("likely %s"), manufacturer)
						   : g_strdup(_("not in the table"));
		/* Translators: likely maker, manufacturer id, OEM id */
		maker = g_strdup_printf(_("%s (manufacturer id 0x%02x, OEM “%s”)"),
					likely,
					(guint) json_object_get_int_member(card, "manfid"),
					sdt_cli_info_str(card, "oemid"));
		sdt_cli_info_row(out, _("Maker"), maker);
	} else {
		sdt_cli_info_row(out, _("Maker"), _("unknown"));
	}
	sdt_cli_info_row(out,
			 _("Name"),
			 sdt_cli_info_str(card, "name") != NULL ? sdt_cli_info_str(card, "name")
								: _("unknown"));
	if (sdt_cli_info_has(card, "serial"))
		sdt_cli_info_row(out, _("Serial"), sdt_cli_info_str(card, "serial"));
	{
		g_autofree gchar *date = sdt_l10n_month(sdt_cli_info_str(card, "date"));
		sdt_cli_info_row(out, _("Date"), date != NULL ? date : _("unknown"));
	}
}

static void
sdt_cli_info_format_card_capacity(GString *out, JsonObject *card)
{
	if (sdt_cli_info_has(card, "capacity_bytes")) {
		gint64 bytes = json_object_get_int_member(card, "capacity_bytes");
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
sdt_cli_info_format_card_features(GString *out, JsonObject *card)
{
	const gchar *spec = sdt_cli_info_str(card, "spec_version");
	g_autofree gchar *speed = sdt_cli_info_class(card, "speed_class", "C");
	g_autofree gchar *uhs = sdt_cli_info_class(card, "uhs_grade", "U");
	g_autofree gchar *video = sdt_cli_info_class(card, "video_class", "V");
	g_autofree gchar *app = sdt_cli_info_class(card, "app_class", "A");
	g_autofree gchar *cq = NULL;

	sdt_cli_info_row(out, _("SD spec"), spec != NULL ? spec : _("unknown"));
	sdt_cli_info_row(out, _("Speed class"), speed);
	sdt_cli_info_row(out, _("UHS grade"), uhs);
	sdt_cli_info_row(out, _("Video class"), video);
	sdt_cli_info_row(out, _("App class"), app);
	if (!sdt_cli_info_has(card, "cq_depth"))
		cq = g_strdup(_("unknown"));
	else if (json_object_get_int_member(card, "cq_depth") == 0)
		cq = g_strdup(_("not supported"));
	else
		cq = g_strdup_printf(_("card supports depth %d"),
				     (gint) json_object_get_int_member(card, "cq_depth"));
	sdt_cli_info_row(out, _("Command queue"), cq);
	if (!sdt_cli_info_has(card, "cache"))
		sdt_cli_info_row(out, _("Cache"), _("unknown"));
	else
		sdt_cli_info_row(out,
				 _("Cache"),
				 json_object_get_boolean_member(card, "cache")
					 ? _("card supports a cache")
					 : _("not supported"));
}

/* CMD48, and whether the running system is on the card */
static void
sdt_cli_info_format_card_system(GString *out, JsonObject *card)
{
	g_autofree gchar *system = NULL;

	if (sdt_cli_info_has(card, "cmd48"))
		sdt_cli_info_row(out,
				 _("CMD48 (ext. regs)"),
				 json_object_get_boolean_member(card, "cmd48") ? _("yes")
									       : _("no"));
	if (!sdt_cli_info_has(card, "holds_system")) {
		system = g_strdup(_("unknown"));
	} else if (json_object_get_boolean_member(card, "holds_system")) {
		JsonArray *mps = json_object_get_array_member(card, "mount_points");
		g_autoptr(GString) list = g_string_new(NULL);
		for (guint i = 0; mps != NULL && i < json_array_get_length(mps); i++) {
			if (i > 0)
				g_string_append(list, ", ");
			g_string_append(list, json_array_get_string_element(mps, i));
		}
		system = g_strdup_printf(_("yes, mounted at %s"), list->str);
	} else {
		system = g_strdup(_("no"));
	}
	sdt_cli_info_row(out, _("System on card"), system);
}

static void
sdt_cli_info_format_card(GString *out, JsonObject *card)
{
	g_string_append_printf(out, "\n%s\n", _("SD card"));
	if (!json_object_get_boolean_member(card, "present")) {
		sdt_cli_info_row(out, _("Card"), _("none found"));
		return;
	}
	sdt_cli_info_format_card_identity(out, card);
	sdt_cli_info_format_card_capacity(out, card);
	sdt_cli_info_format_card_features(out, card);
	sdt_cli_info_format_kernel_view(out, card);
	sdt_cli_info_format_card_system(out, card);
}

static void
sdt_cli_info_format_bus(GString *out, JsonObject *bus)
{
	g_autofree gchar *clock = NULL;
	g_autofree gchar *width = NULL;
	g_autofree gchar *ceiling = NULL;
	g_autofree gchar *volts = NULL;
	const gchar *source = sdt_cli_info_str(bus, "source");

	g_string_append_printf(out, "\n%s\n", _("Bus"));
	if (sdt_cli_info_has(bus, "clock_hz") || sdt_cli_info_has(bus, "actual_clock_hz")) {
		g_autofree gchar *req =
			sdt_cli_info_has(bus, "clock_hz")
				? sdt_cli_info_mhz(json_object_get_int_member(bus, "clock_hz"))
				: g_strdup(_("unknown"));
		g_autofree gchar *act =
			sdt_cli_info_has(bus, "actual_clock_hz")
				? sdt_cli_info_mhz(
					  json_object_get_int_member(bus, "actual_clock_hz"))
				: g_strdup(_("unknown"));
		/* Translators: requested and actual SD clock */
		clock = g_strdup_printf(_("%s actual (%s requested)"), act, req);
	} else {
		clock = g_strdup(_("unknown"));
	}
	sdt_cli_info_row(out, _("Clock"), clock);
	sdt_cli_info_row(out, _("Timing"), sdt_l10n_timing(sdt_cli_info_str(bus, "timing")));
	if (sdt_cli_info_has(bus, "bus_width"))
		width = g_strdup_printf(
			ngettext("%d bit",
				 "%d bits",
				 (gulong) json_object_get_int_member(bus, "bus_width")),
			(gint) json_object_get_int_member(bus, "bus_width"));
	sdt_cli_info_row(out, _("Bus width"), width != NULL ? width : _("unknown"));
	if (sdt_cli_info_has(bus, "signal_voltage"))
		volts = g_strdup_printf(_("%.2f V"),
					json_object_get_double_member(bus, "signal_voltage"));
	sdt_cli_info_row(out, _("Signal voltage"), volts != NULL ? volts : _("unknown"));
	if (sdt_cli_info_has(bus, "ceiling_mb_s"))
		/* Translators: MB/s means 10^6 bytes per second */
		ceiling = g_strdup_printf(_("%.1f MB/s (10^6 bytes/s, from clock × width)"),
					  json_object_get_double_member(bus, "ceiling_mb_s"));
	sdt_cli_info_row(out, _("Bus ceiling"), ceiling != NULL ? ceiling : _("unknown"));
	sdt_cli_info_row(out, _("Command queueing"), sdt_l10n_cqe(sdt_cli_info_str(bus, "cqe")));
	if (g_strcmp0(source, "kernel-log") == 0)
		sdt_cli_info_row(out, _("Source"), _("kernel log (debugfs not available)"));
}

static void
sdt_cli_info_format_kernel_log(GString *out, JsonObject *klog)
{
	g_autofree gchar *oc = NULL;

	if (klog == NULL || !json_object_get_boolean_member(klog, "read"))
		return;
	g_string_append_printf(out, "\n%s\n", _("Kernel log"));
	if (sdt_cli_info_has(klog, "overclock_hz")) {
		g_autofree gchar *mhz =
			sdt_cli_info_mhz(json_object_get_int_member(klog, "overclock_hz"));
		gint reduced = (gint) json_object_get_int_member(klog, "overclock_reduced");

		if (json_object_get_boolean_member(klog, "overclock_cancelled"))
			/* Translators: the overclock (e.g. "100.00 MHz"), how often the driver
			 * lowered it after errors, and that it then gave up overclocking */
			oc = g_strdup_printf(ngettext("%1$s, reduced %2$d time, then cancelled",
						      "%1$s, reduced %2$d times, then cancelled",
						      (gulong) reduced),
					     mhz,
					     reduced);
		else
			/* Translators: the overclock (e.g. "100.00 MHz") and how often the
			 * driver lowered it after errors */
			oc = g_strdup_printf(ngettext("%1$s, reduced %2$d time",
						      "%1$s, reduced %2$d times",
						      (gulong) reduced),
					     mhz,
					     reduced);
	}
	sdt_cli_info_row(out, _("SD overclock"), oc != NULL ? oc : _("none"));
	if (json_object_get_boolean_member(klog, "cqe_enabled")) {
		g_autofree gchar *cqe = NULL;
		if (sdt_cli_info_has(klog, "cqe_tags"))
			cqe = g_strdup_printf(
				ngettext("enabled, %d tag",
					 "enabled, %d tags",
					 (gulong) json_object_get_int_member(klog, "cqe_tags")),
				(gint) json_object_get_int_member(klog, "cqe_tags"));
		else
			cqe = g_strdup(_("enabled"));
		sdt_cli_info_row(out, _("CQ engine"), cqe);
	} else if (json_object_get_boolean_member(klog, "host_software_queue")) {
		sdt_cli_info_row(out, _("CQ engine"), _("host software queue (card not queued)"));
	}
	if (json_object_get_int_member(klog, "cqe_recovery") > 0) {
		g_autofree gchar *rec =
			g_strdup_printf("%" G_GINT64_FORMAT,
					json_object_get_int_member(klog, "cqe_recovery"));
		sdt_cli_info_row(out, _("CQE recoveries"), rec);
	}
	if (sdt_cli_info_has(klog, "quirks"))
		sdt_cli_info_row(out, _("mmcblk quirks"), sdt_cli_info_str(klog, "quirks"));
}

static void
sdt_cli_info_format_config(GString *out, JsonObject *config)
{
	JsonArray *settings;
	guint n;

	if (config == NULL)
		return;
	g_string_append_printf(out, "\n%s\n", _("Boot configuration"));
	if (sdt_cli_info_has(config, "error")) {
		sdt_cli_info_row(out,
				 _("config.txt"),
				 sdt_l10n_tr(sdt_cli_info_str(config, "error")));
		return;
	}
	sdt_cli_info_row(out,
			 _("config.txt"),
			 sdt_cli_info_has(config, "path") ? sdt_cli_info_str(config, "path")
							  : _("unknown"));
	sdt_cli_info_row(out,
			 _("SD Tuner block"),
			 sdt_cli_info_has(config, "managed_block")
				 ? sdt_cli_info_str(config, "managed_block")
				 : _("none"));
	settings = sdt_cli_info_has(config, "sd_settings")
			   ? json_object_get_array_member(config, "sd_settings")
			   : NULL;
	n = settings != NULL ? json_array_get_length(settings) : 0;
	if (n == 0) {
		sdt_cli_info_row(out, _("SD settings"), _("none: the firmware defaults apply"));
		return;
	}
	for (guint i = 0; i < n; i++) {
		JsonObject *s = json_array_get_object_element(settings, i);
		g_autofree gchar *label = NULL;
		g_autofree gchar *value = NULL;

		if (s == NULL)
			continue;
		/* Translators: "line 12" of config.txt */
		label = g_strdup_printf(_("line %d"), (gint) json_object_get_int_member(s, "line"));
		value = g_strdup_printf(
			/* Translators: the config.txt line, its filter section, whether it
			 * applies to this board, and who wrote it */
			_("%s  %s, %s, %s"),
			sdt_cli_info_str(s, "text"),
			sdt_cli_info_has(s, "filter") ? sdt_cli_info_str(s, "filter") : "[all]",
			json_object_get_boolean_member(s, "applies") ? _("applies to this board")
								     : _("not for this board"),
			json_object_get_boolean_member(s, "managed") ? _("written by SD Tuner")
								     : _("written by hand"));
		sdt_cli_info_row(out, label, value);
		if (sdt_cli_info_has(s, "warning")) {
			g_autofree gchar *warn =
				g_strdup_printf(_("warning: %s"), sdt_cli_info_str(s, "warning"));
			sdt_cli_info_row(out, "", warn);
		}
	}
}

static gchar *
sdt_cli_info_format(JsonObject *info)
{
	g_autoptr(GString) out = g_string_new(NULL);
	JsonArray *warnings = json_object_get_array_member(info, "warnings");

	if (json_object_get_boolean_member(info, "simulated"))
		g_string_append_printf(out,
				       "%s\n\n",
				       _("SIMULATED: this is read from a test root, not from the "
					 "hardware of this machine"));
	sdt_cli_info_format_board(out, json_object_get_object_member(info, "board"));
	sdt_cli_info_format_card(out, json_object_get_object_member(info, "card"));
	sdt_cli_info_format_bus(out, json_object_get_object_member(info, "bus"));
	if (json_object_has_member(info, "kernel_log"))
		sdt_cli_info_format_kernel_log(out,
					       json_object_get_object_member(info, "kernel_log"));
	if (json_object_has_member(info, "config"))
		sdt_cli_info_format_config(out, json_object_get_object_member(info, "config"));
	if (warnings != NULL && json_array_get_length(warnings) > 0) {
		g_string_append_printf(out, "\n%s\n", _("Warnings"));
		for (guint i = 0; i < json_array_get_length(warnings); i++)
			g_string_append_printf(
				out,
				"  - %s\n",
				sdt_l10n_tr(json_array_get_string_element(warnings, i)));
	}
	return g_string_free(g_steal_pointer(&out), FALSE);
}

gint
sdt_cli_info(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autoptr(JsonNode) node = NULL;
	gint rc;

	if (!sdt_cli_no_args(cli, argc, argv, &rc, error))
		return rc;
	/* info reads nothing private: without the helper, read this machine directly */
	node = sdt_cli_ops_read(cli, sdt_ops_info, sdt_manager_call_get_info_sync, error);
	if (node == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		sdt_cli_print_json(cli, node);
	} else {
		g_autofree gchar *text = sdt_cli_info_format(json_node_get_object(node));
		g_print("%s", text);
	}
	return SDT_CLI_EXIT_OK;
}
