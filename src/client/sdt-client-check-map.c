/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-client-check-map.h"
#include "sdt-client-check-map-private.h"
#include "sdt-l10n.h"

/* the engine's words for the states (sdt-check-result.h), in the order of the enum */
static const gchar *const sdt_client_check_map_states[] = {
	"ok",
	"wrap",
	"lost-writes",
	"io-error",
	"corrupted",
	"untested",
};

SdtClientMapState
sdt_client_check_map_state_from_string(const gchar *state)
{
	for (guint i = 0; i < G_N_ELEMENTS(sdt_client_check_map_states); i++)
		if (g_strcmp0(state, sdt_client_check_map_states[i]) == 0)
			return (SdtClientMapState) i;
	return SDT_CLIENT_MAP_OTHER;
}

const gchar *
sdt_client_check_map_state_label(SdtClientMapState state)
{
	switch (state) {
	case SDT_CLIENT_MAP_OK:
		/* Translators: a region of the card's map: written, read back right, put back */
		return _("holds data");
	case SDT_CLIENT_MAP_WRAP:
		/* Translators: a region of the card's map where the card shows a lower address
		 * again (a fake card) */
		return _("wraps to a lower address");
	case SDT_CLIENT_MAP_ZEROS:
		/* Translators: a region of the card's map */
		return _("reads back zeros");
	case SDT_CLIENT_MAP_FAIL:
		/* Translators: a region of the card's map where reading or writing fails */
		return _("fails");
	case SDT_CLIENT_MAP_CORRUPTED:
		/* Translators: a region of the card's map */
		return _("reads back changed");
	case SDT_CLIENT_MAP_UNTESTED:
		/* Translators: a region of the card's map the check did not look at */
		return _("not probed");
	case SDT_CLIENT_MAP_OTHER:
	case SDT_CLIENT_MAP_N_STATES:
	default:
		break;
	}
	/* Translators: a region of the card's map in a state this version does not know */
	return _("unknown");
}

void
sdt_client_check_map_free(SdtClientCheckMap *map)
{
	if (map == NULL)
		return;
	g_array_unref(map->runs);
	g_free(map);
}

static gint
sdt_client_check_map_compare(gconstpointer a, gconstpointer b)
{
	const SdtClientMapRun *ra = a;
	const SdtClientMapRun *rb = b;

	return ra->from < rb->from ? -1 : ra->from > rb->from ? 1 : 0;
}

/* in order, cut to [0, claimed), no overlap (an earlier run keeps its addresses), the
 * neighbours of one state joined */
static void
sdt_client_check_map_tidy(SdtClientCheckMap *map, GArray *raw)
{
	gint64 end = 0;

	g_array_sort(raw, sdt_client_check_map_compare);
	for (guint i = 0; i < raw->len; i++) {
		SdtClientMapRun r = g_array_index(raw, SdtClientMapRun, i);
		SdtClientMapRun *last =
			map->runs->len > 0
				? &g_array_index(map->runs, SdtClientMapRun, map->runs->len - 1)
				: NULL;

		r.from = MAX(r.from, end);
		r.to = MIN(r.to, map->claimed_bytes);
		if (r.to <= r.from)
			continue;
		if (last != NULL && last->state == r.state && last->to == r.from)
			last->to = r.to;
		else
			g_array_append_val(map->runs, r);
		end = r.to;
	}
}

SdtClientCheckMap *
sdt_client_check_map_new(const SdtCheckResult *result)
{
	g_return_val_if_fail(result != NULL, NULL);
	SdtClientCheckMap *map = g_new0(SdtClientCheckMap, 1);
	g_autoptr(GArray) raw = g_array_new(FALSE, FALSE, sizeof(SdtClientMapRun));

	map->runs = g_array_new(FALSE, FALSE, sizeof(SdtClientMapRun));
	map->claimed_bytes = result->claimed_bytes;
	for (guint i = 0; i < result->map->len; i++) {
		const SdtCheckResultRegion *region = g_ptr_array_index(result->map, i);
		SdtClientMapRun r = {
			.from = region->from,
			.to = region->to,
			.state = sdt_client_check_map_state_from_string(region->state),
		};
		g_array_append_val(raw, r);
	}
	/* a document without the claimed size: as wide as its runs */
	if (map->claimed_bytes <= 0)
		for (guint i = 0; i < raw->len; i++)
			map->claimed_bytes =
				MAX(map->claimed_bytes, g_array_index(raw, SdtClientMapRun, i).to);
	sdt_client_check_map_tidy(map, raw);
	return map;
}

gchar *
sdt_client_check_map_describe(const SdtClientCheckMap *map)
{
	g_return_val_if_fail(map != NULL, NULL);
	g_autoptr(GString) text = NULL;

	if (map->runs->len == 0)
		return NULL;
	text = g_string_new(NULL);
	for (guint i = 0; i < map->runs->len; i++) {
		const SdtClientMapRun *r = &g_array_index(map->runs, SdtClientMapRun, i);
		g_autofree gchar *from = g_format_size((guint64) r->from);
		g_autofree gchar *to = g_format_size((guint64) r->to);

		/* no space between sentences in Chinese or Japanese */
		if (i > 0)
			g_string_append(text, sdt_l10n_sentence_gap(text->str));
		/* Translators: a run of the card's map: its first and last address as sizes
		 * ("734.0 MB"), then what it does ("holds data") */
		g_string_append_printf(text,
				       _("From %s to %s: %s."),
				       from,
				       to,
				       sdt_client_check_map_state_label(r->state));
	}
	return g_string_free(g_steal_pointer(&text), FALSE);
}
