/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-client-disk-words.h"

/* the JEDEC values (JESD84-B51 EXT_CSD[268], [269], [267]) */
#define SDT_CLIENT_DISK_LIFE_TIME_EXCEEDED  0x0b
#define SDT_CLIENT_DISK_PRE_EOL_NOT_DEFINED 0x00
#define SDT_CLIENT_DISK_PRE_EOL_NORMAL      0x01
#define SDT_CLIENT_DISK_PRE_EOL_WARNING     0x02
#define SDT_CLIENT_DISK_PRE_EOL_URGENT      0x03

const gchar *
sdt_client_disk_words_system_device_kind(const gchar *device)
{
	if (device == NULL)
		return NULL;
	if (g_str_has_prefix(device, "nvme"))
		return _("an NVMe drive");
	/* a Raspberry Pi has no SATA: sdX is USB mass storage */
	if (g_str_has_prefix(device, "sd"))
		return _("a USB drive");
	if (g_str_has_prefix(device, "mmcblk"))
		return _("another SD card or eMMC");
	return NULL;
}

gchar *
sdt_client_disk_words_life_time(gint64 value)
{
	gint v = (gint) value;

	if (value < 0 || value > 0xff)
		return g_strdup(_("unknown (the chip's report cannot be read)"));
	if (v == 0x00)
		return g_strdup(_("not reported by the chip (0x00)"));
	if (v == SDT_CLIENT_DISK_LIFE_TIME_EXCEEDED)
		return g_strdup(/* xgettext:no-c-format */
				_("past its rated life (0x0B: more than 100% used)"));
	if (v < SDT_CLIENT_DISK_LIFE_TIME_EXCEEDED)
		/* Translators: the share of the chip's rated life used, e.g. "10–20%", and the
		 * raw register value */
		return g_strdup_printf(_("%d–%d%% of its rated life used (0x%02X)"),
				       (v - 1) * 10,
				       v * 10,
				       v);
	/* Translators: a register value outside the JEDEC table, e.g. "0x0C" */
	return g_strdup_printf(_("unknown value 0x%02X (not in the JEDEC table)"), v);
}

gchar *
sdt_client_disk_words_pre_eol(gint64 value)
{
	switch (value) {
	case SDT_CLIENT_DISK_PRE_EOL_NOT_DEFINED:
		return g_strdup(_("not reported by the chip (0x00)"));
	case SDT_CLIENT_DISK_PRE_EOL_NORMAL:
		return g_strdup(_("normal (0x01)"));
	case SDT_CLIENT_DISK_PRE_EOL_WARNING:
		return g_strdup(/* xgettext:no-c-format */
				_("warning (0x02): 80% of the reserved blocks are used"));
	case SDT_CLIENT_DISK_PRE_EOL_URGENT:
		return g_strdup(_("urgent (0x03): the reserved blocks are almost used up"));
	default:
		if (value < 0 || value > 0xff)
			return g_strdup(_("unknown (the chip's report cannot be read)"));
		return g_strdup_printf(_("unknown value 0x%02X (not in the JEDEC table)"),
				       (guint) value);
	}
}

gchar *
sdt_client_disk_words_emmc_summary(const gchar *wear)
{
	if (g_strcmp0(wear, "normal") == 0)
		return g_strdup(_("The eMMC reports normal wear."));
	if (g_strcmp0(wear, "warning") == 0)
		return g_strdup(_("The eMMC reports heavy wear: back up your data and plan to "
				  "replace the board or module."));
	if (g_strcmp0(wear, "urgent") == 0)
		return g_strdup(_("The eMMC reports that it is worn out: back up your data now "
				  "and replace the board or module."));
	return g_strdup(_("The eMMC's wear is unknown: it reports no life-time or pre-EOL "
			  "figure that SD Tuner can interpret."));
}
