/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-block-preview.h"
#include "sdt-config-txt.h"
#include "sdt-config-edit.h"

gchar *
sdt_block_preview(const gchar *id, const gchar *filter, const gchar *const *lines, GError **error)
{
	g_autoptr(GBytes) empty = g_bytes_new_static("", 0);
	g_autoptr(SdtConfigTxt) cfg = sdt_config_txt_new_from_bytes(empty, "config.txt");
	g_autoptr(SdtConfigEdit) edit = NULL;
	SdtConfigBlock block = {
		.id = id,
		.filter = filter,
		.lines = lines,
		.type_code = 0, /* the empty file has no lines whose reach could matter */
		.replaces = SDT_CONFIG_SD_NONE,
	};
	gsize len = 0;
	const gchar *data;

	g_return_val_if_fail(id != NULL && filter != NULL && lines != NULL, NULL);
	edit = sdt_config_edit_apply(cfg, &block, NULL, error);
	if (edit == NULL)
		return NULL;
	data = g_bytes_get_data(edit->new_bytes, &len);
	return g_strndup(data, len);
}
