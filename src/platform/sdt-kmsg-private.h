/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-kmsg.h"

G_BEGIN_DECLS

/*
 * What src/platform shares of sdt-kmsg only among its own files and its tests (the
 * public interface is sdt-kmsg.h).  Private to src/platform: tests/check-shape.py
 * fails any other file that includes it.
 */

void sdt_kmsg_facts_init(SdtKmsgFacts *facts);
void sdt_kmsg_facts_clear(SdtKmsgFacts *facts);

/*
 * Collects the facts of the lines about @host ("mmc0") and @disk ("mmcblk0");
 * %NULL for either matches any mmcN / mmcblkN.
 */
void
sdt_kmsg_facts_scan(SdtKmsgFacts *facts, GPtrArray *records, const gchar *host, const gchar *disk);

G_END_DECLS
