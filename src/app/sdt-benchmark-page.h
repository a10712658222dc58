/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sdt-dbus-generated.h"

G_BEGIN_DECLS

#define SDT_TYPE_BENCHMARK_PAGE (sdt_benchmark_page_get_type())
G_DECLARE_FINAL_TYPE(SdtBenchmarkPage, sdt_benchmark_page, SDT, BENCHMARK_PAGE, GtkBox)

/* Benchmark button, progress, live rate graph and the results table */
void sdt_benchmark_page_set_manager(SdtBenchmarkPage *self, SdtManager *manager);

/* the helper or the bus went away: a running job has failed */
void sdt_benchmark_page_service_vanished(SdtBenchmarkPage *self);

G_END_DECLS
