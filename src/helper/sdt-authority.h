/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* the polkit actions of polkit/org.example.sdtuner.policy.in */
#define SDT_ACTION_BENCHMARK          "org.example.sdtuner.benchmark"
#define SDT_ACTION_MODIFY_BOOT_CONFIG "org.example.sdtuner.modify-boot-config"
#define SDT_ACTION_CHECK              "org.example.sdtuner.check"
#define SDT_ACTION_CHECK_DEVICE       "org.example.sdtuner.check-device"

#define SDT_TYPE_AUTHORITY (sdt_authority_get_type())
G_DECLARE_FINAL_TYPE(SdtAuthority, sdt_authority, SDT, AUTHORITY, GObject)

/*
 * Asks polkitd whether the D-Bus client @bus_name (a unique name such as
 * ":1.42") may do @action_id.  The subject is the bus name, so polkitd looks
 * up the caller's process itself and nothing the caller sends is trusted.
 * Fails closed: polkitd not running or not answering is NotAuthorized too,
 * for root as well.
 */
SdtAuthority *sdt_authority_new(void);
void sdt_authority_check_async(SdtAuthority *self,
			       const gchar *bus_name,
			       const gchar *action_id,
			       gboolean interactive,
			       GCancellable *cancellable,
			       GAsyncReadyCallback callback,
			       gpointer user_data);
gboolean sdt_authority_check_finish(SdtAuthority *self, GAsyncResult *res, GError **error);

G_END_DECLS
