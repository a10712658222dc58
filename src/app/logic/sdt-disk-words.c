/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-client-disk-words.h"
#include "sdt-disk-words.h"

gchar *
sdt_disk_words_system(SdtInfoReportFlag holds_system, const gchar *system_device)
{
	const gchar *what = sdt_client_disk_words_system_device_kind(system_device);

	if (holds_system != SDT_INFO_REPORT_FLAG_NO)
		return NULL;
	if (system_device != NULL && what != NULL)
		/* Translators: the system's partition ("nvme0n1p2"), then what it is ("an NVMe
		 * drive") */
		return g_strdup_printf(_("The system runs from %s (%s), not from this card: SD "
					 "Tuner tunes nothing for it. You can still benchmark "
					 "and check the card."),
				       system_device,
				       what);
	if (system_device != NULL)
		/* Translators: the system's partition, e.g. "nvme0n1p2" */
		return g_strdup_printf(_("The system runs from %s, not from this card: SD Tuner "
					 "tunes nothing for it. You can still benchmark and "
					 "check the card."),
				       system_device);
	return g_strdup(_("The system does not run from this card: SD Tuner tunes nothing for "
			  "it. You can still benchmark and check the card."));
}

gchar *
sdt_disk_words_emmc_wear(const SdtInfoReportEmmc *emmc)
{
	g_autofree gchar *summary = sdt_client_disk_words_emmc_summary(emmc->wear);
	g_autofree gchar *a = sdt_client_disk_words_life_time(emmc->life_time_a.value);
	g_autofree gchar *b = sdt_client_disk_words_life_time(emmc->life_time_b.value);
	g_autofree gchar *eol = sdt_client_disk_words_pre_eol(emmc->pre_eol);

	/* Translators: the eMMC's wear summary, then its three figures in words */
	return g_strdup_printf(_("%1$s\nLife used, type A memory: %2$s\nLife used, type B memory: "
				 "%3$s\nReserved blocks (pre-EOL): %4$s"),
			       summary,
			       a,
			       b,
			       eol);
}
