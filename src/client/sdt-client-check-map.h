/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-check-result.h"

G_BEGIN_DECLS

/*
 * The map of a whole card a check wrote (`check --device`, issue 34; DESIGN.md "map"), for
 * the app's picture and its words: ascending runs [from, to) of the card's addresses, each
 * in one state.  Lenient where a newer helper may say more: a state this client does not
 * know is SDT_CLIENT_MAP_OTHER, never an error.
 */
typedef enum {
	SDT_CLIENT_MAP_OK,        /* "ok": written, read back right, put back: holds data */
	SDT_CLIENT_MAP_WRAP,      /* "wrap": shows a lower address again */
	SDT_CLIENT_MAP_ZEROS,     /* "lost-writes": reads back zeros */
	SDT_CLIENT_MAP_FAIL,      /* "io-error": fails */
	SDT_CLIENT_MAP_CORRUPTED, /* "corrupted": reads back changed */
	SDT_CLIENT_MAP_UNTESTED,  /* "untested": not probed */
	SDT_CLIENT_MAP_OTHER,     /* a state this client does not know */
	SDT_CLIENT_MAP_N_STATES,
} SdtClientMapState;

typedef struct {
	gint64 from; /* bytes */
	gint64 to;
	SdtClientMapState state;
} SdtClientMapRun;

typedef struct {
	gint64 claimed_bytes; /* the size the card claims: the map's whole width */
	GArray *runs;         /* SdtClientMapRun, ascending, within [0, claimed_bytes), the
			       * neighbours of one state joined; empty: the result has no map */
} SdtClientCheckMap;

/*
 * The map of a check result (the `check --json` document or a history entry, read with
 * its codec): its claimed size and map.  A result without a map gives an empty one; runs
 * out of order, overlapping or past the claimed size are put in order and cut to it.
 */
SdtClientCheckMap *sdt_client_check_map_new(const SdtCheckResult *result);
void sdt_client_check_map_free(SdtClientCheckMap *map);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtClientCheckMap, sdt_client_check_map_free)

/* translated: what a state means, for the legend and the words ("holds data") */
const gchar *sdt_client_check_map_state_label(SdtClientMapState state);

/* translated: the map in words, one sentence a run, from the card's start: "From 0 bytes
 * to 734.0 MB: holds data. From 734.0 MB to 1.0 GB: wraps to a lower address."; NULL
 * for an empty map */
gchar *sdt_client_check_map_describe(const SdtClientCheckMap *map);

G_END_DECLS
