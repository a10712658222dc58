/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sdt-bench-stop.h"
#include "sdt-bench-stop-private.h"

/* Student's t, two-sided 95% (SDT_BENCH_STOP_CONFIDENCE), by degrees of freedom */
static gdouble
sdt_bench_stop_t95(guint df)
{
	static const gdouble t[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447,
				    2.365, 2.306,  2.262, 2.228, 2.201, 2.179, 2.160,
				    2.145, 2.131,  2.120, 2.110, 2.101, 2.093, 2.086};
	if (df < G_N_ELEMENTS(t))
		return t[df];
	return df < 30 ? 2.06 : df < 60 ? 2.02 : 1.98;
}

void
sdt_bench_stop_init(SdtBenchStop *stop, gint64 slice_ns, guint64 slice_bytes)
{
	memset(stop, 0, sizeof(*stop));
	stop->slice_ns = slice_ns;
	stop->slice_bytes = slice_bytes;
}

static void
sdt_bench_stop_point(SdtBenchStop *stop, gint64 t_ns, guint64 bytes)
{
	gdouble x;
	gdouble y;

	if (stop->n == 0)
		stop->t0 = t_ns;
	stop->t = t_ns;
	stop->b = bytes;
	x = (gdouble) (t_ns - stop->t0) / 1e9;
	y = (gdouble) bytes / (1024.0 * 1024.0);
	stop->n++;
	stop->st += x;
	stop->sb += y;
	stop->stt += x * x;
	stop->stb += x * y;
	stop->sbb += y * y;
}

gboolean
sdt_bench_stop_add(SdtBenchStop *stop, gint64 t_ns, guint64 bytes)
{
	if (stop->n > 0 && t_ns - stop->t < stop->slice_ns &&
	    (stop->slice_bytes == 0 || bytes - stop->b < stop->slice_bytes))
		return FALSE;
	sdt_bench_stop_point(stop, t_ns, bytes);
	return TRUE;
}

void
sdt_bench_stop_add_last(SdtBenchStop *stop, gint64 t_ns, guint64 bytes)
{
	if (stop->n == 0 || (t_ns > stop->t && bytes >= stop->b))
		sdt_bench_stop_point(stop, t_ns, bytes);
}

gdouble
sdt_bench_stop_rate(const SdtBenchStop *stop)
{
	gdouble n = stop->n;
	gdouble sxx;
	gdouble sxy;

	if (stop->n < 2)
		return -1;
	sxx = stop->stt - stop->st * stop->st / n;
	sxy = stop->stb - stop->st * stop->sb / n;
	if (sxx <= 0 || sxy < 0)
		return -1;
	return sxy / sxx * 1024.0 * 1024.0;
}

guint
sdt_bench_stop_slices(const SdtBenchStop *stop)
{
	return stop->n > 0 ? stop->n - 1 : 0;
}

gdouble
sdt_bench_stop_ci(const SdtBenchStop *stop)
{
	gdouble n = stop->n;
	gdouble sxx;
	gdouble sxy;
	gdouble syy;
	gdouble slope;
	gdouble sse;

	if (stop->n < 3)
		return -1;
	sxx = stop->stt - stop->st * stop->st / n;
	sxy = stop->stb - stop->st * stop->sb / n;
	syy = stop->sbb - stop->sb * stop->sb / n;
	if (sxx <= 0 || sxy <= 0)
		return -1;
	slope = sxy / sxx;
	sse = MAX(syy - slope * sxy, 0.0);
	return sdt_bench_stop_t95(stop->n - 2) * sqrt(sse / (n - 2) / sxx) / slope * 100;
}

gboolean
sdt_bench_stop_settled(const SdtBenchStop *stop, gdouble target_percent, guint min_slices)
{
	gdouble ci;

	if (target_percent <= 0 || sdt_bench_stop_slices(stop) < MAX(min_slices, 2))
		return FALSE;
	ci = sdt_bench_stop_ci(stop);
	return ci >= 0 && ci <= target_percent;
}

const gchar *
sdt_bench_stop_reason_to_string(SdtBenchStopReason reason)
{
	switch (reason) {
	case SDT_BENCH_STOP_LENGTH:
		return "length";
	case SDT_BENCH_STOP_CAP:
		return "time-limit";
	case SDT_BENCH_STOP_SETTLED:
		return "settled";
	default:
		return NULL;
	}
}
