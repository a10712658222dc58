/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_DIRECT */

#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-soak.h"
#include "sdt-soak-private.h"

/* the data is a pure function of seed, round and offset: any slice is the same bytes */
static void
test_fill_reproducible(void)
{
	guint8 whole[4096];
	guint8 part[64];
	guint8 other[4096];

	sdt_soak_fill(whole, sizeof(whole), 42, 0, 1 << 20);
	sdt_soak_fill(part, sizeof(part), 42, 0, (1 << 20) + 1024);
	g_assert_cmpmem(whole + 1024, sizeof(part), part, sizeof(part));
	for (guint i = 0; i < sizeof(whole); i += 97)
		g_assert_cmpuint(sdt_soak_expected_byte(42, 0, (1 << 20) + i), ==, whole[i]);
	/* another seed, another round: other data */
	sdt_soak_fill(other, sizeof(other), 43, 0, 1 << 20);
	g_assert_true(memcmp(whole, other, sizeof(whole)) != 0);
	sdt_soak_fill(other, sizeof(other), 42, 1, 1 << 20);
	g_assert_true(memcmp(whole, other, sizeof(whole)) != 0);
	/* not a repeating pattern: no two 8-byte words of a block are equal */
	for (guint i = 8; i < 512; i += 8)
		g_assert_true(memcmp(whole, whole + i, 8) != 0);
}

static void
test_cancel(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GCancellable) cancellable = g_cancellable_new();
	g_autofree gchar *dir = g_dir_make_tmp("sdt-soak-XXXXXX", NULL);
	g_autofree gchar *path = g_build_filename(dir, "f", NULL);
	SdtSoakConfig config = {4 * SDT_SOAK_SEQ_BLOCK, 0, 7};
	SdtSoakResult result;
	gint fd = g_open(path, O_RDWR | O_CREAT, 0600);

	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(ftruncate(fd, (off_t) config.size), ==, 0);
	/* a clean run on a plain file (no O_DIRECT needed for the logic) */
	g_assert_true(sdt_soak_run(fd, &config, &result, NULL, NULL, NULL, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(result.bytes_checked, ==, config.size);
	g_assert_cmpuint(result.mismatches, ==, 0);
	g_assert_cmpint(result.first_bad_offset, ==, -1);
	/* cancelled before it starts: an error, no result claimed */
	g_cancellable_cancel(cancellable);
	g_assert_false(sdt_soak_run(fd, &config, &result, NULL, NULL, cancellable, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_CANCELLED);
	g_assert_cmpuint(result.rounds, ==, 0);
	close(fd);
	g_unlink(path);
	g_rmdir(dir);
}

/*
 * A file that is not a whole number of chunks, with a chunk across the
 * middle (the queued half ends inside it): every byte is written with its
 * round's seeded data and checked, once.
 */
static void
test_chunks_cover_the_file(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *dir = g_dir_make_tmp("sdt-soak-XXXXXX", NULL);
	g_autofree gchar *path = g_build_filename(dir, "f", NULL);
	/* 26 MiB: chunks of 3 MiB, the middle (13 MiB) inside the fifth */
	SdtSoakConfig config = {26 * SDT_SOAK_SEQ_BLOCK, 0, 11};
	SdtSoakResult result;
	g_autofree guint8 *want = g_malloc(SDT_SOAK_SEQ_BLOCK);
	g_autofree guint8 *got = g_malloc(SDT_SOAK_SEQ_BLOCK);
	gint fd = g_open(path, O_RDWR | O_CREAT, 0600);

	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(ftruncate(fd, (off_t) config.size), ==, 0);
	g_assert_true(sdt_soak_run(fd, &config, &result, NULL, NULL, NULL, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(result.rounds, ==, 1);
	g_assert_cmpuint(result.bytes_written, ==, config.size);
	g_assert_cmpuint(result.bytes_checked, ==, config.size);
	g_assert_cmpuint(result.mismatches, ==, 0);
	g_assert_cmpint(result.first_bad_offset, ==, -1);
	for (guint64 off = 0; off < config.size; off += SDT_SOAK_SEQ_BLOCK) {
		sdt_soak_fill(want, SDT_SOAK_SEQ_BLOCK, config.seed, 0, off);
		g_assert_cmpint(pread(fd, got, SDT_SOAK_SEQ_BLOCK, (off_t) off),
				==,
				SDT_SOAK_SEQ_BLOCK);
		g_assert_true(memcmp(got, want, SDT_SOAK_SEQ_BLOCK) == 0);
	}
	close(fd);
	g_unlink(path);
	g_rmdir(dir);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/soak/fill-reproducible", test_fill_reproducible);
	g_test_add_func("/soak/cancel", test_cancel);
	g_test_add_func("/soak/chunks-cover-the-file", test_chunks_cover_the_file);
	return g_test_run();
}
