/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SDT_TYPE_DEVICES_PAGE (sdt_devices_page_get_type())
G_DECLARE_FINAL_TYPE(SdtDevicesPage, sdt_devices_page, SDT, DEVICES_PAGE, GtkBox)

/*
 * The cards in USB readers and other slots (issue 34): the helper's GetDevices, one row per
 * device with what it is, whether it can be checked or why not, and what is on it. The
 * page listens to udev's block events itself (sdt-client-device-monitor) and asks again when a
 * card or reader comes or goes. Construct-only property "session" (SdtSession).
 */

G_END_DECLS
