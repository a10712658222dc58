/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-device-offer.h"

G_BEGIN_DECLS

/*
 * What src/platform shares of sdt-device-offer only among its own files and its tests
 * (the public interface is sdt-device-offer.h).  Private to src/platform:
 * tests/check-shape.py fails any other file that includes it.
 */

/* the pure decision: offered, or the first reason in the order of SdtDeviceOffer */
SdtDeviceOffer sdt_device_offer_decide(const SdtDeviceOfferFacts *facts);

G_END_DECLS
