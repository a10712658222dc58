/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-l10n-record.h"

G_BEGIN_DECLS

/*
 * What the codecs of src/wire share of sdt-l10n-record among themselves (and their tests),
 * beside the public sdt-l10n-record.h.  Private to src/wire: tests/check-shape.py fails any
 * other file that includes it.
 */

/* @reason in the reader's language ("" for NULL or a reason without text) */
const gchar *sdt_l10n_record_reason_shown(const SdtL10nRecordReason *reason);

/*
 * The codecs' part: reads "reason", "reason_code" and "reason_args" of @obj into
 * *@reason (NULL when it has none of them).  "reason" of the wrong type is
 * SDT_ERROR_INVALID_DATA naming it; a code or arguments of another version or edited
 * by hand are never an error: they are left out (NULL), and the reason is then shown
 * from its text.
 */
gboolean sdt_l10n_record_reason_read(JsonObject *obj,
				     const gchar *where,
				     SdtL10nRecordReason **reason,
				     GError **error);
/* writes the members of @reason that it has (nothing for NULL) */
void sdt_l10n_record_reason_write(JsonBuilder *b, const SdtL10nRecordReason *reason);

G_END_DECLS
