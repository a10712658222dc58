/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>

#include "sdt-sd-bus.h"
#include "sdt-sd-bus-private.h"
#include "sdt-error.h"

static const struct {
	SdtTiming timing;
	const gchar *name; /* DESIGN.md */
	const gchar *ios;  /* drivers/mmc/core/debugfs.c mmc_ios_show() */
	guint64 nominal_hz;
	gboolean ddr;
} sdt_timings[] = {
	{SDT_TIMING_LEGACY, "legacy", "legacy", 25000000, FALSE},
	{SDT_TIMING_MMC_HIGH_SPEED, "mmc-high-speed", "mmc high-speed", 52000000, FALSE},
	{SDT_TIMING_SD_HIGH_SPEED, "sd-high-speed", "sd high-speed", 50000000, FALSE},
	{SDT_TIMING_UHS_SDR12, "uhs-sdr12", "sd uhs SDR12", 25000000, FALSE},
	{SDT_TIMING_UHS_SDR25, "uhs-sdr25", "sd uhs SDR25", 50000000, FALSE},
	{SDT_TIMING_UHS_SDR50, "uhs-sdr50", "sd uhs SDR50", 100000000, FALSE},
	{SDT_TIMING_UHS_SDR104, "uhs-sdr104", "sd uhs SDR104", 208000000, FALSE},
	{SDT_TIMING_UHS_DDR50, "uhs-ddr50", "sd uhs DDR50", 50000000, TRUE},
	{SDT_TIMING_MMC_DDR52, "mmc-ddr52", "mmc DDR52", 52000000, TRUE},
	{SDT_TIMING_MMC_HS200, "mmc-hs200", "mmc HS200", 200000000, FALSE},
	{SDT_TIMING_MMC_HS400, "mmc-hs400", "mmc HS400", 200000000, TRUE},
	{SDT_TIMING_MMC_HS400ES, "mmc-hs400es", "mmc HS400 enhanced strobe", 200000000, TRUE},
};

const gchar *
sdt_sd_bus_timing_to_string(SdtTiming timing)
{
	for (guint i = 0; i < G_N_ELEMENTS(sdt_timings); i++) {
		if (sdt_timings[i].timing == timing)
			return sdt_timings[i].name;
	}
	return "unknown";
}

SdtTiming
sdt_sd_bus_timing_from_ios(const gchar *text)
{
	g_autofree gchar *tmp = NULL;

	if (text == NULL)
		return SDT_TIMING_UNKNOWN;
	tmp = g_strstrip(g_strdup(text));
	for (guint i = 0; i < G_N_ELEMENTS(sdt_timings); i++) {
		if (g_ascii_strcasecmp(sdt_timings[i].ios, tmp) == 0)
			return sdt_timings[i].timing;
	}
	return SDT_TIMING_UNKNOWN;
}

SdtTiming
sdt_sd_bus_timing_from_uhs_mode(const gchar *mode)
{
	g_autofree gchar *ios = NULL;

	if (mode == NULL)
		return SDT_TIMING_UNKNOWN;
	ios = g_strdup_printf("sd uhs %s", mode);
	return sdt_sd_bus_timing_from_ios(ios);
}

gboolean
sdt_sd_bus_timing_is_ddr(SdtTiming timing)
{
	for (guint i = 0; i < G_N_ELEMENTS(sdt_timings); i++) {
		if (sdt_timings[i].timing == timing)
			return sdt_timings[i].ddr;
	}
	return FALSE;
}

guint64
sdt_sd_bus_timing_get_nominal_clock_hz(SdtTiming timing)
{
	for (guint i = 0; i < G_N_ELEMENTS(sdt_timings); i++) {
		if (sdt_timings[i].timing == timing)
			return sdt_timings[i].nominal_hz;
	}
	return 0;
}

void
sdt_sd_bus_ios_init(SdtSdBusIos *ios)
{
	ios->clock_hz = -1;
	ios->actual_clock_hz = -1;
	ios->bus_width = -1;
	ios->timing = SDT_TIMING_UNKNOWN;
	ios->timing_text = NULL;
	ios->signal_voltage = -1;
}

void
sdt_sd_bus_ios_clear(SdtSdBusIos *ios)
{
	g_clear_pointer(&ios->timing_text, g_free);
	sdt_sd_bus_ios_init(ios);
}

/* "50000000 Hz" → 50000000 */
static gboolean
sdt_sd_bus_parse_hz(const gchar *value, gint64 *hz)
{
	gchar *end = NULL;
	guint64 tmp;

	if (!g_ascii_isdigit(value[0]))
		return FALSE;
	tmp = g_ascii_strtoull(value, &end, 10);
	if (end == value || tmp > G_MAXINT64)
		return FALSE;
	while (*end == ' ')
		end++;
	if (g_strcmp0(end, "Hz") != 0)
		return FALSE;
	*hz = (gint64) tmp;
	return TRUE;
}

/* the text between the parentheses of "2 (4 bits)", or NULL */
static gchar *
sdt_sd_bus_paren(const gchar *value)
{
	const gchar *open = strchr(value, '(');
	const gchar *close = strrchr(value, ')');

	if (open == NULL || close == NULL || close < open)
		return NULL;
	return g_strndup(open + 1, close - open - 1);
}

gboolean
sdt_sd_bus_ios_parse(SdtSdBusIos *ios, const gchar *text, GError **error)
{
	g_auto(GStrv) lines = NULL;
	guint used = 0;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	sdt_sd_bus_ios_clear(ios);
	if (text == NULL || text[0] == '\0') {
		g_set_error_literal(error, SDT_ERROR, SDT_ERROR_INVALID_DATA, _("ios is empty"));
		return FALSE;
	}
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		g_autofree gchar *key = NULL;
		g_autofree gchar *value = NULL;
		const gchar *colon = strchr(lines[i], ':');

		if (colon == NULL)
			continue;
		key = g_strstrip(g_strndup(lines[i], colon - lines[i]));
		value = g_strstrip(g_strdup(colon + 1));
		if (g_strcmp0(key, "clock") == 0) {
			if (sdt_sd_bus_parse_hz(value, &ios->clock_hz))
				used++;
		} else if (g_strcmp0(key, "actual clock") == 0) {
			if (sdt_sd_bus_parse_hz(value, &ios->actual_clock_hz))
				used++;
		} else if (g_strcmp0(key, "bus width") == 0) {
			g_autofree gchar *p = sdt_sd_bus_paren(value);
			gchar *end = NULL;
			guint64 bits;
			if (p == NULL)
				continue;
			bits = g_ascii_strtoull(p, &end, 10);
			if (end != p && g_str_has_prefix(end, " bit") &&
			    (bits == 1 || bits == 4 || bits == 8)) {
				ios->bus_width = (gint) bits;
				used++;
			}
		} else if (g_strcmp0(key, "timing spec") == 0) {
			g_autofree gchar *p = sdt_sd_bus_paren(value);
			if (p == NULL)
				continue;
			ios->timing = sdt_sd_bus_timing_from_ios(p);
			g_free(ios->timing_text);
			ios->timing_text = g_steal_pointer(&p);
			used++;
		} else if (g_strcmp0(key, "signal voltage") == 0) {
			g_autofree gchar *p = sdt_sd_bus_paren(value);
			gchar *end = NULL;
			gdouble volts;
			if (p == NULL)
				continue;
			volts = g_ascii_strtod(p, &end);
			if (end != p && g_strcmp0(end, " V") == 0 && volts > 0 && volts < 5) {
				ios->signal_voltage = volts;
				used++;
			}
		}
	}
	if (used == 0) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("no clock, bus width, timing or voltage line could be read"));
		return FALSE;
	}
	return TRUE;
}

gdouble
sdt_sd_bus_ceiling_mb_s(gint64 clock_hz, gint bus_width, SdtTiming timing)
{
	gdouble bytes_per_s;

	if (clock_hz <= 0 || bus_width <= 0)
		return -1;
	bytes_per_s = (gdouble) clock_hz * bus_width / 8.0;
	if (sdt_sd_bus_timing_is_ddr(timing))
		bytes_per_s *= 2;
	return bytes_per_s / 1e6;
}
