/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-board.h"
#include "sdt-board-private.h"
#include "sdt-error.h"

/* the Model B rev 2 has its own board string */
static const struct {
	const gchar *compatible;
	guint type_code;
} sdt_board_compatible_aliases[] = {
	{"raspberrypi,model-b-rev2", 0x01},
};

/* PLATFORM.md §1.5: old-style code → equivalent type code */
/* clang-format off */
static const struct {
	guint32 code;
	guint type_code;
} sdt_board_old_codes[] = {
	{0x0002, 0x01}, {0x0003, 0x01}, {0x0004, 0x01}, {0x0005, 0x01}, {0x0006, 0x01},
	{0x000d, 0x01}, {0x000e, 0x01}, {0x000f, 0x01}, {0x0007, 0x00}, {0x0008, 0x00},
	{0x0009, 0x00}, {0x0010, 0x03}, {0x0013, 0x03}, {0x0011, 0x06}, {0x0014, 0x06},
	{0x0012, 0x02}, {0x0015, 0x02},
};
/* clang-format on */

static const gchar *sdt_board_processors[] = {"BCM2835",
					      "BCM2836",
					      "BCM2837",
					      "BCM2711",
					      "BCM2712"};

static const gchar *sdt_board_makers[] =
	{"Sony UK", "Egoman", "Embest", "Sony Japan", "Embest", "Stadium"};

static const guint sdt_board_memory_mb[] = {256, 512, 1024, 2048, 4096, 8192, 16384};

/* SoC compatible prefixes: enough to pick the SD controller (PLATFORM.md §1.7) */
static const struct {
	const gchar *prefix;
	const gchar *soc;
	SdtSdController controller;
} sdt_board_socs[] = {
	{"brcm,bcm2835", "BCM2835", SDT_SD_CONTROLLER_SDHOST},
	{"brcm,bcm2836", "BCM2836", SDT_SD_CONTROLLER_SDHOST},
	{"brcm,bcm2837", "BCM2837", SDT_SD_CONTROLLER_SDHOST},
	{"brcm,bcm2711", "BCM2711", SDT_SD_CONTROLLER_EMMC2},
	{"brcm,bcm2712", "BCM2712", SDT_SD_CONTROLLER_SDHCI_BRCMSTB},
};

const gchar *
sdt_board_sd_controller_to_string(SdtSdController controller)
{
	switch (controller) {
	case SDT_SD_CONTROLLER_SDHOST:
		return "sdhost";
	case SDT_SD_CONTROLLER_EMMC2:
		return "emmc2";
	case SDT_SD_CONTROLLER_SDHCI_BRCMSTB:
		return "sdhci-brcmstb";
	case SDT_SD_CONTROLLER_UNKNOWN:
	default:
		return "unknown";
	}
}

const gchar *
sdt_board_source_to_string(SdtBoardSource source)
{
	switch (source) {
	case SDT_BOARD_SOURCE_DT_REVISION:
		return "device-tree-revision";
	case SDT_BOARD_SOURCE_CPUINFO:
		return "cpuinfo";
	case SDT_BOARD_SOURCE_COMPATIBLE:
		return "compatible";
	case SDT_BOARD_SOURCE_MODEL:
		return "model";
	case SDT_BOARD_SOURCE_NONE:
	default:
		return NULL;
	}
}

gboolean
sdt_board_revision_decode(guint32 code, SdtRevision *rev)
{
	memset(rev, 0, sizeof(*rev));
	rev->code = code;
	if ((code >> 23) & 1) {
		guint mem = (code >> 20) & 0x7;
		guint maker = (code >> 16) & 0xf;

		rev->new_style = TRUE;
		rev->type_code = (code >> 4) & 0xff;
		rev->revision = code & 0xf;
		rev->processor = (code >> 12) & 0xf;
		rev->memory_mb =
			mem < G_N_ELEMENTS(sdt_board_memory_mb) ? sdt_board_memory_mb[mem] : 0;
		rev->maker =
			maker < G_N_ELEMENTS(sdt_board_makers) ? sdt_board_makers[maker] : NULL;
		return rev->processor < G_N_ELEMENTS(sdt_board_processors);
	}
	/* overvolted pre-Pi 2 boards carry a 0x1000000 prefix */
	for (guint i = 0; i < G_N_ELEMENTS(sdt_board_old_codes); i++) {
		if (sdt_board_old_codes[i].code == (code & 0xffffff)) {
			rev->type_code = sdt_board_old_codes[i].type_code;
			return TRUE;
		}
	}
	return FALSE;
}

static void
sdt_board_warn(GPtrArray *warnings, gchar *msg)
{
	if (warnings != NULL)
		g_ptr_array_add(warnings, msg);
	else
		g_free(msg);
}

/* a device-tree string: printable UTF-8 without control characters, trailing NULs dropped */
static gchar *
sdt_board_dt_string(const gchar *data, gsize len)
{
	while (len > 0 && data[len - 1] == '\0')
		len--;
	if (len == 0)
		return NULL;
	if (!g_utf8_validate_len(data, len, NULL))
		return NULL;
	for (gsize i = 0; i < len; i++) {
		if (g_ascii_iscntrl(data[i]))
			return NULL;
	}
	return g_strndup(data, len);
}

static gchar **
sdt_board_dt_string_list(const gchar *data, gsize len)
{
	g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func(g_free);
	gsize start = 0;

	while (len > 0 && data[len - 1] == '\0')
		len--;
	if (len == 0)
		return NULL;
	for (gsize i = 0; i <= len; i++) {
		gchar *str;
		if (i < len && data[i] != '\0')
			continue;
		str = sdt_board_dt_string(data + start, i - start);
		if (str == NULL)
			return NULL;
		g_ptr_array_add(list, str);
		start = i + 1;
	}
	g_ptr_array_add(list, NULL);
	return (gchar **) g_ptr_array_free(g_steal_pointer(&list), FALSE);
}

/* the value of the cpuinfo line @name (e.g. `Revision`), or NULL */
static gchar *
sdt_board_cpuinfo_value(const gchar *cpuinfo, gsize len, const gchar *name)
{
	g_autofree gchar *text = g_strndup(cpuinfo, len);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	for (guint i = 0; lines[i] != NULL; i++) {
		g_autofree gchar *key = NULL;
		const gchar *colon = strchr(lines[i], ':');
		if (colon == NULL)
			continue;
		key = g_strstrip(g_strndup(lines[i], colon - lines[i]));
		if (g_strcmp0(key, name) == 0)
			return g_strstrip(g_strdup(colon + 1));
	}
	return NULL;
}

static gboolean
sdt_board_parse_hex32(const gchar *str, guint32 *value)
{
	guint64 tmp = 0;
	gsize len = strlen(str);

	if (len == 0 || len > 8)
		return FALSE;
	for (gsize i = 0; i < len; i++) {
		if (!g_ascii_isxdigit(str[i]))
			return FALSE;
		tmp = (tmp << 4) | g_ascii_xdigit_value(str[i]);
	}
	*value = (guint32) tmp;
	return TRUE;
}

static gboolean
sdt_board_use_revision(SdtBoard *board, guint32 code, SdtBoardSource source, GPtrArray *warnings)
{
	if (!sdt_board_revision_decode(code, &board->revision)) {
		sdt_board_warn(warnings,
			       g_strdup_printf(_("Revision code %04x is not a valid Raspberry Pi "
						 "revision code; it is ignored"),
					       code));
		return FALSE;
	}
	board->has_revision = TRUE;
	board->source = source;
	board->info = sdt_board_model_lookup_type(board->revision.type_code);
	if (board->revision.new_style)
		board->soc = sdt_board_processors[board->revision.processor];
	if (board->info == NULL) {
		sdt_board_warn(warnings,
			       /* Translators: the board type and the revision code, in hex */
			       g_strdup_printf(_("Board type 0x%02x (revision code %06x) is not a "
						 "board SD Tuner knows; it only shows information"),
					       board->revision.type_code,
					       code));
	}
	return TRUE;
}

static const SdtBoardModel *
sdt_board_match_compatible(const gchar *board_string)
{
	guint n_models = 0;
	const SdtBoardModel *models = sdt_board_model_table(&n_models);

	for (guint i = 0; i < n_models; i++) {
		if (g_strcmp0(models[i].compatible, board_string) == 0)
			return &models[i];
	}
	for (guint i = 0; i < G_N_ELEMENTS(sdt_board_compatible_aliases); i++) {
		if (g_strcmp0(sdt_board_compatible_aliases[i].compatible, board_string) == 0)
			return sdt_board_model_lookup_type(
				sdt_board_compatible_aliases[i].type_code);
	}
	return NULL;
}

/* the longest model prefix followed by the end or a space ("… Rev 1.2") */
static const SdtBoardModel *
sdt_board_match_model(const gchar *model)
{
	guint n_models = 0;
	const SdtBoardModel *models = sdt_board_model_table(&n_models);
	const SdtBoardModel *best = NULL;
	gsize best_len = 0;

	for (guint i = 0; i < n_models; i++) {
		const gchar *prefix = models[i].model_prefix;
		gsize len;
		if (prefix == NULL || !g_str_has_prefix(model, prefix))
			continue;
		len = strlen(prefix);
		if (model[len] != '\0' && model[len] != ' ')
			continue;
		if (len > best_len) {
			best = &models[i];
			best_len = len;
		}
	}
	return best;
}

static const gchar *
sdt_board_soc_from_compatible(gchar **compatible, SdtSdController *controller)
{
	for (guint i = 0; compatible != NULL && compatible[i] != NULL; i++) {
		for (guint j = 0; j < G_N_ELEMENTS(sdt_board_socs); j++) {
			if (g_str_has_prefix(compatible[i], sdt_board_socs[j].prefix)) {
				if (controller != NULL)
					*controller = sdt_board_socs[j].controller;
				return sdt_board_socs[j].soc;
			}
		}
	}
	return NULL;
}

/* the model and compatible strings of the device tree, and for display only
 * cpuinfo's name of the board when a kernel without a device tree runs */
static void
sdt_board_read_names(SdtBoard *board,
		     const gchar *cpuinfo,
		     gsize cpuinfo_len,
		     const gchar *compatible,
		     gsize compatible_len,
		     const gchar *model,
		     gsize model_len,
		     GPtrArray *warnings)
{
	if (model != NULL) {
		board->model = sdt_board_dt_string(model, model_len);
		if (board->model == NULL)
			sdt_board_warn(warnings,
				       g_strdup(_("The device-tree model string is empty or not "
						  "readable text; it is ignored")));
	}
	if (compatible != NULL) {
		board->compatible = sdt_board_dt_string_list(compatible, compatible_len);
		if (board->compatible == NULL)
			sdt_board_warn(warnings,
				       g_strdup(_("The device-tree compatible list is empty or not "
						  "readable text; it is ignored")));
	}
	if (board->model == NULL && cpuinfo != NULL) {
		g_autofree gchar *value = sdt_board_cpuinfo_value(cpuinfo, cpuinfo_len, "Model");
		if (value == NULL)
			value = sdt_board_cpuinfo_value(cpuinfo, cpuinfo_len, "Hardware");
		if (value != NULL && value[0] != '\0' && g_utf8_validate(value, -1, NULL))
			board->model = g_steal_pointer(&value);
	}
}

/* 1: the device-tree revision, 4 bytes big-endian */
static gboolean
sdt_board_from_dt_revision(SdtBoard *board, const guint8 *data, gsize len, GPtrArray *warnings)
{
	guint32 code;

	if (len != 4) {
		sdt_board_warn(warnings,
			       g_strdup_printf(ngettext("The device-tree revision has %u "
							"byte instead of 4; "
							"it is ignored",
							"The device-tree revision has %u "
							"bytes instead of 4; "
							"it is ignored",
							(gulong) len),
					       (guint) len));
		return FALSE;
	}
	code = ((guint32) data[0] << 24) | ((guint32) data[1] << 16) | ((guint32) data[2] << 8) |
	       data[3];
	return sdt_board_use_revision(board, code, SDT_BOARD_SOURCE_DT_REVISION, warnings);
}

/* 2: the Revision line of cpuinfo */
static gboolean
sdt_board_from_cpuinfo_revision(SdtBoard *board,
				const gchar *cpuinfo,
				gsize cpuinfo_len,
				GPtrArray *warnings)
{
	g_autofree gchar *value = sdt_board_cpuinfo_value(cpuinfo, cpuinfo_len, "Revision");
	guint32 code = 0;

	if (value != NULL && sdt_board_parse_hex32(value, &code))
		return sdt_board_use_revision(board, code, SDT_BOARD_SOURCE_CPUINFO, warnings);
	if (value != NULL)
		sdt_board_warn(warnings,
			       g_strdup_printf(_("The Revision line of /proc/cpuinfo "
						 "(“%s”) is not a hex number; it is "
						 "ignored"),
					       value));
	return FALSE;
}

/* 3: the compatible board string; 4: the model string, only when nothing else is there */
static gboolean
sdt_board_from_strings(SdtBoard *board)
{
	if (board->compatible != NULL) {
		board->info = sdt_board_match_compatible(board->compatible[0]);
		if (board->info != NULL) {
			board->source = SDT_BOARD_SOURCE_COMPATIBLE;
			return TRUE;
		}
	}
	if (board->model != NULL) {
		board->info = sdt_board_match_model(board->model);
		if (board->info != NULL) {
			board->source = SDT_BOARD_SOURCE_MODEL;
			return TRUE;
		}
	}
	return FALSE;
}

SdtBoard *
sdt_board_new_from_data(const guint8 *dt_revision,
			gsize dt_revision_len,
			const gchar *cpuinfo,
			gsize cpuinfo_len,
			const gchar *compatible,
			gsize compatible_len,
			const gchar *model,
			gsize model_len,
			GPtrArray *warnings)
{
	g_autoptr(SdtBoard) board = g_new0(SdtBoard, 1);
	gboolean identified = FALSE;

	sdt_board_read_names(board,
			     cpuinfo,
			     cpuinfo_len,
			     compatible,
			     compatible_len,
			     model,
			     model_len,
			     warnings);
	if (dt_revision != NULL)
		identified =
			sdt_board_from_dt_revision(board, dt_revision, dt_revision_len, warnings);
	if (!identified && cpuinfo != NULL)
		identified = sdt_board_from_cpuinfo_revision(board, cpuinfo, cpuinfo_len, warnings);
	if (!identified)
		identified = sdt_board_from_strings(board);

	/* the SoC: revision code, else the compatible SoC string, else the model's usual SoC */
	if (board->soc == NULL)
		board->soc = sdt_board_soc_from_compatible(board->compatible, NULL);
	if (board->soc == NULL && board->info != NULL)
		board->soc = board->info->soc;

	if (!identified) {
		sdt_board_warn(warnings,
			       g_strdup(_("This is not a Raspberry Pi SD Tuner knows: it shows "
					  "information only and changes nothing")));
	}
	return g_steal_pointer(&board);
}

/* a device-tree property is a few dozen bytes; cpuinfo ~1 KiB per CPU */
#define SDT_BOARD_DT_MAX_SIZE      (64 * 1024)
#define SDT_BOARD_CPUINFO_MAX_SIZE (4 * 1024 * 1024)

/* a missing file is no warning: kernels without a device tree, boards without a revision */
static gboolean
sdt_board_read(SdtContext *ctx,
	       const gchar *abs_path,
	       gsize max_len,
	       gchar **contents,
	       gsize *len,
	       GPtrArray *warnings)
{
	g_autoptr(GError) error = NULL;

	if (!sdt_context_read_kernel_file(ctx, abs_path, max_len, contents, len, &error)) {
		if (!g_error_matches(error, SDT_ERROR, SDT_ERROR_NOT_FOUND))
			sdt_board_warn(warnings, g_strdup(error->message));
		return FALSE;
	}
	return TRUE;
}

SdtBoard *
sdt_board_detect(SdtContext *ctx, GPtrArray *warnings)
{
	g_autofree gchar *rev = NULL;
	g_autofree gchar *cpuinfo = NULL;
	g_autofree gchar *compatible = NULL;
	g_autofree gchar *model = NULL;
	gsize rev_len = 0, cpuinfo_len = 0, compatible_len = 0, model_len = 0;

	sdt_board_read(ctx,
		       "/proc/device-tree/system/linux,revision",
		       SDT_BOARD_DT_MAX_SIZE,
		       &rev,
		       &rev_len,
		       warnings);
	sdt_board_read(ctx,
		       "/proc/cpuinfo",
		       SDT_BOARD_CPUINFO_MAX_SIZE,
		       &cpuinfo,
		       &cpuinfo_len,
		       warnings);
	sdt_board_read(ctx,
		       "/proc/device-tree/compatible",
		       SDT_BOARD_DT_MAX_SIZE,
		       &compatible,
		       &compatible_len,
		       warnings);
	sdt_board_read(ctx,
		       "/proc/device-tree/model",
		       SDT_BOARD_DT_MAX_SIZE,
		       &model,
		       &model_len,
		       warnings);
	return sdt_board_new_from_data((const guint8 *) rev,
				       rev_len,
				       cpuinfo,
				       cpuinfo_len,
				       compatible,
				       compatible_len,
				       model,
				       model_len,
				       warnings);
}

const gchar *
sdt_board_get_key(const SdtBoard *board)
{
	return board->info != NULL ? board->info->key : "unknown";
}

SdtSdController
sdt_board_get_controller(const SdtBoard *board)
{
	return board->info != NULL ? board->info->controller : SDT_SD_CONTROLLER_UNKNOWN;
}

gchar *
sdt_board_get_revision_string(const SdtBoard *board)
{
	if (!board->has_revision)
		return NULL;
	return g_strdup_printf(board->revision.new_style ? "%06x" : "%04x", board->revision.code);
}

void
sdt_board_free(SdtBoard *board)
{
	if (board == NULL)
		return;
	g_free(board->model);
	g_strfreev(board->compatible);
	g_free(board);
}

/* a clk_rate file holds one decimal number and a newline */
#define SDT_BOARD_CLK_RATE_MAX_SIZE 64

guint64
sdt_board_read_core_clock_hz(SdtContext *ctx, gchar **source)
{
	/* the sdhost node's clock: the firmware clock "core" (clk-raspberrypi
	 * names it fw-clk-core); older kernels: the cprman "vpu" clock
	 * [UNVERIFIED which kernels use which] */
	static const gchar *const paths[] = {"/sys/kernel/debug/clk/fw-clk-core/clk_rate",
					     "/sys/kernel/debug/clk/vpu/clk_rate",
					     NULL};

	for (guint i = 0; paths[i] != NULL; i++) {
		g_autofree gchar *text = NULL;
		guint64 hz = 0;
		gsize len = 0;

		if (!sdt_context_read_kernel_file(ctx,
						  paths[i],
						  SDT_BOARD_CLK_RATE_MAX_SIZE,
						  &text,
						  &len,
						  NULL))
			continue;
		g_strstrip(text);
		/* a core clock runs between 100 MHz and 1 GHz; anything else is not a reading */
		if (!g_ascii_string_to_unsigned(text, 10, 100000000, 1000000000, &hz, NULL))
			continue;
		if (source != NULL)
			*source = g_strdup(paths[i]);
		return hz;
	}
	return 0;
}
