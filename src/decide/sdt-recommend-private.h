/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-recommend.h"

G_BEGIN_DECLS

/*
 * What src/decide shares of sdt-recommend only among its own files and its tests (the
 * public interface is sdt-recommend.h).  Private to src/decide: tests/check-shape.py
 * fails any other file that includes it.
 */

guint sdt_recommend_core_clock(const SdtRecommendFacts *facts, SdtCoreClockSource *source);

G_END_DECLS
