/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sdt-cqe-quirks.h"
#include "sdt-cqe-quirks-private.h"

#define ANY_YEAR  0
#define ANY_MONTH 0
#define ANY_NAME  NULL

/* the kernel's cid_rev(): hwrev, fwrev, year, month in one comparable number */
#define CID_REV(hw, fw, y, m) \
	(((guint64) (hw) << 40) | ((guint64) (fw) << 32) | ((guint64) (y) << 16) | (guint64) (m))

typedef struct {
	SdtCqeList list;
	guint manfid;
	guint16 oemid; /* two ASCII characters, big-endian, as the kernel compares them */
	const gchar *name;
	guint year;
	guint month;
	guint64 rev_start;
	const gchar *why;
} SdtCqeQuirk;

/*
 * mmc_sd_fixups of the Raspberry Pi kernel (rpi-6.18.y; the entries that
 * decide command queueing).  Manufacturer ids: CID_MANFID_SANDISK_SD 0x03,
 * GIGASTONE 0x12, SAMSUNG_SD 0x1b, KINGSTON_SD 0x9f; the fork's LONGSYS_SD
 * and TRANSCEND_SD are 0xad and 0x74 (the MIDs cards with OEM ids "LS" and
 * "J`" report, PLATFORM.md's manufacturer table).
 */
/* the reasons are shown in parentheses in the recommendation's sentence ("Linux
 * lists this card as known-bad for command queueing (…)"), translated there */
static const SdtCqeQuirk sdt_cqe_quirks[] = {
	{SDT_CQE_LIST_DENY,
	 0x9f,
	 0x5449,
	 ANY_NAME,
	 2019,
	 ANY_MONTH,
	 0,
	 /* Translators: why Linux treats this card's command queueing so */
	 N_("Kingston Canvas Go! Plus cards of 2019 to 2022 never finish an SD cache flush")},
	{SDT_CQE_LIST_DENY,
	 0x9f,
	 0x5449,
	 ANY_NAME,
	 2020,
	 ANY_MONTH,
	 0,
	 N_("Kingston Canvas Go! Plus cards of 2019 to 2022 never finish an SD cache flush")},
	{SDT_CQE_LIST_DENY,
	 0x9f,
	 0x5449,
	 ANY_NAME,
	 2021,
	 ANY_MONTH,
	 0,
	 N_("Kingston Canvas Go! Plus cards of 2019 to 2022 never finish an SD cache flush")},
	{SDT_CQE_LIST_DENY,
	 0x9f,
	 0x5449,
	 ANY_NAME,
	 2022,
	 ANY_MONTH,
	 0,
	 N_("Kingston Canvas Go! Plus cards of 2019 to 2022 never finish an SD cache flush")},
	{SDT_CQE_LIST_DENY,
	 0x12,
	 0x3456,
	 "ASTC",
	 2022,
	 2,
	 0,
	 /* Translators: why Linux treats this card's command queueing so */
	 N_("GIGASTONE Gaming Plus cards of 02/2022 never finish a cache flush or power-off "
	    "notification")},
	{SDT_CQE_LIST_DENY,
	 0x1b,
	 0x534d,
	 ANY_NAME,
	 2023,
	 ANY_MONTH,
	 0,
	 /* Translators: why Linux treats this card's command queueing so */
	 N_("Samsung PRO Plus, EVO Plus and PRO Ultimate cards of 2023 stop answering after a "
	    "cache flush")},
	{SDT_CQE_LIST_DENY,
	 0x03,
	 0x5344,
	 ANY_NAME,
	 2019,
	 ANY_MONTH,
	 0,
	 /* Translators: why Linux treats this card's command queueing so */
	 N_("early SanDisk Extreme and Extreme Pro A2 cards (2019, 2020) never finish a cache "
	    "flush "
	    "in queueing mode")},
	{SDT_CQE_LIST_DENY,
	 0x03,
	 0x5344,
	 ANY_NAME,
	 2020,
	 ANY_MONTH,
	 0,
	 N_("early SanDisk Extreme and Extreme Pro A2 cards (2019, 2020) never finish a cache "
	    "flush "
	    "in queueing mode")},
	{SDT_CQE_LIST_ALLOW,
	 0xad,
	 0x4c53,
	 ANY_NAME,
	 ANY_YEAR,
	 ANY_MONTH,
	 CID_REV(1, 0, 0, 0),
	 /* Translators: why Linux treats this card's command queueing so */
	 N_("Raspberry Pi A2 cards have a proven queueing implementation")},
	{SDT_CQE_LIST_ALLOW,
	 0x74,
	 0x4a60,
	 ANY_NAME,
	 ANY_YEAR,
	 ANY_MONTH,
	 CID_REV(2, 0, 2026, 4),
	 /* Translators: why Linux treats this card's command queueing so */
	 N_("these Transcend cards have a proven queueing implementation")},
};

const gchar *
sdt_cqe_quirks_list_to_string(SdtCqeList list)
{
	switch (list) {
	case SDT_CQE_LIST_ALLOW:
		return "allow";
	case SDT_CQE_LIST_DENY:
		return "deny";
	case SDT_CQE_LIST_NONE:
	default:
		return "none";
	}
}

SdtCqeList
sdt_cqe_quirks_lookup(const SdtCid *cid, const gchar **why)
{
	guint16 oemid = (guint16) (((guint8) cid->oemid[0] << 8) | (guint8) cid->oemid[1]);
	guint64 rev = CID_REV(cid->hwrev, cid->fwrev, cid->year, cid->month);
	SdtCqeList found = SDT_CQE_LIST_NONE;

	if (why != NULL)
		*why = NULL;
	/* every entry that matches applies, as in the kernel: a deny wins over an allow */
	for (guint i = 0; i < G_N_ELEMENTS(sdt_cqe_quirks); i++) {
		const SdtCqeQuirk *q = &sdt_cqe_quirks[i];
		if (q->manfid != cid->manfid || q->oemid != oemid)
			continue;
		if (q->name != NULL && strcmp(q->name, cid->name) != 0)
			continue;
		if (rev < q->rev_start)
			continue;
		if (q->year != ANY_YEAR && q->year != cid->year)
			continue;
		if (q->month != ANY_MONTH && q->month != cid->month)
			continue;
		if (found == SDT_CQE_LIST_DENY)
			continue;
		found = q->list;
		if (why != NULL)
			*why = q->why;
	}
	return found;
}
