/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-verify.h"

G_BEGIN_DECLS

/*
 * What src/decide shares of sdt-verify only among its own files and its tests (the
 * public interface is sdt-verify.h).  Private to src/decide: tests/check-shape.py
 * fails any other file that includes it.
 */

guint sdt_verify_log_errors(const SdtVerifyLog *log);

/*
 * The next divisor step below sd-overclock-@mhz on an sdhost core of
 * @core_hz: the sd_overclock value (MHz) that gives core / (n + 1) where
 * core / n is the clock of @mhz, or 0 when that is at or below 50 MHz (the
 * card's own high-speed clock: no overclock left to step down to).
 */
guint sdt_verify_next_step_mhz(guint64 core_hz, guint mhz);

G_END_DECLS
