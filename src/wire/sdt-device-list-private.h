/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-device-list.h"

G_BEGIN_DECLS

/*
 * The functions of the sdt-device-list codec that no other folder calls yet: the codec
 * has them all, and its golden test (tests/wire) runs them; one moves to
 * sdt-device-list.h with its first caller outside src/wire (docs/ARCHITECTURE.md, "The
 * wire layer").  Private to src/wire: tests/check-shape.py fails any other file that
 * includes it.
 */

/* strict, as sdt_device_list_parse() */
SdtDeviceList *sdt_device_list_from_json(JsonObject *obj, GError **error);
JsonNode *sdt_device_list_to_json(const SdtDeviceList *list);

G_END_DECLS
