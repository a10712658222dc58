/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * SdtError:
 *
 * Error codes shared by the library, the helper and its clients.  The domain is
 * registered as a D-Bus error domain, so `SDT_ERROR_BUSY` raised in the helper
 * arrives in the app as `SDT_ERROR_BUSY` (`org.example.SdTuner1.Error.Busy`).
 */
typedef enum {
	SDT_ERROR_FAILED,           /* org.example.SdTuner1.Error.Failed */
	SDT_ERROR_NOT_AUTHORIZED,   /* .NotAuthorized */
	SDT_ERROR_CANCELLED,        /* .Cancelled */
	SDT_ERROR_BUSY,             /* .Busy */
	SDT_ERROR_NOT_SUPPORTED,    /* .NotSupported */
	SDT_ERROR_INVALID_ARGUMENT, /* .InvalidArgument */
	SDT_ERROR_CONFIG_CHANGED,   /* .ConfigChanged */
	SDT_ERROR_NOT_FOUND,        /* .NotFound: no card, unknown id, nothing to revert */
	SDT_ERROR_NO_SPACE,         /* .NoSpace */
	SDT_ERROR_IO,               /* .IO: a read or write failed */
	SDT_ERROR_READ_ONLY,        /* .ReadOnly: file system mounted read-only */
	SDT_ERROR_INVALID_DATA,     /* .InvalidData: a file SD Tuner refuses to parse or edit */
	SDT_ERROR_LAST
} SdtError;

#define SDT_ERROR (sdt_error_quark())

GQuark sdt_error_quark(void);
const gchar *sdt_error_to_dbus_name(SdtError code);
SdtError sdt_error_from_errno(gint errsv);
gboolean sdt_error_set_from_errno(GError **error, gint errsv, const gchar *format, ...)
	G_GNUC_PRINTF(3, 4);

G_END_DECLS
