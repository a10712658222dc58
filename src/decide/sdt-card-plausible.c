/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <string.h>

#include "sdt-card-plausible-private.h"

/* (MID, OID) pairs seen on real cards (PLATFORM.md §8, public register dumps) */
static const struct {
	guint manfid;
	const gchar *oemid;
} sdt_known_pairs[] = {
	{0x01, "PA"},
	{0x02, "TM"},
	{0x03, "SD"},
	{0x03, "PT"},
	{0x12, "4V"},
	{0x1b, "SM"},
	{0x27, "PH"},
	{0x41, "42"},
	{0x6f, "03"},
	{0x74, "J`"},
	{0x9f, "TI"},
	{0xad, "LS"},
	{0xc9, "M`"},
	{0xaa, "XY"},
};

/* the year each SD spec version (sdt_card_regs_scr_get_spec_version()) was published */
static const struct {
	const gchar *version;
	guint year;
} sdt_spec_years[] = {
	{"1.0x", 2000},
	{"1.10", 2004},
	{"2.00", 2006},
	{"3.0x", 2009},
	{"4.xx", 2011},
	{"5.xx", 2016},
	{"6.xx", 2017},
	{"7.xx", 2018},
	{"8.xx", 2020},
	{"9.xx", 2022},
};

static void
sdt_plausible_add(SdtHealthReportRegisters *r, const gchar *rule, gchar *message)
{
	sdt_health_report_registers_add(r, rule, message);
}

/* who made it: a known maker, with an OEM id it is known to use */
static void
sdt_plausible_check_maker(SdtHealthReportRegisters *r, const SdtCid *cid)
{
	gboolean listed = FALSE;
	gboolean pair = FALSE;

	if (cid->manfid == 0) {
		sdt_plausible_add(r,
				  "manfid-zero",
				  g_strdup(_("The card's manufacturer id is 0x00, which no real "
					     "maker uses; cheap fakes often have it")));
		return;
	}
	if (sdt_card_regs_manufacturer_name(cid->manfid) == NULL) {
		sdt_plausible_add(
			r,
			"unknown-manufacturer",
			g_strdup_printf(_("The manufacturer id 0x%02x is not a known card "
					  "maker"),
					cid->manfid));
		return;
	}
	for (guint i = 0; i < G_N_ELEMENTS(sdt_known_pairs); i++) {
		if (sdt_known_pairs[i].manfid != cid->manfid)
			continue;
		listed = TRUE;
		pair = pair || strcmp(sdt_known_pairs[i].oemid, cid->oemid) == 0;
	}
	if (listed && !pair)
		sdt_plausible_add(
			r,
			"unknown-oem-pair",
			g_strdup_printf(_("The manufacturer id 0x%02x (%s) is not known to "
					  "come with the OEM id “%s”"),
					cid->manfid,
					sdt_card_regs_manufacturer_name(cid->manfid),
					cid->oemid));
}

/* how big it says it is: within its card type, and near a size cards are sold in */
static void
sdt_plausible_check_capacity(SdtHealthReportRegisters *r, const SdtCsd *csd)
{
	guint64 cap;
	guint64 limit;
	guint64 marketing = 1000000000;

	if (csd == NULL || csd->capacity_bytes == 0)
		return;
	cap = csd->capacity_bytes;
	limit = csd->structure == 0 ? G_GUINT64_CONSTANT(4) << 30 : G_GUINT64_CONSTANT(2) << 40;
	/* SDHC starts above 2 GB: a smaller v2 CSD is no real card either */
	if (csd->structure <= 1 && (cap > limit || (csd->structure == 1 && cap <= 2000000000))) {
		sdt_plausible_add(r,
				  "capacity-limit",
				  g_strdup_printf(_("The card claims %" PRIu64
						    " MB, more than its card type can hold"),
						  cap / 1000000));
	}
	/* some makers give a little more than the label (Samsung's 128 GB: 128.2e9) */
	while ((gdouble) marketing * 1.02 < (gdouble) cap)
		marketing *= 2;
	if (cap >= 1000000000 && (gdouble) cap < 0.85 * (gdouble) marketing)
		sdt_plausible_add(r,
				  "capacity-unusual",
				  g_strdup_printf(_("The card claims %" PRIu64
						    " MB, which fits no real card size (it "
						    "would be sold as %" PRIu64 " GB)"),
						  cap / 1000000,
						  marketing / 1000000000));
}

/* the first year a card like this could be made, and what says so (a spec
 * version, "SDHC" or "SDXC"); 0 if nothing does */
static guint
sdt_plausible_earliest_year(const SdtCsd *csd, const SdtScr *scr, const gchar **because)
{
	guint earliest = 0;

	if (scr != NULL) {
		const gchar *version = sdt_card_regs_scr_get_spec_version(scr);
		for (guint i = 0; i < G_N_ELEMENTS(sdt_spec_years); i++)
			if (g_strcmp0(version, sdt_spec_years[i].version) == 0 &&
			    sdt_spec_years[i].year > earliest) {
				earliest = sdt_spec_years[i].year;
				*because = version;
			}
	}
	if (csd != NULL && csd->structure == 1 && earliest < 2006) {
		earliest = 2006;
		*because = "SDHC";
	}
	if (csd != NULL && csd->capacity_bytes > (G_GUINT64_CONSTANT(32) << 30) &&
	    earliest < 2009) {
		earliest = 2009;
		*because = "SDXC";
	}
	return earliest;
}

/* a system clock before this year cannot be the time (this version of SD Tuner did not
 * exist yet): a Pi has no real-time clock and starts at 1970 until NTP or fake-hwclock
 * sets it, and no card date is "in the future" of that (found on the real-kernel tier) */
#define SDT_PLAUSIBLE_CLOCK_MIN_YEAR 2026

/* when it was made: not in the future, not before its kind of card existed */
static void
sdt_plausible_check_date(SdtHealthReportRegisters *r,
			 const SdtCid *cid,
			 const SdtCsd *csd,
			 const SdtScr *scr,
			 GDateTime *now)
{
	guint ny;
	guint nm;
	guint earliest;
	const gchar *because = NULL;

	if (cid->year == 0 || cid->month == 0 || now == NULL)
		return;
	ny = (guint) g_date_time_get_year(now);
	nm = (guint) g_date_time_get_month(now);
	if (ny >= SDT_PLAUSIBLE_CLOCK_MIN_YEAR && cid->year * 12 + cid->month > ny * 12 + nm + 1)
		sdt_plausible_add(r,
				  "date-future",
				  g_strdup_printf(_("The card says it was made in %04u-%02u, in "
						    "the future"),
						  cid->year,
						  cid->month));
	earliest = sdt_plausible_earliest_year(csd, scr, &because);
	if (earliest > 0 && cid->year < earliest)
		sdt_plausible_add(r,
				  "date-before-spec",
				  /* Translators: the date, then an SD spec version or SDHC/SDXC,
				     then a year */
				  g_strdup_printf(_("The card says it was made in %04u, before %s "
						    "existed (%u)"),
						  cid->year,
						  because,
						  earliest));
}

/* what it promises against what it did */
static void
sdt_plausible_check_speed(SdtHealthReportRegisters *r, const SdtSsr *ssr, gdouble seq_write_mb_s)
{
	gint promised;

	if (ssr == NULL || !(seq_write_mb_s >= 0))
		return;
	promised = MAX(ssr->speed_class, 0);
	if (ssr->uhs_grade == 1)
		promised = MAX(promised, 10);
	else if (ssr->uhs_grade == 3)
		promised = MAX(promised, 30);
	promised = MAX(promised, ssr->video_class);
	if (promised > 0 && seq_write_mb_s < promised / 2.0)
		sdt_plausible_add(r,
				  "speed-contradicted",
				  g_strdup_printf(_("The card promises %d MB/s sequential "
						    "writes, but wrote at %.1f MB/s"),
						  promised,
						  seq_write_mb_s));
}

SdtHealthReportRegisters *
sdt_card_plausible_judge(const SdtCid *cid,
			 const SdtCsd *csd,
			 const SdtScr *scr,
			 const SdtSsr *ssr,
			 gdouble seq_write_mb_s,
			 GDateTime *now)
{
	SdtHealthReportRegisters *r = sdt_health_report_registers_new();

	sdt_plausible_check_maker(r, cid);
	sdt_plausible_check_capacity(r, csd);
	sdt_plausible_check_date(r, cid, csd, scr, now);
	sdt_plausible_check_speed(r, ssr, seq_write_mb_s);
	r->verdict = g_strdup(r->findings->len > 0 ? "suspicious" : "plausible");
	return r;
}
