/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-client.h"

GVariant *
sdt_client_no_options(void)
{
	return g_variant_new_array(G_VARIANT_TYPE("{sv}"), NULL, 0);
}
