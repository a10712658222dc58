/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sdt-card-regs.h"
#include "sdt-card-regs-private.h"
#include "sdt-emmc.h"
#include "sdt-emmc-private.h"
#include "sdt-error.h"

#define SDT_EMMC_CID_BYTES 16

void
sdt_emmc_wear_init(SdtEmmcWear *wear)
{
	wear->life_time_a = SDT_EMMC_VALUE_UNKNOWN;
	wear->life_time_b = SDT_EMMC_VALUE_UNKNOWN;
	wear->pre_eol = SDT_EMMC_VALUE_UNKNOWN;
}

/* one "0xNN" token (one or two hex digits, as "0x%02x" prints a byte), or "NN" (older
 * kernels printed pre_eol_info as "%02x", PLATFORM.md §6.8) */
static gboolean
sdt_emmc_parse_byte(const gchar *token, gboolean bare_ok, gint *value)
{
	gsize len = strlen(token);
	gsize start = 0;
	gint v = 0;

	if (len >= 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X'))
		start = 2;
	else if (!bare_ok)
		return FALSE;
	if (len - start < 1 || len - start > 2)
		return FALSE;
	for (gsize i = start; i < len; i++) {
		if (!g_ascii_isxdigit(token[i]))
			return FALSE;
		v = v * 16 + g_ascii_xdigit_value(token[i]);
	}
	*value = v;
	return TRUE;
}

/* @text split on blanks into exactly @n "0xNN" bytes */
static gboolean
sdt_emmc_parse_bytes(const gchar *text,
		     const gchar *what,
		     gboolean bare_ok,
		     gint *values,
		     guint n,
		     GError **error)
{
	g_auto(GStrv) tokens = NULL;
	guint count = 0;

	if (text == NULL) {
		g_set_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND, _("%s is missing"), what);
		return FALSE;
	}
	tokens = g_strsplit_set(text, " \t\n", -1);
	for (guint i = 0; tokens[i] != NULL; i++) {
		if (tokens[i][0] == '\0')
			continue;
		if (count >= n || !sdt_emmc_parse_byte(tokens[i], bare_ok, &values[count])) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    /* Translators: a sysfs file name, then a count of bytes */
				    ngettext("%s is not %u byte written as 0xNN",
					     "%s is not %u bytes written as 0xNN",
					     n),
				    what,
				    n);
			return FALSE;
		}
		count++;
	}
	if (count != n) {
		g_set_error(
			error,
			SDT_ERROR,
			SDT_ERROR_INVALID_DATA,
			/* Translators: a sysfs file name, the values it has, the values wanted */
			ngettext("%s has %u value instead of %u",
				 "%s has %u values instead of %u",
				 count),
			what,
			count,
			n);
		return FALSE;
	}
	return TRUE;
}

gboolean
sdt_emmc_life_time_parse(const gchar *text, gint *type_a, gint *type_b, GError **error)
{
	gint v[2];

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	*type_a = *type_b = SDT_EMMC_VALUE_UNKNOWN;
	if (!sdt_emmc_parse_bytes(text, "life_time", FALSE, v, 2, error))
		return FALSE;
	*type_a = v[0];
	*type_b = v[1];
	return TRUE;
}

gboolean
sdt_emmc_pre_eol_parse(const gchar *text, gint *value, GError **error)
{
	gint v;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	*value = SDT_EMMC_VALUE_UNKNOWN;
	if (!sdt_emmc_parse_bytes(text, "pre_eol_info", TRUE, &v, 1, error))
		return FALSE;
	*value = v;
	return TRUE;
}

gboolean
sdt_emmc_life_time_range(gint value, gint *min_percent, gint *max_percent)
{
	if (value >= 0x01 && value <= 0x0a) {
		*min_percent = (value - 1) * 10;
		*max_percent = value * 10;
		return TRUE;
	}
	if (value == SDT_EMMC_LIFE_TIME_EXCEEDED) {
		*min_percent = 100;
		*max_percent = -1;
		return TRUE;
	}
	return FALSE;
}

const gchar *
sdt_emmc_life_time_state_to_string(gint value)
{
	if (value == 0x00)
		return "not-defined";
	if (value >= 0x01 && value <= 0x0a)
		return "used";
	if (value == SDT_EMMC_LIFE_TIME_EXCEEDED)
		return "exceeded";
	return "unknown";
}

const gchar *
sdt_emmc_pre_eol_to_string(gint value)
{
	switch (value) {
	case SDT_EMMC_PRE_EOL_NOT_DEFINED:
		return "not-defined";
	case SDT_EMMC_PRE_EOL_NORMAL:
		return "normal";
	case SDT_EMMC_PRE_EOL_WARNING:
		return "warning";
	case SDT_EMMC_PRE_EOL_URGENT:
		return "urgent";
	default:
		return "unknown";
	}
}

static SdtEmmcWearLevel
sdt_emmc_life_level(gint value)
{
	if (value == SDT_EMMC_LIFE_TIME_EXCEEDED)
		return SDT_EMMC_WEAR_URGENT;
	/* 0x09, 0x0A: 80–100% of the rated life used, the point pre-EOL warns at too */
	if (value == 0x09 || value == 0x0a)
		return SDT_EMMC_WEAR_WARNING;
	if (value >= 0x01 && value <= 0x08)
		return SDT_EMMC_WEAR_NORMAL;
	return SDT_EMMC_WEAR_UNKNOWN;
}

SdtEmmcWearLevel
sdt_emmc_wear_level(const SdtEmmcWear *wear)
{
	SdtEmmcWearLevel level = SDT_EMMC_WEAR_UNKNOWN;

	level = MAX(level, sdt_emmc_life_level(wear->life_time_a));
	level = MAX(level, sdt_emmc_life_level(wear->life_time_b));
	if (wear->pre_eol == SDT_EMMC_PRE_EOL_NORMAL)
		level = MAX(level, SDT_EMMC_WEAR_NORMAL);
	else if (wear->pre_eol == SDT_EMMC_PRE_EOL_WARNING)
		level = MAX(level, SDT_EMMC_WEAR_WARNING);
	else if (wear->pre_eol == SDT_EMMC_PRE_EOL_URGENT)
		level = MAX(level, SDT_EMMC_WEAR_URGENT);
	return level;
}

const gchar *
sdt_emmc_wear_level_to_string(SdtEmmcWearLevel level)
{
	switch (level) {
	case SDT_EMMC_WEAR_NORMAL:
		return "normal";
	case SDT_EMMC_WEAR_WARNING:
		return "warning";
	case SDT_EMMC_WEAR_URGENT:
		return "urgent";
	case SDT_EMMC_WEAR_UNKNOWN:
	default:
		return "unknown";
	}
}

/* PLATFORM.md §6.8: the kernel's eMMC ids (drivers/mmc/core/card.h), likely, never proof */
static const struct {
	guint manfid;
	const gchar *name;
} sdt_emmc_manufacturers[] = {
	{0x02, "SanDisk"},
	{0x09, "ATP"},
	{0x11, "Toshiba/Kioxia"},
	{0x13, "Micron"},
	{0x15, "Samsung"},
	{0x27, "Apacer"},
	{0x45, "SanDisk"},
	{0x5d, "Swissbit"},
	{0x70, "Kingston"},
	{0x90, "SK hynix"},
	{0xfe, "Micron (Numonyx)"},
};

const gchar *
sdt_emmc_manufacturer_name(guint manfid)
{
	for (guint i = 0; i < G_N_ELEMENTS(sdt_emmc_manufacturers); i++) {
		if (sdt_emmc_manufacturers[i].manfid == manfid)
			return sdt_emmc_manufacturers[i].name;
	}
	return NULL;
}

gboolean
sdt_emmc_cid_parse(const gchar *hex, gint ext_csd_rev, SdtCid *cid, guint *oemid, GError **error)
{
	guint8 b[SDT_EMMC_CID_BYTES];
	GString *name;
	gsize len = 6;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	memset(cid, 0, sizeof(*cid));
	*oemid = 0;
	if (!sdt_card_regs_unhex(hex, "CID", b, sizeof b, error))
		return FALSE;
	cid->manfid = b[0];
	*oemid = b[2];
	/* PNM: bytes 3..8, trailing spaces and NULs go */
	while (len > 0 && (b[3 + len - 1] == ' ' || b[3 + len - 1] == '\0'))
		len--;
	name = g_string_new(NULL);
	for (gsize i = 0; i < len; i++) {
		guint8 c = b[3 + i];
		if (g_ascii_isprint(c) && c != '\\')
			g_string_append_c(name, (gchar) c);
		else
			g_string_append_printf(name, "\\x%02x", c);
	}
	g_strlcpy(cid->name, name->str, sizeof(cid->name));
	g_string_free(name, TRUE);
	cid->hwrev = b[9] >> 4;
	cid->fwrev = b[9] & 0xf;
	cid->serial =
		((guint32) b[10] << 24) | ((guint32) b[11] << 16) | ((guint32) b[12] << 8) | b[13];
	cid->month = b[14] >> 4;
	cid->year = 1997 + (b[14] & 0xf);
	/* JESD84-B441: with EXT_CSD_REV > 4 the same four bits count from 2013 */
	if ((ext_csd_rev < 0 || ext_csd_rev > 4) && cid->year < 2010)
		cid->year += 16;
	if (cid->month < 1 || cid->month > 12)
		cid->month = 0;
	return TRUE;
}
