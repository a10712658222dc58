/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gi18n.h>

#include "sdt-error.h"

static const GDBusErrorEntry sdt_error_entries[] = {
	{SDT_ERROR_FAILED, "org.example.SdTuner1.Error.Failed"},
	{SDT_ERROR_NOT_AUTHORIZED, "org.example.SdTuner1.Error.NotAuthorized"},
	{SDT_ERROR_CANCELLED, "org.example.SdTuner1.Error.Cancelled"},
	{SDT_ERROR_BUSY, "org.example.SdTuner1.Error.Busy"},
	{SDT_ERROR_NOT_SUPPORTED, "org.example.SdTuner1.Error.NotSupported"},
	{SDT_ERROR_INVALID_ARGUMENT, "org.example.SdTuner1.Error.InvalidArgument"},
	{SDT_ERROR_CONFIG_CHANGED, "org.example.SdTuner1.Error.ConfigChanged"},
	{SDT_ERROR_NOT_FOUND, "org.example.SdTuner1.Error.NotFound"},
	{SDT_ERROR_NO_SPACE, "org.example.SdTuner1.Error.NoSpace"},
	{SDT_ERROR_IO, "org.example.SdTuner1.Error.IO"},
	{SDT_ERROR_READ_ONLY, "org.example.SdTuner1.Error.ReadOnly"},
	{SDT_ERROR_INVALID_DATA, "org.example.SdTuner1.Error.InvalidData"},
};

G_STATIC_ASSERT(G_N_ELEMENTS(sdt_error_entries) == SDT_ERROR_LAST);

GQuark
sdt_error_quark(void)
{
	static gsize quark = 0;
	g_dbus_error_register_error_domain("sdt-error-quark",
					   &quark,
					   sdt_error_entries,
					   G_N_ELEMENTS(sdt_error_entries));
	return (GQuark) quark;
}

const gchar *
sdt_error_to_dbus_name(SdtError code)
{
	if ((guint) code >= SDT_ERROR_LAST)
		return sdt_error_entries[SDT_ERROR_FAILED].dbus_error_name;
	return sdt_error_entries[code].dbus_error_name;
}

SdtError
sdt_error_from_errno(gint errsv)
{
	switch (errsv) {
	case ENOSPC:
	case EDQUOT:
		return SDT_ERROR_NO_SPACE;
	case EROFS:
		return SDT_ERROR_READ_ONLY;
	case ENOENT:
	case ENODEV:
	case ENXIO:
		return SDT_ERROR_NOT_FOUND;
	case EACCES:
	case EPERM:
		return SDT_ERROR_NOT_AUTHORIZED;
	case EINVAL:
		return SDT_ERROR_INVALID_ARGUMENT;
	case EOPNOTSUPP:
		return SDT_ERROR_NOT_SUPPORTED;
	case ECANCELED:
		return SDT_ERROR_CANCELLED;
	case EBUSY:
		return SDT_ERROR_BUSY;
	case EIO:
		return SDT_ERROR_IO;
	default:
		return SDT_ERROR_FAILED;
	}
}

gboolean
sdt_error_set_from_errno(GError **error, gint errsv, const gchar *format, ...)
{
	va_list args;
	g_autofree gchar *msg = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	va_start(args, format);
	msg = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error(error,
		    SDT_ERROR,
		    sdt_error_from_errno(errsv),
		    /* Translators: what failed, then the system's reason for it
		     * ("Cannot open /boot/config.txt: Permission denied") */
		    _("%s: %s"),
		    msg,
		    g_strerror(errsv));
	return FALSE;
}
