/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

#include "sdt-context.h"
#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-file-private.h"

struct _SdtContext {
	GObject parent_instance;
	gchar *root;
	GBytes *kernel_log;
	GDateTime *now; /* set by tests, else NULL: the real time */
};

/* SD Tuner's own code is built with 64-bit file offsets and times (meson.build) */
G_STATIC_ASSERT(sizeof(off_t) == 8);
G_STATIC_ASSERT(sizeof(time_t) == 8);

G_DEFINE_TYPE(SdtContext, sdt_context, G_TYPE_OBJECT)

static void
sdt_context_finalize(GObject *object)
{
	SdtContext *self = SDT_CONTEXT(object);
	g_free(self->root);
	g_clear_pointer(&self->kernel_log, g_bytes_unref);
	g_clear_pointer(&self->now, g_date_time_unref);
	G_OBJECT_CLASS(sdt_context_parent_class)->finalize(object);
}

static void
sdt_context_class_init(SdtContextClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = sdt_context_finalize;
}

static void
sdt_context_init(SdtContext *self)
{
}

/**
 * sdt_context_new:
 * @root: (nullable): the root prefix; %NULL means `$SDTUNER_ROOT`, else `/`
 *
 * Returns: a new context, or %NULL if @root is not an existing directory
 */
SdtContext *
sdt_context_new(const gchar *root, GError **error)
{
	g_autoptr(SdtContext) self = g_object_new(SDT_TYPE_CONTEXT, NULL);
	g_autofree gchar *canon = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	if (root == NULL)
		root = g_getenv("SDTUNER_ROOT");
	if (root == NULL || root[0] == '\0')
		root = "/";
	if (!g_file_test(root, G_FILE_TEST_IS_DIR)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_FOUND,
			    _("root directory %s does not exist or is not a directory"),
			    root);
		return NULL;
	}
	canon = g_canonicalize_filename(root, NULL);
	self->root = g_steal_pointer(&canon);
	return g_steal_pointer(&self);
}

/* any root other than / is a copied card, an image or the simulated board */
gboolean
sdt_context_is_simulated(SdtContext *self)
{
	g_return_val_if_fail(SDT_IS_CONTEXT(self), FALSE);
	return g_strcmp0(self->root, "/") != 0;
}

/**
 * sdt_context_build_path:
 * @abs_path: an absolute path as seen on a running Raspberry Pi
 *
 * Returns: (transfer full): @abs_path under the root prefix
 */
gchar *
sdt_context_build_path(SdtContext *self, const gchar *abs_path)
{
	g_return_val_if_fail(SDT_IS_CONTEXT(self), NULL);
	g_return_val_if_fail(abs_path != NULL && abs_path[0] == '/', NULL);
	if (g_strcmp0(self->root, "/") == 0)
		return g_strdup(abs_path);
	return g_build_filename(self->root, abs_path, NULL);
}

gchar *
sdt_context_get_state_dir(SdtContext *self)
{
	return sdt_context_build_path(self, "/var/lib/sd-tuner");
}

gint
sdt_context_open(SdtContext *self, const gchar *abs_path, gint flags, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, -1);
	g_return_val_if_fail(self != NULL, -1);
	g_return_val_if_fail(SDT_IS_CONTEXT(self), -1);
	return sdt_file_open_in_root(self->root, abs_path, flags, error);
}

gboolean
sdt_context_read_kernel_file(SdtContext *self,
			     const gchar *abs_path,
			     gsize max_len,
			     gchar **contents,
			     gsize *len,
			     GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	g_return_val_if_fail(SDT_IS_CONTEXT(self), FALSE);
	return sdt_file_read_kernel(self->root, abs_path, max_len, contents, len, error);
}

/* "8c1d6f0e-...\n": 36 characters and a newline; a copied root may hold anything */
#define SDT_CONTEXT_BOOT_ID_MAX 128

gchar *
sdt_context_get_boot_id(SdtContext *self, GError **error)
{
	g_autofree gchar *text = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(self != NULL, NULL);

	if (!sdt_context_read_kernel_file(self,
					  "/proc/sys/kernel/random/boot_id",
					  SDT_CONTEXT_BOOT_ID_MAX,
					  &text,
					  NULL,
					  error))
		return NULL;
	g_strstrip(text);
	if (text[0] == '\0' || strspn(text, "0123456789abcdefABCDEF-") != strlen(text)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: the file's path */
			    _("%s does not hold a boot id (a UUID)"),
			    "/proc/sys/kernel/random/boot_id");
		return NULL;
	}
	return g_steal_pointer(&text);
}

void
sdt_context_set_kernel_log(SdtContext *self, GBytes *kernel_log)
{
	g_return_if_fail(SDT_IS_CONTEXT(self));
	g_clear_pointer(&self->kernel_log, g_bytes_unref);
	if (kernel_log != NULL)
		self->kernel_log = g_bytes_ref(kernel_log);
}

/* Returns: (transfer none) (nullable): the kept kernel log, if any */
GBytes *
sdt_context_get_kernel_log(SdtContext *self)
{
	g_return_val_if_fail(SDT_IS_CONTEXT(self), NULL);
	return self->kernel_log;
}

GDateTime *
sdt_context_get_now(SdtContext *self)
{
	g_return_val_if_fail(SDT_IS_CONTEXT(self), NULL);
	return self->now != NULL ? g_date_time_ref(self->now) : g_date_time_new_now_utc();
}

void
sdt_context_set_now(SdtContext *self, GDateTime *now)
{
	g_return_if_fail(SDT_IS_CONTEXT(self));
	g_clear_pointer(&self->now, g_date_time_unref);
	self->now = now != NULL ? g_date_time_to_utc(now) : NULL;
}
