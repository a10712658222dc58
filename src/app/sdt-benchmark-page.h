/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SDT_TYPE_BENCHMARK_PAGE (sdt_benchmark_page_get_type())
G_DECLARE_FINAL_TYPE(SdtBenchmarkPage, sdt_benchmark_page, SDT, BENCHMARK_PAGE, GtkBox)

/* Benchmark button, progress, live rate graph and the results table */

G_END_DECLS
