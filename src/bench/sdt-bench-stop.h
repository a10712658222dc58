/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The stopping rule of an adaptive test (the quick profile): a test ends as
 * soon as its figure is settled, i.e. the confidence interval of its rate is
 * within ±target at SDT_BENCH_STOP_CONFIDENCE, after at least a minimum of
 * slices and of time; its limits (the end of the file, a time cap) still apply.
 *
 * The rate is the slope of completed bytes over time, sampled at the first
 * completion and then at the completion that ends each slice (at least
 * @slice_ns long, or @slice_bytes when that comes first); its confidence
 * interval comes from the points' scatter around their least-squares line
 * (Student's t).  The mean of the slices' own rates would do on a device
 * with independent slices; a throttle or a card's controller making up for a
 * slow slice with a fast one makes the slices' rates scatter far more than
 * the rate over the whole run does.
 */

/* the confidence level of every interval the engine reports, in percent */
#define SDT_BENCH_STOP_CONFIDENCE 95

/* why a test ended: the record's "stopped" member */
typedef enum {
	SDT_BENCH_STOP_NONE,    /* it did not end (failed or cancelled) */
	SDT_BENCH_STOP_LENGTH,  /* the end of its file or device ("length") */
	SDT_BENCH_STOP_CAP,     /* its time limit ("time-limit") */
	SDT_BENCH_STOP_SETTLED, /* the stopping rule ("settled") */
} SdtBenchStopReason;

typedef struct {
	gint64 slice_ns;     /* a slice ends at the first completion after this long ... */
	guint64 slice_bytes; /* ... or after this many bytes (0: time only) */
	gint64 t0;           /* the first point */
	gint64 t;            /* the last point */
	guint64 b;           /* bytes at the last point */
	guint n;             /* points */
	gdouble st, sb, stt, stb, sbb; /* sums of t, b (s, MiB), t², t·b, b² */
} SdtBenchStop;

G_END_DECLS
