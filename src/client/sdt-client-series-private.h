/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-client-series.h"

G_BEGIN_DECLS

/*
 * What src/client shares of sdt-client-series only among its own files and its tests
 * (the public interface is sdt-client-series.h).  Private to src/client:
 * tests/check-shape.py fails any other file that includes it.
 */

/*
 * The "series" of a `history --json` document into @out (of SdtClientSeries); absent
 * (an older helper) is none.  Read leniently, as the history's entries: an element or
 * member of the wrong type is left out and the first such is reported in @error, and
 * the rest is read (returns FALSE then).
 */
gboolean sdt_client_series_read(JsonObject *obj, GPtrArray *out, GError **error);

G_END_DECLS
