/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-card-regs.h"
#include "sdt-card-regs-private.h"
#include "sdt-error.h"

#define SDT_CID_BYTES 16
#define SDT_CSD_BYTES 16
#define SDT_SCR_BYTES 8
#define SDT_SSR_BYTES 64

/* PLATFORM.md §8: brand names are likely, never proof (controller vendors' ids show up on
 * other brands) */
static const struct {
	guint manfid;
	const gchar *name;
} sdt_card_manufacturers[] = {
	{0x01, "Panasonic"},
	{0x02, "Toshiba/Kioxia"},
	{0x03, "SanDisk/Western Digital"},
	{0x08, "Silicon Power"},
	{0x12, "Gigastone"},
	{0x18, "Infineon"},
	{0x1b, "Samsung"},
	{0x1c, "Transcend"},
	{0x1d, "Corsair/ADATA"},
	{0x1e, "Transcend"},
	{0x1f, "Kingston"},
	{0x27, "Phison"},
	{0x28, "Lexar"},
	{0x30, "SanDisk"},
	{0x31, "Silicon Power"},
	{0x33, "STMicroelectronics"},
	{0x41, "Kingston"},
	{0x45, "Team Group"},
	{0x6f, "STMicroelectronics"},
	{0x73, "Hama"},
	{0x74, "Transcend"},
	{0x76, "Patriot"},
	{0x82, "Sony"},
	{0x92, "Sony"},
	{0x9c, "Sony"},
	{0x9e, "Lexar"},
	{0x9f, "Kingston"},
	{0xaa, "QEMU (emulated card)"},
	{0xad, "Longsys/Lexar"},
	{0xc9, "Lexar"},
	{0xff, "Netac"},
};

const gchar *
sdt_card_regs_manufacturer_name(guint manfid)
{
	for (guint i = 0; i < G_N_ELEMENTS(sdt_card_manufacturers); i++) {
		if (sdt_card_manufacturers[i].manfid == manfid)
			return sdt_card_manufacturers[i].name;
	}
	return NULL;
}

/**
 * sdt_card_regs_unhex:
 * @hex: (nullable): a register as sysfs prints it, in hex with surrounding whitespace
 * @what: the register's name for the error (CID, CSD, SCR, SSR)
 *
 * Exactly @n_bytes bytes of @hex into @buf (SD cards' and eMMC chips' registers alike).
 */
gboolean
sdt_card_regs_unhex(const gchar *hex, const gchar *what, guint8 *buf, gsize n_bytes, GError **error)
{
	g_autofree gchar *tmp = NULL;
	gsize len;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	if (hex == NULL) {
		/* Translators: %s is a card register: CID, CSD, SCR, SSR */
		g_set_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA, _("%s is missing"), what);
		return FALSE;
	}
	tmp = g_strstrip(g_strdup(hex));
	len = strlen(tmp);
	if (len != n_bytes * 2) {
		/* Translators: a card register (CID, CSD, SCR, SSR), the digits it has,
		 * the digits it should have */
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    ngettext("%s has %u hex digit instead of %u",
				     "%s has %u hex digits instead of %u",
				     (gulong) len),
			    what,
			    (guint) len,
			    (guint) (n_bytes * 2));
		return FALSE;
	}
	for (gsize i = 0; i < len; i++) {
		if (!g_ascii_isxdigit(tmp[i])) {
			/* Translators: a card register (CID, CSD, SCR, SSR), then a position */
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("%s has a non-hex character at position %u"),
				    what,
				    (guint) i);
			return FALSE;
		}
	}
	for (gsize i = 0; i < n_bytes; i++)
		buf[i] = (g_ascii_xdigit_value(tmp[2 * i]) << 4) |
			 g_ascii_xdigit_value(tmp[2 * i + 1]);
	return TRUE;
}

/* bits @hi..@lo of a register of @n_bytes bytes, bit 0 being the LSB of the last byte */
static guint64
sdt_card_regs_bits(const guint8 *buf, gsize n_bytes, guint hi, guint lo)
{
	guint64 value = 0;
	guint width = n_bytes * 8;

	g_return_val_if_fail(hi >= lo && hi < width && hi - lo < 64, 0);
	for (guint bit = hi + 1; bit-- > lo;) {
		guint byte = (width - 1 - bit) / 8;
		value = (value << 1) | ((buf[byte] >> (bit % 8)) & 1);
	}
	return value;
}

static gchar
sdt_card_regs_printable(guint8 c)
{
	return g_ascii_isprint(c) ? (gchar) c : '?';
}

gboolean
sdt_card_regs_cid_parse(const gchar *hex, SdtCid *cid, GError **error)
{
	guint8 b[SDT_CID_BYTES];
	GString *name;
	gsize len = 5;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	memset(cid, 0, sizeof(*cid));
	if (!sdt_card_regs_unhex(hex, "CID", b, sizeof(b), error))
		return FALSE;
	cid->manfid = b[0];
	cid->oemid[0] = sdt_card_regs_printable(b[1]);
	cid->oemid[1] = sdt_card_regs_printable(b[2]);
	cid->oemid[2] = '\0';

	/* PNM: trailing spaces and NULs go (the kernel prints up to the first NUL) */
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

	cid->hwrev = b[8] >> 4;
	cid->fwrev = b[8] & 0xf;
	cid->serial = (guint32) sdt_card_regs_bits(b, sizeof(b), 55, 24);
	cid->year = 2000 + (guint) sdt_card_regs_bits(b, sizeof(b), 19, 12);
	cid->month = (guint) sdt_card_regs_bits(b, sizeof(b), 11, 8);
	if (cid->month < 1 || cid->month > 12)
		cid->month = 0;
	return TRUE;
}

gchar *
sdt_card_regs_cid_get_date(const SdtCid *cid)
{
	if (cid->month == 0)
		return NULL;
	return g_strdup_printf("%04u-%02u", cid->year, cid->month);
}

/* TRAN_SPEED → Hz, as the kernel's mmc_decode_csd */
static guint64
sdt_csd_decode_tran_speed(guint tran_speed)
{
	static const guint exp[] = {10000, 100000, 1000000, 10000000};
	static const guint mant[] = {0, 10, 12, 13, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 70, 80};
	guint e = tran_speed & 0x7;
	guint m = (tran_speed >> 3) & 0xf;

	if (e >= G_N_ELEMENTS(exp))
		return 0;
	return (guint64) exp[e] * mant[m];
}

gboolean
sdt_card_regs_csd_parse(const gchar *hex, SdtCsd *csd, GError **error)
{
	guint8 b[SDT_CSD_BYTES];
	gsize n = sizeof(b);

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	memset(csd, 0, sizeof(*csd));
	if (!sdt_card_regs_unhex(hex, "CSD", b, n, error))
		return FALSE;
	csd->structure = (guint) sdt_card_regs_bits(b, n, 127, 126);
	csd->tran_speed = b[3];
	csd->max_dtr_hz = sdt_csd_decode_tran_speed(csd->tran_speed);
	csd->ccc = (guint) sdt_card_regs_bits(b, n, 95, 84);
	csd->read_bl_len = (guint) sdt_card_regs_bits(b, n, 83, 80);
	csd->perm_write_protect = sdt_card_regs_bits(b, n, 13, 13);
	csd->tmp_write_protect = sdt_card_regs_bits(b, n, 12, 12);
	switch (csd->structure) {
	case 0:
		csd->c_size = (guint32) sdt_card_regs_bits(b, n, 73, 62);
		csd->c_size_mult = (guint) sdt_card_regs_bits(b, n, 49, 47);
		csd->capacity_bytes = ((guint64) csd->c_size + 1)
				      << (csd->c_size_mult + 2 + csd->read_bl_len);
		break;
	case 1:
		csd->c_size = (guint32) sdt_card_regs_bits(b, n, 69, 48);
		csd->capacity_bytes = ((guint64) csd->c_size + 1) * 512 * 1024;
		break;
	case 2:
		csd->c_size = (guint32) sdt_card_regs_bits(b, n, 75, 48);
		csd->capacity_bytes = ((guint64) csd->c_size + 1) * 512 * 1024;
		break;
	default:
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("CSD structure version %u is reserved"),
			    csd->structure);
		return FALSE;
	}
	return TRUE;
}

gboolean
sdt_card_regs_scr_parse(const gchar *hex, SdtScr *scr, GError **error)
{
	guint8 b[SDT_SCR_BYTES];
	gsize n = sizeof(b);

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	memset(scr, 0, sizeof(*scr));
	if (!sdt_card_regs_unhex(hex, "SCR", b, n, error))
		return FALSE;
	scr->structure = (guint) sdt_card_regs_bits(b, n, 63, 60);
	if (scr->structure != 0) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("SCR structure version %u is not defined"),
			    scr->structure);
		return FALSE;
	}
	scr->sd_spec = (guint) sdt_card_regs_bits(b, n, 59, 56);
	scr->data_stat_after_erase = sdt_card_regs_bits(b, n, 55, 55);
	scr->security = (guint) sdt_card_regs_bits(b, n, 54, 52);
	scr->bus_widths = (guint) sdt_card_regs_bits(b, n, 51, 48);
	/* the kernel reads the newer fields only when the older ones say they exist */
	if (scr->sd_spec == 2)
		scr->sd_spec3 = sdt_card_regs_bits(b, n, 47, 47);
	if (scr->sd_spec3) {
		scr->sd_spec4 = sdt_card_regs_bits(b, n, 42, 42);
		scr->sd_specx = (guint) sdt_card_regs_bits(b, n, 41, 38);
	}
	if (scr->sd_spec4)
		scr->cmd_support = (guint) sdt_card_regs_bits(b, n, 35, 32);
	else if (scr->sd_spec3)
		scr->cmd_support = (guint) sdt_card_regs_bits(b, n, 33, 32);
	scr->cmd20 = (scr->cmd_support & 0x1) != 0;
	scr->cmd23 = (scr->cmd_support & 0x2) != 0;
	scr->cmd48 = (scr->cmd_support & 0x4) != 0;
	scr->cmd58 = (scr->cmd_support & 0x8) != 0;
	return TRUE;
}

const gchar *
sdt_card_regs_scr_get_spec_version(const SdtScr *scr)
{
	static const gchar *specx[] = {NULL, "5.xx", "6.xx", "7.xx", "8.xx", "9.xx"};

	if (scr->sd_spec == 0)
		return "1.0x";
	if (scr->sd_spec == 1)
		return "1.10";
	if (!scr->sd_spec3)
		return "2.00";
	if (scr->sd_specx > 0 && scr->sd_specx < G_N_ELEMENTS(specx))
		return specx[scr->sd_specx];
	if (scr->sd_specx >= G_N_ELEMENTS(specx))
		return "unknown";
	if (scr->sd_spec4)
		return "4.xx";
	return "3.0x";
}

static gboolean
sdt_card_regs_all_zero(const guint8 *b, gsize n)
{
	for (gsize i = 0; i < n; i++) {
		if (b[i] != 0)
			return FALSE;
	}
	return TRUE;
}

/* V6 ... V90, 0 for none; -1 for a value the spec does not define */
static gint
sdt_ssr_video_class(guint raw)
{
	switch (raw) {
	case 0:
	case 6:
	case 10:
	case 30:
	case 60:
	case 90:
		return (gint) raw;
	default:
		return -1;
	}
}

gboolean
sdt_card_regs_ssr_parse(const gchar *hex, SdtSsr *ssr, GError **error)
{
	static const gint speed_classes[] = {0, 2, 4, 6, 10};
	/* AU sizes in KiB, index = AU_SIZE (kernel sd_au_size[]) */
	static const guint au_kib[] = {0,
				       16,
				       32,
				       64,
				       128,
				       256,
				       512,
				       1024,
				       2048,
				       4096,
				       8192,
				       12288,
				       16384,
				       24576,
				       32768,
				       65536};
	guint8 b[SDT_SSR_BYTES];
	gsize n = sizeof(b);

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	memset(ssr, 0, sizeof(*ssr));
	if (!sdt_card_regs_unhex(hex, "SSR", b, n, error))
		return FALSE;
	if (sdt_card_regs_all_zero(b, n)) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("SSR is all zeros (an emulated card, or a card that did not "
				      "answer the SD Status request)"));
		return FALSE;
	}
	ssr->dat_bus_width = (guint) sdt_card_regs_bits(b, n, 511, 510);
	ssr->card_type = (guint) sdt_card_regs_bits(b, n, 495, 480);
	ssr->speed_class_raw = (guint) sdt_card_regs_bits(b, n, 447, 440);
	ssr->speed_class = ssr->speed_class_raw < G_N_ELEMENTS(speed_classes)
				   ? speed_classes[ssr->speed_class_raw]
				   : -1;
	ssr->performance_move = (guint) sdt_card_regs_bits(b, n, 439, 432);
	ssr->au_size_raw = (guint) sdt_card_regs_bits(b, n, 431, 428);
	ssr->au_size_bytes = (guint64) au_kib[ssr->au_size_raw] * 1024;
	ssr->erase_size = (guint) sdt_card_regs_bits(b, n, 423, 408);
	ssr->erase_timeout = (guint) sdt_card_regs_bits(b, n, 407, 402);
	ssr->erase_offset = (guint) sdt_card_regs_bits(b, n, 401, 400);
	ssr->uhs_grade_raw = (guint) sdt_card_regs_bits(b, n, 399, 396);
	ssr->uhs_grade =
		(ssr->uhs_grade_raw == 0 || ssr->uhs_grade_raw == 1 || ssr->uhs_grade_raw == 3)
			? (gint) ssr->uhs_grade_raw
			: -1;
	ssr->video_class_raw = (guint) sdt_card_regs_bits(b, n, 391, 384);
	ssr->video_class = sdt_ssr_video_class(ssr->video_class_raw);
	ssr->app_class_raw = (guint) sdt_card_regs_bits(b, n, 339, 336);
	ssr->app_class = ssr->app_class_raw <= 2 ? (gint) ssr->app_class_raw : -1;
	/* PERFORMANCE_ENHANCE: b0 card maintenance, b1 host maintenance, b2 cache,
	 * b7:3 command queue depth − 1 (0 = none) */
	ssr->performance_enhance = (guint) sdt_card_regs_bits(b, n, 335, 328);
	ssr->card_maintenance = (ssr->performance_enhance & 0x1) != 0;
	ssr->host_maintenance = (ssr->performance_enhance & 0x2) != 0;
	ssr->cache = (ssr->performance_enhance & 0x4) != 0;
	ssr->cq_depth =
		(ssr->performance_enhance >> 3) != 0 ? (ssr->performance_enhance >> 3) + 1 : 0;
	ssr->discard = sdt_card_regs_bits(b, n, 313, 313);
	ssr->fule = sdt_card_regs_bits(b, n, 312, 312);
	return TRUE;
}

gboolean
sdt_card_regs_ext_byte_parse(const gchar *hex, guint8 *value, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	/* Translators: the subject of “%s is missing” and the like; CID, CSD, SCR and
	 * SSR, the other registers, are names and stay as they are */
	return sdt_card_regs_unhex(hex, _("extension register byte"), value, 1, error);
}
