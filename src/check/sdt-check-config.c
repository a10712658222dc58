/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sdt-check-config.h"
#include "sdt-check-config-private.h"
#include "sdt-error.h"

#define SDT_CHECK_CONFIG_MIB (G_GUINT64_CONSTANT(1) << 20)

void
sdt_check_config_init(SdtCheckConfig *config, SdtCheckMode mode)
{
	memset(config, 0, sizeof(*config));
	config->mode = mode;
	config->n_samples = 256;
	config->dir_owner = -1;
}

gboolean
sdt_check_config_mode_from_string(const gchar *name, SdtCheckMode *mode, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	if (g_strcmp0(name, "quick") == 0) {
		*mode = SDT_CHECK_MODE_QUICK;
		return TRUE;
	}
	if (g_strcmp0(name, "full") == 0) {
		*mode = SDT_CHECK_MODE_FULL;
		return TRUE;
	}
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_ARGUMENT,
		    _("Unknown check mode “%s”: use quick or full"),
		    name != NULL ? name : "");
	return FALSE;
}

gboolean
sdt_check_config_fs_supported(const gchar *filesystem)
{
	/* FIEMAP's fe_physical is an offset on the file system's own block device
	 * only where one file system sits on one device: btrfs reports its
	 * logical addresses, so a raw write there would land elsewhere */
	const gchar *ok[] = {"ext4", "vfat", "xfs", "f2fs", NULL};
	return filesystem != NULL && g_strv_contains(ok, filesystem);
}

gint
sdt_check_config_cmp_u64(gconstpointer a, gconstpointer b)
{
	guint64 x = *(const guint64 *) a;
	guint64 y = *(const guint64 *) b;
	return x < y ? -1 : x > y ? 1 : 0;
}

GArray *
sdt_check_config_candidate_sizes(guint64 claim)
{
	static const guint marketing_gb[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048};
	static const guint marketing_mb[] = {16, 32, 64, 128, 256, 512};
	GArray *sizes = g_array_new(FALSE, FALSE, sizeof(guint64));

	for (guint64 c = SDT_CHECK_CONFIG_MIB; c < claim; c <<= 1)
		g_array_append_val(sizes, c);
	for (guint i = 0; i < G_N_ELEMENTS(marketing_gb); i++) {
		guint64 c = (guint64) marketing_gb[i] * 1000000000;
		if (c < claim)
			g_array_append_val(sizes, c);
	}
	for (guint i = 0; i < G_N_ELEMENTS(marketing_mb); i++) {
		guint64 c = (guint64) marketing_mb[i] * 1000000;
		if (c < claim)
			g_array_append_val(sizes, c);
	}
	g_array_sort(sizes, sdt_check_config_cmp_u64);
	return sizes;
}
