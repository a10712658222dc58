/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_DIRECT */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <math.h>
#include <stddef.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sdt-bench-io-private.h"
#include "sdt-bench-stop.h"
#include "sdt-bench-stop-private.h"
#include "sdt-bench.h"
#include "sdt-bench-private.h"
#include "sdt-ops.h"
#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-test-config.h"
#include "sdt-bench-latency-private.h"
#include "sdt-bench-target-private.h"

/* the history's entries as `history --json` lists them (sdt_history_entries()) */
static JsonArray *
test_history_json(SdtContext *ctx, GError **error)
{
	g_autoptr(GPtrArray) entries = sdt_history_entries(ctx, NULL, error);

	return entries != NULL ? sdt_history_entry_list_to_json(entries) : NULL;
}

#define MIB (1024 * 1024)

/* disk-backed scratch space: /tmp may be tmpfs, which the engine refuses */
#define TEST_DISK_DIR "/var/tmp"

/* every folder test_dir_new() made: each test removes its own, main() checks they are gone */
static GPtrArray *test_dirs_made;

static gchar *
test_dir_new(const gchar *base)
{
	g_autofree gchar *tmpl = g_build_filename(base, "sdt-bench-test-XXXXXX", NULL);
	gchar *dir = g_mkdtemp_full(g_steal_pointer(&tmpl), 0700);
	g_assert_nonnull(dir);
	g_ptr_array_add(test_dirs_made, g_strdup(dir));
	return dir;
}

/* the folders a test left behind, each named on stderr and then removed: 0 when none */
static guint
test_dirs_left_behind(void)
{
	guint left = 0;

	for (guint i = 0; i < test_dirs_made->len; i++) {
		const gchar *dir = g_ptr_array_index(test_dirs_made, i);
		if (!g_file_test(dir, G_FILE_TEST_EXISTS))
			continue;
		g_printerr("test-bench: a test left %s behind\n", dir);
		sdt_test_rm_rf(dir);
		left++;
	}
	return left;
}

/* a new folder in /dev/shm (a tmpfs), or NULL after g_test_skip() where there is none */
static gchar *
test_shm_dir_new(void)
{
	if (!g_file_test("/dev/shm", G_FILE_TEST_IS_DIR)) {
		g_test_skip("no /dev/shm");
		return NULL;
	}
	return test_dir_new("/dev/shm");
}

static guint
test_dir_count(const gchar *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	guint n = 0;
	g_assert_nonnull(d);
	while (g_dir_read_name(d) != NULL)
		n++;
	return n;
}

/* the open flags of one of our file descriptors, as the kernel reports them */
static gint
test_fd_flags(gint fd)
{
	g_autofree gchar *path = g_strdup_printf("/proc/self/fdinfo/%d", fd);
	g_autofree gchar *text = NULL;
	g_auto(GStrv) lines = NULL;

	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		if (g_str_has_prefix(lines[i], "flags:"))
			return (gint) g_ascii_strtoll(lines[i] + 6, NULL, 8);
	}
	g_assert_not_reached();
}

static void
test_config_tiny(SdtBenchConfig *config)
{
	g_autoptr(GError) error = NULL;
	g_assert_true(sdt_bench_config_for_profile("quick", config, &error));
	config->profile = "test";
	config->file_size = 8 * MIB;
	config->seq_block_size = 1 * MIB;
	config->rand_seconds = 0.2;
	config->rand_qd1_seconds = 0.1;
	config->raw_seconds = 0;
	config->raw_block_size = 1 * MIB;
	config->raw_max_bytes = 4 * MIB;
}

static gboolean
test_is_root(void)
{
	if (geteuid() == 0)
		return TRUE;
	g_test_skip("needs root (loop devices, mount)");
	return FALSE;
}

/* pure parts */

static void
test_bench_latency_percentiles(void)
{
	SdtBenchLatency lat;

	sdt_bench_latency_reset(&lat);
	g_assert_cmpuint(sdt_bench_latency_percentile(&lat, 50), ==, 0);
	/* 1..1000 µs, one sample each */
	for (guint i = 1; i <= 1000; i++)
		sdt_bench_latency_add(&lat, (guint64) i * 1000);
	g_assert_cmpuint(lat.count, ==, 1000);
	g_assert_cmpuint(lat.min_ns, ==, 1000);
	g_assert_cmpuint(lat.max_ns, ==, 1000000);
	/* within the histogram's 1/32 resolution */
	g_assert_cmpfloat_with_epsilon(sdt_bench_latency_percentile(&lat, 50) / 1e3,
				       500,
				       500 / 32.);
	g_assert_cmpfloat_with_epsilon(sdt_bench_latency_percentile(&lat, 99) / 1e3,
				       990,
				       990 / 32.);
	g_assert_cmpuint(sdt_bench_latency_percentile(&lat, 100), ==, 1000000);
	g_assert_cmpuint(sdt_bench_latency_percentile(&lat, 0.01), ==, 1000);
}

static void
test_bench_profiles(void)
{
	SdtBenchConfig config;
	g_autoptr(GError) error = NULL;

	g_assert_true(sdt_bench_config_for_profile("standard", &config, &error));
	g_assert_no_error(error);
	/* Raspberry Pi Diagnostics: 256 MiB, 4 MiB blocks, 4k random QD32 for 10 s */
	g_assert_cmpuint(config.file_size, ==, 256 * MIB);
	g_assert_cmpuint(config.seq_block_size, ==, 4 * MIB);
	g_assert_cmpuint(config.rand_block_size, ==, 4096);
	g_assert_cmpuint(config.queue_depth, ==, 32);
	g_assert_cmpfloat(config.rand_seconds, ==, 10);
	g_assert_cmpfloat(config.rand_qd1_seconds, >, 0);

	g_assert_true(sdt_bench_config_for_profile("quick", &config, &error));
	g_assert_cmpuint(config.file_size, <, 256 * MIB);
	g_assert_true(sdt_bench_config_for_profile("full", &config, &error));
	g_assert_cmpuint(config.file_size, >, 256 * MIB);

	g_assert_false(sdt_bench_config_for_profile("fast", &config, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
	g_assert_nonnull(strstr(error->message, "fast"));
}

static void
test_bench_verdict(void)
{
	SdtBenchVerdict v;

	sdt_bench_verdict_compute(&v, 10.0, 1500, 500);
	g_assert_true(v.a1);
	g_assert_false(v.a2);
	sdt_bench_verdict_compute(&v, 9.99, 9000, 9000);
	g_assert_false(v.a1);
	g_assert_false(v.a2);
	sdt_bench_verdict_compute(&v, 40, 1499, 3000);
	g_assert_false(v.a1);
	sdt_bench_verdict_compute(&v, 40, 4000, 2000);
	g_assert_true(v.a1);
	g_assert_true(v.a2);
	sdt_bench_verdict_compute(&v, 40, 4000, 1999);
	g_assert_true(v.a1);
	g_assert_false(v.a2);
}

/* the test file */

static void
test_bench_target_tmpfile_has_no_name(void)
{
	g_autofree gchar *dir = test_dir_new(TEST_DISK_DIR);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchTarget) target = sdt_bench_target_open(dir, 4 * MIB, 0, &error);
	gint flags;

	g_assert_no_error(error);
	g_assert_nonnull(target);
	g_assert_true(target->tmpfile);
	g_assert_cmpuint(test_dir_count(dir), ==, 0);
	flags = test_fd_flags(target->fd);
	g_assert_cmpint(flags & O_ACCMODE, ==, O_RDWR);
	g_assert_cmpint(flags & O_DIRECT, ==, O_DIRECT);
	g_assert_cmpstr(target->filesystem, ==, "ext4");
	g_assert_nonnull(target->device);
	g_assert_cmpuint(target->size, ==, 4 * MIB);
	g_clear_pointer(&target, sdt_bench_target_free);
	g_assert_cmpuint(test_dir_count(dir), ==, 0);
	sdt_test_rm_rf(dir);
}

static void
test_bench_target_unlinked_fallback(void)
{
	g_autofree gchar *dir = test_dir_new(TEST_DISK_DIR);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchTarget) target =
		sdt_bench_target_open(dir, 4 * MIB, SDT_BENCH_TARGET_FLAG_NO_TMPFILE, &error);

	g_assert_no_error(error);
	g_assert_false(target->tmpfile);
	g_assert_cmpuint(test_dir_count(dir), ==, 0);
	g_assert_cmpint(test_fd_flags(target->fd) & O_DIRECT, ==, O_DIRECT);
	sdt_test_rm_rf(dir);
}

/* a folder on tmpfs is refused for being memory; @shared: also writable by all
 * (mode 1777, as /dev/shm itself), which is not what the error is about */
static void
test_bench_target_tmpfs_refused(gboolean shared)
{
	g_autofree gchar *dir = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchTarget) target = NULL;

	dir = test_shm_dir_new();
	if (dir == NULL)
		return;
	if (shared)
		g_assert_cmpint(g_chmod(dir, 01777), ==, 0);
	target = sdt_bench_target_open(dir, 4 * MIB, 0, &error);
	g_assert_null(target);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_SUPPORTED);
	g_assert_nonnull(strstr(error->message, dir));
	g_assert_nonnull(strstr(error->message, "tmpfs"));
	g_assert_nonnull(strstr(error->message, "not a block device"));
	g_assert_null(strstr(error->message, "writable by other users"));
	g_assert_cmpuint(test_dir_count(dir), ==, 0);
	sdt_test_rm_rf(dir);
}

static void
test_bench_target_tmpfs_not_supported(void)
{
	test_bench_target_tmpfs_refused(FALSE);
}

/*
 * statfs() magics at or above 0x80000000 (ramfs, btrfs, f2fs): f_type is a
 * signed word, an int on 32-bit targets, so they arrive negative there and
 * must be named, or printed, as the 32-bit magic they are.
 */
static void
test_bench_target_fs_magic(void)
{
	static const struct {
		guint32 magic;
		const gchar *want;
	} cases[] = {
		{0x858458f6, "ramfs"},
		{0x9123683e, "btrfs"},
		{0xf2f52010, "f2fs"},
		{0x01021994, "tmpfs"},
		{0xef53, "ext4"},
		{0x4d44, "vfat"},
		/* not in the table: printed as the magic, 32 bits */
		{0xcafe4a11, "0xcafe4a11"},
		{0x62656572, "0x62656572"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct statfs sfs;
		g_autofree gchar *got = NULL;

		memset(&sfs, 0, sizeof(sfs));
		/* as the kernel hands it over: the 32-bit pattern in a signed word */
		sfs.f_type = (__typeof__(sfs.f_type)) cases[i].magic;
		if (sizeof(sfs.f_type) == 4 && cases[i].magic >= 0x80000000u)
			g_assert_cmpint(sfs.f_type, <, 0);
		got = sdt_bench_target_fs_describe(&sfs);
		g_assert_cmpstr(got, ==, cases[i].want);
		g_assert_cmphex(sdt_bench_target_fs_magic(&sfs), ==, cases[i].magic);
	}
}

/* a real ramfs (magic 0x858458f6) is refused by name */
static void
test_bench_target_ramfs_not_supported(void)
{
	g_autofree gchar *dir = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchTarget) target = NULL;

	if (!test_is_root())
		return;
	dir = test_dir_new(TEST_DISK_DIR);
	if (mount("sdt-test-ramfs", dir, "ramfs", MS_NOSUID | MS_NODEV, "mode=0700") != 0) {
		g_autofree gchar *why =
			g_strdup_printf("cannot mount a ramfs: %s", g_strerror(errno));
		g_test_skip(why);
		sdt_test_rm_rf(dir);
		return;
	}
	target = sdt_bench_target_open(dir, 4 * MIB, 0, &error);
	g_assert_cmpint(umount2(dir, MNT_DETACH), ==, 0);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_SUPPORTED);
	g_assert_null(target);
	g_assert_nonnull(strstr(error->message, "is on ramfs,"));
	sdt_test_rm_rf(dir);
}

static void
test_bench_target_shared_tmpfs_says_tmpfs(void)
{
	test_bench_target_tmpfs_refused(TRUE);
}

static void
test_bench_target_shared_dir_refused(void)
{
	g_autofree gchar *dir = test_dir_new(TEST_DISK_DIR);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchTarget) target = NULL;

	g_assert_cmpint(g_chmod(dir, 01777), ==, 0);
	target = sdt_bench_target_open(dir, 4 * MIB, 0, &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
	g_assert_nonnull(strstr(error->message, dir));
	g_assert_cmpuint(test_dir_count(dir), ==, 0);
	sdt_test_rm_rf(dir);
}

static void
test_bench_target_missing_dir(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchTarget) target =
		sdt_bench_target_open("/var/tmp/sdt-bench-does-not-exist", 4 * MIB, 0, &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
	g_assert_null(target);
	g_assert_nonnull(strstr(error->message, "/var/tmp/sdt-bench-does-not-exist"));
}

/* the I/O layer */

static SdtBenchTarget *
test_target_new(gchar **dir_out, guint64 size)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *dir = test_dir_new(TEST_DISK_DIR);
	SdtBenchTarget *target = sdt_bench_target_open(dir, size, 0, &error);
	g_assert_no_error(error);
	*dir_out = g_steal_pointer(&dir);
	return target;
}

static void
test_bench_io_qd32(SdtBenchIoBackend backend, SdtBenchIoBackend expected)
{
	g_autofree gchar *dir = NULL;
	g_autoptr(SdtBenchTarget) target = test_target_new(&dir, 4 * MIB);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchIo) io = sdt_bench_io_new(backend, 32, target->fd, 4096, &error);
	SdtBenchIoStats stats;
	SdtBenchIoJob job = {
		.dir = SDT_BENCH_IO_WRITE,
		.block_size = 4096,
		.length = 4 * MIB,
		.random = TRUE,
		.seed = 7,
		.max_bytes = 4096 * 2000,
	};

	g_assert_no_error(error);
	g_assert_cmpint(sdt_bench_io_get_backend(io), ==, expected);
	g_assert_true(sdt_bench_io_run(io, &job, &stats, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(stats.ios, ==, 2000);
	g_assert_cmpuint(stats.bytes, ==, 2000 * 4096);
	g_assert_cmpuint(stats.latency.count, ==, 2000);
	/* the engine's own counter: 32 requests were in flight, never more */
	g_assert_cmpuint(sdt_bench_io_get_in_flight_max(io), ==, 32);
	g_assert_cmpuint(sdt_bench_io_get_in_flight(io), ==, 0);

	/* reads of what was written, same depth */
	job.dir = SDT_BENCH_IO_READ;
	g_assert_true(sdt_bench_io_run(io, &job, &stats, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(stats.ios, ==, 2000);
	g_assert_cmpuint(sdt_bench_io_get_in_flight_max(io), ==, 32);
	g_clear_pointer(&io, sdt_bench_io_free);
	g_clear_pointer(&target, sdt_bench_target_free);
	sdt_test_rm_rf(dir);
}

static void
test_bench_io_uring_qd32_in_flight(void)
{
#if HAVE_LIBURING
	test_bench_io_qd32(SDT_BENCH_IO_BACKEND_AUTO, SDT_BENCH_IO_BACKEND_URING);
#else
	g_test_skip("built without liburing");
#endif
}

static void
test_bench_io_threads_qd32_in_flight(void)
{
	test_bench_io_qd32(SDT_BENCH_IO_BACKEND_THREADS, SDT_BENCH_IO_BACKEND_THREADS);
}

/*
 * io_uring blocked the way container runtimes block it (seccomp: ENOSYS from
 * io_uring_setup), in a subprocess: AUTO must fall back to threads.
 */
static void
test_bench_io_fallback_without_uring(void)
{
	if (g_test_subprocess()) {
		struct sock_filter filter[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = {.len = G_N_ELEMENTS(filter), .filter = filter};
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtBenchIo) io = NULL;

		g_assert_cmpint(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), ==, 0);
		g_assert_cmpint(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog), ==, 0);
		io = sdt_bench_io_new(SDT_BENCH_IO_BACKEND_URING, 32, 0, 4096, &error);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_SUPPORTED);
		g_assert_null(io);
		test_bench_io_qd32(SDT_BENCH_IO_BACKEND_AUTO, SDT_BENCH_IO_BACKEND_THREADS);
		return;
	}
	g_test_trap_subprocess(NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
	g_test_trap_assert_passed();
}

/*
 * io_uring with the slots' buffers registered (READ_FIXED/WRITE_FIXED): every
 * request must still land in, and come from, its own slot's buffer.  Reads of
 * a file whose blocks name their own offset, then writes read back with
 * pread(): each slot holds what is at its last offset.
 */
/* the target's first @size bytes: each 8-byte word holds its own offset */
static void
test_target_fill_offsets(SdtBenchTarget *target, gsize size)
{
	guint8 *buf = NULL;

	g_assert_cmpint(posix_memalign((void **) &buf, 4096, size), ==, 0); /* O_DIRECT */
	for (gsize i = 0; i < size; i += sizeof(guint64)) {
		guint64 v = i;
		memcpy(buf + i, &v, sizeof(v));
	}
	g_assert_cmpint(pwrite(target->fd, buf, size, 0), ==, (gssize) size);
	free(buf);
}

static gboolean
test_block_names_offset(const guint8 *buf, guint64 offset)
{
	for (gsize i = 0; i < 4096; i += sizeof(guint64)) {
		guint64 v;
		memcpy(&v, buf + i, sizeof(v));
		if (v != offset + i)
			return FALSE;
	}
	return TRUE;
}

/* the smaps entry of the mapping that starts at @addr: its "Size:" in KiB and whether the
 * kernel says it may hold transparent huge pages ("THPeligible:") */
static gboolean
test_smaps_entry(gconstpointer addr, guint64 *size_kib, gint *thp_eligible)
{
	g_autofree gchar *smaps = NULL;
	g_auto(GStrv) lines = NULL;
	gboolean in = FALSE;
	gboolean found = FALSE;

	*size_kib = 0;
	*thp_eligible = -1;
	g_assert_true(g_file_get_contents("/proc/self/smaps", &smaps, NULL, NULL));
	lines = g_strsplit(smaps, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		guint64 start;
		gchar *end = NULL;

		start = g_ascii_strtoull(lines[i], &end, 16);
		if (end != lines[i] && *end == '-') {
			in = start == (guint64) (guintptr) addr;
			found = found || in;
		} else if (in && g_str_has_prefix(lines[i], "Size:")) {
			*size_kib = g_ascii_strtoull(lines[i] + 5, NULL, 10);
		} else if (in && g_str_has_prefix(lines[i], "THPeligible:")) {
			*thp_eligible = (gint) g_ascii_strtoll(lines[i] + 12, NULL, 10);
		}
	}
	return found;
}

/*
 * A large block's buffer (the raw read's 2 MiB, the sequential tests' 4 MiB) is a mapping of
 * its own, 2 MiB aligned and advised to transparent huge pages (on the emulated Pi 3 the raw
 * read at 300 MB/s with scattered 4 KiB pages, 633 with one huge page): aligned, exactly its
 * size, THP-eligible where the kernel has THP, and it reads what the file holds
 */
static void
test_bench_io_large_buffers(gconstpointer data)
{
	SdtBenchIoBackend backend = GPOINTER_TO_INT(data);
	g_autofree gchar *dir = NULL;
	g_autoptr(SdtBenchTarget) target = test_target_new(&dir, 8 * MIB);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchIo) io = NULL;
	g_autoptr(SdtBenchIo) small = NULL;
	g_autofree gchar *thp = NULL;
	SdtBenchIoStats stats;
	SdtBenchIoJob job = {
		.dir = SDT_BENCH_IO_READ,
		.block_size = 2 * MIB,
		.length = 8 * MIB,
	};
	guint64 size_kib;
	gint eligible;

	test_target_fill_offsets(target, 8 * MIB);

	io = sdt_bench_io_new(backend, 1, target->fd, 2 * MIB, &error);
	g_assert_no_error(error);
	g_assert_true(io->buffers_mapped);
	g_assert_cmpuint((guintptr) io->slots[0].buf % (2 * MIB), ==, 0);
	g_assert_true(test_smaps_entry(io->slots[0].buf, &size_kib, &eligible));
	g_assert_cmpuint(size_kib, ==, 2048); /* nothing else in the mapping */
	if (g_file_get_contents("/sys/kernel/mm/transparent_hugepage/enabled", &thp, NULL, NULL)) {
		/* the kernel has THP: the advice was taken, and followed unless "never" */
		g_assert_cmpint(io->buffers_huge, ==, strstr(thp, "[never]") == NULL);
		if (strstr(thp, "[never]") == NULL && eligible >= 0)
			g_assert_cmpint(eligible, ==, 1);
	} else {
		g_assert_false(io->buffers_huge);
	}
	/* a huge page's buffer is not registered with a ring: the pinned path keeps the huge
	 * page one segment; small pages are registered */
	if (sdt_bench_io_get_backend(io) == SDT_BENCH_IO_BACKEND_URING)
		g_assert_cmpint(io->fixed_buffers, ==, !io->buffers_huge);
	else
		g_assert_false(io->fixed_buffers);
	g_test_message("THP %s, THPeligible %d",
		       thp != NULL ? g_strstrip(thp) : "absent",
		       eligible);

	g_assert_true(sdt_bench_io_run(io, &job, &stats, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(stats.ios, ==, 4);
	g_assert_true(test_block_names_offset(io->slots[0].buf, io->slots[0].offset));
	g_assert_true(test_block_names_offset(io->slots[0].buf + 2 * MIB - 4096,
					      io->slots[0].offset + 2 * MIB - 4096));

	/* a 4 KiB block's buffers stay small allocations */
	small = sdt_bench_io_new(SDT_BENCH_IO_BACKEND_THREADS, 4, target->fd, 4096, &error);
	g_assert_no_error(error);
	g_assert_false(small->buffers_mapped);
	g_clear_pointer(&small, sdt_bench_io_free);
	g_clear_pointer(&io, sdt_bench_io_free);
	g_clear_pointer(&target, sdt_bench_target_free);
	sdt_test_rm_rf(dir);
}

static void
test_bench_io_uring_registered_buffers(void)
{
#if HAVE_LIBURING
	g_autofree gchar *dir = NULL;
	g_autoptr(SdtBenchTarget) target = test_target_new(&dir, 1 * MIB);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchIo) io = NULL;
	guint8 *check = NULL;
	SdtBenchIoStats stats;
	SdtBenchIoJob job = {
		.dir = SDT_BENCH_IO_READ,
		.block_size = 4096,
		.length = 1 * MIB,
	};
	guint checked = 0;

	test_target_fill_offsets(target, 1 * MIB);

	io = sdt_bench_io_new(SDT_BENCH_IO_BACKEND_URING, 4, target->fd, 4096, &error);
	g_assert_no_error(error);
	/* root has CAP_IPC_LOCK; a user has 8 MiB of RLIMIT_MEMLOCK, and this is 20 KiB */
	g_assert_true(io->fixed_buffers);
	g_assert_true(sdt_bench_io_run(io, &job, &stats, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(stats.ios, ==, 256);
	for (guint i = 0; i < io->n_slots; i++) {
		if (io->slots[i].t_submit == 0)
			continue; /* the spare slot, for writes only */
		g_assert_true(test_block_names_offset(io->slots[i].buf, io->slots[i].offset));
		checked++;
	}
	g_assert_cmpuint(checked, ==, 4);

	job.dir = SDT_BENCH_IO_WRITE;
	job.seed = 3;
	g_assert_true(sdt_bench_io_run(io, &job, &stats, &error));
	g_assert_no_error(error);
	g_assert_cmpint(posix_memalign((void **) &check, 4096, 4096), ==, 0); /* O_DIRECT */
	checked = 0;
	for (guint i = 0; i < io->n_slots; i++) {
		if (io->slots[i].state != SDT_BENCH_IO_SLOT_FREE || io->slots[i].t_submit == 0)
			continue; /* refilled for a write that was not made */
		off_t offset = (off_t) io->slots[i].offset;
		g_assert_cmpint(pread(target->fd, check, 4096, offset), ==, 4096);
		g_assert_cmpmem(check, 4096, io->slots[i].buf, 4096);
		checked++;
	}
	g_assert_cmpuint(checked, >=, 1);
	free(check);
	g_clear_pointer(&io, sdt_bench_io_free);
	g_clear_pointer(&target, sdt_bench_target_free);
	sdt_test_rm_rf(dir);
#else
	g_test_skip("built without liburing");
#endif
}

static void
test_bench_io_sequential_steady_state(void)
{
	g_autofree gchar *dir = NULL;
	g_autoptr(SdtBenchTarget) target = test_target_new(&dir, 4 * MIB);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchIo) io =
		sdt_bench_io_new(SDT_BENCH_IO_BACKEND_AUTO, 1, target->fd, 64 * 1024, &error);
	SdtBenchIoStats stats;
	SdtBenchIoJob job = {
		.dir = SDT_BENCH_IO_WRITE,
		.block_size = 64 * 1024,
		.length = 4 * MIB,
		.fsync_end = TRUE,
	};

	g_assert_no_error(error);
	g_assert_true(sdt_bench_io_run(io, &job, &stats, &error));
	g_assert_no_error(error);
	/* sequential without a byte limit: the whole region once */
	g_assert_cmpuint(stats.ios, ==, 64);
	g_assert_cmpuint(stats.bytes, ==, 4 * MIB);
	g_assert_cmpuint(stats.steady_bytes, ==, 4 * MIB - 64 * 1024);
	g_assert_cmpfloat(stats.steady_seconds, >, 0);
	g_assert_cmpfloat(stats.steady_seconds, <, stats.seconds);
	g_assert_cmpuint(stats.fsync_ns, >, 0);
	g_assert_cmpuint(sdt_bench_io_get_in_flight_max(io), ==, 1);
	g_clear_pointer(&io, sdt_bench_io_free);
	g_clear_pointer(&target, sdt_bench_target_free);
	sdt_test_rm_rf(dir);
}

/*
 * cpu_ns counts the threads doing the I/O, not the rest of the process: a
 * thread spinning beside the run (a main loop, a progress display) must not
 * show up in it.  The process-wide clock it replaced counted the spinner too.
 */
typedef struct {
	gint stop;
	guint64 cpu_ns;
} TestSpinner;

static guint64
test_thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (guint64) ts.tv_sec * 1000000000 + (guint64) ts.tv_nsec;
}

static gpointer
test_spinner_thread(gpointer data)
{
	TestSpinner *s = data;
	guint64 t0 = test_thread_cpu_ns();
	while (!g_atomic_int_get(&s->stop))
		;
	s->cpu_ns = test_thread_cpu_ns() - t0;
	return NULL;
}

static void
test_bench_io_cpu_of_io_threads_only(gconstpointer data)
{
	SdtBenchIoBackend backend = GPOINTER_TO_INT(data);
	guint depth = backend == SDT_BENCH_IO_BACKEND_SYNC ? 1 : 4;
	g_autofree gchar *dir = NULL;
	g_autoptr(SdtBenchTarget) target = test_target_new(&dir, 4 * MIB);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchIo) io = sdt_bench_io_new(backend, depth, target->fd, 4096, &error);
	g_autoptr(GThread) spinner = NULL;
	TestSpinner spin = {0};
	SdtBenchIoStats stats;
	SdtBenchIoJob job = {
		.dir = SDT_BENCH_IO_WRITE,
		.block_size = 4096,
		.length = 4 * MIB,
		.random = TRUE,
		.seed = 3,
		.max_seconds = 0.3,
	};
	struct timespec ts;
	guint64 process0;
	guint64 process1;

	g_assert_no_error(error);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	process0 = (guint64) ts.tv_sec * 1000000000 + (guint64) ts.tv_nsec;
	spinner = g_thread_new("spinner", test_spinner_thread, &spin);
	g_assert_true(sdt_bench_io_run(io, &job, &stats, &error));
	g_assert_no_error(error);
	g_atomic_int_set(&spin.stop, 1);
	g_thread_join(g_steal_pointer(&spinner));
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	process1 = (guint64) ts.tv_sec * 1000000000 + (guint64) ts.tv_nsec;

	g_assert_cmpuint(stats.ios, >, 0);
	/* the I/O cost something ... */
	g_assert_cmpuint(stats.cpu_ns, >, 0);
	/* ... and the spinner, which ran during the whole run, is not part of it */
	g_assert_cmpuint(spin.cpu_ns, >, 1000000);
	g_assert_cmpuint(stats.cpu_ns, <=, process1 - process0 - spin.cpu_ns + 1000000);
	g_clear_pointer(&io, sdt_bench_io_free);
	g_clear_pointer(&target, sdt_bench_target_free);
	sdt_test_rm_rf(dir);
}

/*
 * An I/O thread that worked before the run and exits during it (an io-wq
 * worker of the previous test's ring, torn down as the next test starts):
 * only what it ran during the run counts.  The process clock keeps an exited
 * thread's whole lifetime, and the run used to be charged all of it: the
 * QD32 random read after the QD32 write then read 12.8 us per I/O on the
 * throttled card instead of 5-8.
 */
typedef struct {
	GMutex lock;
	GCond cond;
	gint tid;
	gboolean worked;
	gboolean go;
} TestExitingWorker;

static gpointer
test_exiting_worker_thread(gpointer data)
{
	TestExitingWorker *w = data;
	guint64 t0 = test_thread_cpu_ns();

	while (test_thread_cpu_ns() - t0 < 200 * 1000000) /* 200 ms of CPU */
		;
	g_mutex_lock(&w->lock);
	w->tid = (gint) syscall(SYS_gettid);
	w->worked = TRUE;
	g_cond_broadcast(&w->cond);
	while (!w->go)
		g_cond_wait(&w->cond, &w->lock);
	g_mutex_unlock(&w->lock);
	return NULL;
}

static void
test_bench_io_cpu_worker_exits_during_run(void)
{
	TestExitingWorker w = {0};
	SdtBenchIo io = {0};
	SdtBenchIoCpuSnapshot start;
	SdtBenchIoCpuSnapshot end;
	g_autofree gchar *path = NULL;
	GThread *thread;
	guint64 cpu;

	g_mutex_init(&w.lock);
	g_cond_init(&w.cond);
	io.backend = SDT_BENCH_IO_BACKEND_THREADS;
	io.n_workers = 1;
	io.worker_tids = &w.tid;
	thread = g_thread_new("test-worker", test_exiting_worker_thread, &w);
	g_mutex_lock(&w.lock);
	while (!w.worked)
		g_cond_wait(&w.cond, &w.lock);
	g_mutex_unlock(&w.lock);

	sdt_bench_io_cpu_snapshot(&io, &start);
	/* the worker is one of the run's I/O threads */
	g_assert_cmpuint(start.io_threads->len, ==, 2);
	g_mutex_lock(&w.lock);
	w.go = TRUE;
	g_cond_broadcast(&w.cond);
	g_mutex_unlock(&w.lock);
	g_thread_join(thread);
	/* pthread_join() returns before the kernel has removed the task */
	path = g_strdup_printf("/proc/self/task/%d", w.tid);
	for (guint i = 0; i < 500 && g_file_test(path, G_FILE_TEST_EXISTS); i++)
		g_usleep(10000);
	g_assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	sdt_bench_io_cpu_snapshot(&io, &end);
	g_assert_cmpuint(end.io_threads->len, ==, 1);
	cpu = sdt_bench_io_cpu_between(&start, &end);

	/* this thread's snapshots and the worker's wake-up: far below its 200 ms before */
	g_assert_cmpuint(cpu, <, 50 * 1000000);
	g_mutex_clear(&w.lock);
	g_cond_clear(&w.cond);
}

static void
test_bench_io_injected_error(gconstpointer data)
{
	SdtBenchIoBackend backend = GPOINTER_TO_INT(data);
	g_autofree gchar *dir = NULL;
	g_autoptr(SdtBenchTarget) target = test_target_new(&dir, 4 * MIB);
	g_autoptr(GError) error = NULL;
	guint depth = backend == SDT_BENCH_IO_BACKEND_SYNC ? 1 : 32;
	g_autoptr(SdtBenchIo) io = sdt_bench_io_new(backend, depth, target->fd, 4096, &error);
	SdtBenchIoStats stats;
	SdtBenchIoJob job = {
		.dir = SDT_BENCH_IO_READ,
		.block_size = 4096,
		.length = 4 * MIB,
		.random = TRUE,
		.seed = 7,
		.max_bytes = 4096 * 5000,
	};

	g_assert_no_error(error);
	sdt_bench_io_inject_error(io, 100, EIO);
	g_assert_false(sdt_bench_io_run(io, &job, &stats, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_IO);
	g_assert_nonnull(strstr(error->message, "offset"));
	/* IOs 0..99 succeeded; the run stopped at the failure */
	g_assert_cmpuint(stats.ios, ==, 100);
	g_assert_cmpuint(sdt_bench_io_get_in_flight(io), ==, 0);
	g_clear_pointer(&io, sdt_bench_io_free);
	g_clear_pointer(&target, sdt_bench_target_free);
	g_assert_cmpuint(test_dir_count(dir), ==, 0);
	sdt_test_rm_rf(dir);
}

/* the engine */

typedef struct {
	GCancellable *cancellable;
	guint delay_ms;
	gint64 cancelled_at;
} TestCanceller;

static gpointer
test_canceller_thread(gpointer data)
{
	TestCanceller *c = data;
	g_usleep(c->delay_ms * 1000);
	c->cancelled_at = g_get_monotonic_time();
	g_cancellable_cancel(c->cancellable);
	return NULL;
}

typedef struct {
	GPtrArray *phases;
	gdouble last_fraction;
	guint calls;
} TestProgress;

static void
test_progress_cb(const gchar *phase, gdouble fraction, gdouble rate, gpointer user_data)
{
	TestProgress *p = user_data;

	g_assert_cmpfloat(fraction, >=, p->last_fraction - 1e-9);
	g_assert_cmpfloat(fraction, <=, 1.0);
	g_assert_cmpfloat(rate, >=, 0.0);
	p->last_fraction = fraction;
	p->calls++;
	if (p->phases->len == 0 ||
	    g_strcmp0(g_ptr_array_index(p->phases, p->phases->len - 1), phase) != 0)
		g_ptr_array_add(p->phases, g_strdup(phase));
}

static void
test_bench_engine_regular_file(void)
{
	g_autofree gchar *dir = NULL;
	g_autoptr(SdtBenchTarget) target = test_target_new(&dir, 8 * MIB);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchResult) result = NULL;
	g_autoptr(GPtrArray) phases = g_ptr_array_new_with_free_func(g_free);
	TestProgress progress = {.phases = phases};
	SdtBenchConfig config;
	const gchar *order[] = {"seq-write",
				"rand-4k-write-qd32",
				"rand-4k-read-qd32",
				"seq-read",
				"rand-4k-write-qd1",
				"rand-4k-read-qd1"};
	gint64 t0 = g_get_monotonic_time();
	gdouble elapsed;

	test_config_tiny(&config);
	result = sdt_bench_run(target, &config, test_progress_cb, &progress, NULL, &error);
	elapsed = (g_get_monotonic_time() - t0) / 1e6;
	g_assert_no_error(error);
	g_assert_nonnull(result);
	g_assert_cmpuint(result->tests->len, ==, G_N_ELEMENTS(order));
	for (guint i = 0; i < G_N_ELEMENTS(order); i++) {
		SdtBenchTestResult *t = g_ptr_array_index(result->tests, i);
		g_assert_cmpstr(t->name, ==, order[i]);
		g_assert_cmpuint(t->ios, >, 0);
		g_assert_cmpuint(t->bytes, ==, t->ios * t->block_size);
		g_assert_cmpfloat(t->seconds, >, 0);
		g_assert_cmpfloat(t->cpu_seconds, >, 0);
		/* quick: the rate the stopping rule settled, the slope of bytes over time */
		g_assert_cmpfloat(t->mb_s, >, 0);
		g_assert_cmpfloat_with_epsilon(t->iops * t->block_size / 1e6,
					       t->mb_s,
					       1e-6 * t->mb_s);
		g_assert_cmpuint(t->stop, !=, SDT_BENCH_STOP_NONE);
		if (t->random) {
			g_assert_cmpuint(t->block_size, ==, 4096);
			g_assert_cmpuint(t->latency.count, ==, t->ios);
			g_assert_cmpuint(sdt_bench_latency_percentile(&t->latency, 99), >, 0);
		} else {
			/* a sequential test covers the whole file exactly once */
			g_assert_cmpuint(t->bytes, ==, 8 * MIB);
			g_assert_cmpuint(t->block_size, ==, 1 * MIB);
		}
		g_assert_cmpuint(t->in_flight_max, ==, t->queue_depth);
	}
	g_assert_cmpuint(sdt_bench_result_get_test(result, "rand-4k-read-qd32")->queue_depth,
			 ==,
			 32);
	g_assert_cmpuint(sdt_bench_result_get_test(result, "rand-4k-read-qd1")->queue_depth, ==, 1);
	g_assert_cmpstr(sdt_bench_result_get_test(result, "rand-4k-read-qd1")->io_engine,
			==,
			"sync");

	/* the verdict comes from seq-write and the QD32 tests, before the rest */
	g_assert_cmpfloat(result->verdict.seq_write_mb_s,
			  ==,
			  sdt_bench_result_get_test(result, "seq-write")->mb_s);
	g_assert_cmpfloat(result->verdict.read_iops,
			  ==,
			  sdt_bench_result_get_test(result, "rand-4k-read-qd32")->iops);
	g_assert_cmpfloat(result->verdict.seconds, >, 0);
	g_assert_cmpfloat(result->verdict.seconds, <, result->seconds);

	/* progress: every phase in order, monotonic, at most ~10 calls a second each */
	g_assert_cmpuint(phases->len, ==, G_N_ELEMENTS(order));
	for (guint i = 0; i < G_N_ELEMENTS(order); i++)
		g_assert_cmpstr(g_ptr_array_index(phases, i), ==, order[i]);
	g_assert_cmpuint(progress.calls, <=, (guint) (elapsed * 10) + 2 * G_N_ELEMENTS(order));
	g_assert_cmpfloat(progress.last_fraction, ==, 1.0);

	g_clear_pointer(&target, sdt_bench_target_free);
	g_assert_cmpuint(test_dir_count(dir), ==, 0);
	sdt_test_rm_rf(dir);
}

/*
 * A fixed-length profile keeps the figures of before: random rates over the
 * whole test, sequential ones the steady state after the first block; no
 * target in the record, and every test ran to its limit.
 */
static void
test_bench_engine_fixed_lengths(void)
{
	g_autofree gchar *dir = NULL;
	g_autoptr(SdtBenchTarget) target = test_target_new(&dir, 8 * MIB);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchResult) result = NULL;
	g_autoptr(SdtBenchRecord) record = NULL;
	SdtBenchConfig config;

	test_config_tiny(&config);
	config.target_ci_percent = 0;
	result = sdt_bench_run(target, &config, NULL, NULL, NULL, &error);
	g_assert_no_error(error);
	g_assert_nonnull(result);
	for (guint i = 0; i < result->tests->len; i++) {
		SdtBenchTestResult *t = g_ptr_array_index(result->tests, i);
		if (t->random) {
			g_assert_cmpfloat_with_epsilon(t->iops,
						       t->ios / t->seconds,
						       1e-6 * t->iops);
			g_assert_cmpuint(t->stop, ==, SDT_BENCH_STOP_CAP);
		} else {
			g_assert_cmpuint(t->stop, ==, SDT_BENCH_STOP_LENGTH);
		}
	}
	record = sdt_bench_result_to_record(result, target, 0);
	for (guint i = 0; i < record->tests->len; i++) {
		SdtBenchRecordTest *t = g_ptr_array_index(record->tests, i);
		g_assert_true(isnan(t->target_ci_percent));
		g_assert_nonnull(t->stopped);
	}
	g_clear_pointer(&target, sdt_bench_target_free);
	sdt_test_rm_rf(dir);
}

/* a series of completions: @n slices of 50 ms at @rate bytes/s, each scaled by @wobble[i] */
static void
test_stop_feed(SdtBenchStop *stop, guint n, gdouble rate, const gdouble *wobble)
{
	const gint64 slice = 50 * G_GINT64_CONSTANT(1000000);
	gint64 t = 1000 * G_GINT64_CONSTANT(1000000);
	guint64 bytes = 4096;

	sdt_bench_stop_add(stop, t, bytes); /* the first completion */
	for (guint i = 0; i < n; i++) {
		/* completions every 5 ms within the slice; the one ending it makes a point */
		for (guint k = 1; k <= 10; k++) {
			gboolean point = sdt_bench_stop_add(
				stop,
				t + slice * k / 10,
				bytes + (guint64) (rate * (wobble ? wobble[i] : 1.0) * 0.05 * k /
						   10));
			g_assert_cmpint(point, ==, k == 10);
		}
		t += slice;
		bytes += (guint64) (rate * (wobble ? wobble[i] : 1.0) * 0.05);
	}
}

/* a settled series: the rule stops it at the minimum of slices, with its rate */
static void
test_bench_stop_settled(void)
{
	SdtBenchStop stop;
	/* a card at 8.192 MB/s (2000 IOPS of 4 KiB) with ±1% jitter per slice */
	const gdouble wobble[] = {1.01, 0.99, 1.00, 1.01, 0.99, 1.00};

	sdt_bench_stop_init(&stop, 50 * G_GINT64_CONSTANT(1000000), 0);
	test_stop_feed(&stop, 3, 8192000, wobble);
	/* three slices: the interval is known, but the minimum is four */
	g_assert_cmpuint(sdt_bench_stop_slices(&stop), ==, 3);
	g_assert_cmpfloat(sdt_bench_stop_ci(&stop), >=, 0);
	g_assert_false(sdt_bench_stop_settled(&stop, 3.0, 4));
	sdt_bench_stop_init(&stop, 50 * G_GINT64_CONSTANT(1000000), 0);
	test_stop_feed(&stop, 6, 8192000, wobble);
	g_assert_cmpuint(sdt_bench_stop_slices(&stop), ==, 6);
	g_assert_true(sdt_bench_stop_settled(&stop, 3.0, 4));
	g_assert_cmpfloat(sdt_bench_stop_ci(&stop), <, 3.0);
	g_assert_cmpfloat_with_epsilon(sdt_bench_stop_rate(&stop), 8192000, 8192000 * 0.01);
	/* no target: never settled (a fixed-length profile) */
	g_assert_false(sdt_bench_stop_settled(&stop, 0, 4));
}

/*
 * A noisy series (a card that stalls for 200 ms, then catches up for 200 ms)
 * never settles at ±2% within its 2 s cap; the same at ±20% does.  (Every
 * prefix of it from 4 slices on: 3.0% to 87.5%.)
 */
static void
test_bench_stop_noisy(void)
{
	SdtBenchStop stop;
	gdouble wobble[40];

	for (guint i = 0; i < G_N_ELEMENTS(wobble); i++)
		wobble[i] = ((i + 2) / 4) % 2 == 0 ? 1.9 : 0.1;
	for (guint n = 1; n <= G_N_ELEMENTS(wobble); n++) {
		sdt_bench_stop_init(&stop, 50 * G_GINT64_CONSTANT(1000000), 0);
		test_stop_feed(&stop, n, 8192000, wobble);
		g_assert_false(sdt_bench_stop_settled(&stop, 2.0, 4));
	}
	g_assert_cmpfloat(sdt_bench_stop_ci(&stop), >, 2.0);
	g_assert_true(sdt_bench_stop_settled(&stop, 20.0, 4));
}

/* a sequential test's slices also end after slice_bytes (its blocks) */
static void
test_bench_stop_slice_bytes(void)
{
	SdtBenchStop stop;
	const gint64 ms = G_GINT64_CONSTANT(1000000);

	sdt_bench_stop_init(&stop, 50 * ms, 4 * MIB);
	g_assert_true(sdt_bench_stop_add(&stop, 0, 4 * MIB));
	g_assert_false(sdt_bench_stop_add(&stop, 10 * ms, 6 * MIB));
	g_assert_true(sdt_bench_stop_add(&stop, 20 * ms, 8 * MIB));
	g_assert_true(sdt_bench_stop_add(&stop, 90 * ms, 9 * MIB));
	g_assert_cmpuint(sdt_bench_stop_slices(&stop), ==, 2);
	/* the last completion is a point whatever the slice; never one back in time */
	sdt_bench_stop_add_last(&stop, 95 * ms, 10 * MIB);
	sdt_bench_stop_add_last(&stop, 95 * ms, 10 * MIB);
	g_assert_cmpuint(sdt_bench_stop_slices(&stop), ==, 3);
	g_assert_cmpstr(sdt_bench_stop_reason_to_string(SDT_BENCH_STOP_SETTLED), ==, "settled");
	g_assert_cmpstr(sdt_bench_stop_reason_to_string(SDT_BENCH_STOP_CAP), ==, "time-limit");
	g_assert_cmpstr(sdt_bench_stop_reason_to_string(SDT_BENCH_STOP_LENGTH), ==, "length");
	g_assert_null(sdt_bench_stop_reason_to_string(SDT_BENCH_STOP_NONE));
}

/*
 * The run loop applies the rule: with an interval no rate can reach it runs
 * to its time limit ("time-limit"), with one any rate reaches it stops after
 * its minimum time and slices ("settled"), on a real file.
 */
static void
test_bench_io_stopping_rule(void)
{
	g_autofree gchar *dir = NULL;
	g_autoptr(SdtBenchTarget) target = test_target_new(&dir, 4 * MIB);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchIo) io =
		sdt_bench_io_new(SDT_BENCH_IO_BACKEND_SYNC, 1, target->fd, 4096, &error);
	SdtBenchIoStats stats;
	SdtBenchIoJob job = {
		.dir = SDT_BENCH_IO_READ,
		.block_size = 4096,
		.length = 4 * MIB,
		.random = TRUE,
		.max_seconds = 0.6,
		.target_ci_percent = 1e-9,
		.min_seconds = 0.2,
		.min_slices = 4,
		.slice_seconds = 0.02,
	};

	g_assert_no_error(error);
	g_assert_true(sdt_bench_io_run(io, &job, &stats, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(stats.stop, ==, SDT_BENCH_STOP_CAP);
	g_assert_cmpfloat(stats.seconds, >=, 0.6);
	g_assert_cmpfloat(stats.rate, >, 0);

	/* a cap far away, so a loaded machine's slow completions cannot reach it */
	job.target_ci_percent = 1e9;
	job.max_seconds = 5;
	g_assert_true(sdt_bench_io_run(io, &job, &stats, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(stats.stop, ==, SDT_BENCH_STOP_SETTLED);
	g_assert_cmpfloat(stats.seconds, >=, 0.2);
	g_assert_cmpfloat(stats.seconds, <, 5);
	g_assert_cmpuint(stats.slices, >=, 4);

	/* a sequential test without a time limit ends with its region */
	job.random = FALSE;
	job.block_size = 4096;
	job.length = 64 * 1024;
	job.max_seconds = 0;
	job.target_ci_percent = 0;
	g_assert_true(sdt_bench_io_run(io, &job, &stats, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(stats.stop, ==, SDT_BENCH_STOP_LENGTH);
	g_clear_pointer(&io, sdt_bench_io_free);
	g_clear_pointer(&target, sdt_bench_target_free);
	sdt_test_rm_rf(dir);
}

/* @o's "confidence_percent" is 95 beside a known @interval, and absent beside a null one */
static void
test_assert_confidence_beside(JsonObject *o, const gchar *interval)
{
	g_assert_true(json_object_has_member(o, interval));
	if (json_node_is_null(json_object_get_member(o, interval)))
		g_assert_false(json_object_has_member(o, "confidence_percent"));
	else
		g_assert_cmpfloat(json_object_get_double_member(o, "confidence_percent"), ==, 95);
}

/*
 * the record says at which confidence and target each test stopped, and why:
 * a confidence only beside an interval it belongs to (a test that ended with
 * fewer than three points, as on a loaded machine, has neither, and neither
 * has the verdict built on it)
 */
static void
test_assert_record_confidence(SdtBenchResult *result,
			      SdtBenchTarget *target,
			      const SdtBenchConfig *config)
{
	g_autoptr(SdtBenchRecord) record = sdt_bench_result_to_record(result, target, 0);
	g_autoptr(JsonNode) node = sdt_bench_record_to_json(record);
	JsonObject *obj = json_node_get_object(node);
	JsonArray *tests = json_object_get_array_member(obj, "tests");
	JsonObject *verdict = json_object_get_object_member(obj, "verdict");

	g_assert_cmpuint(json_array_get_length(tests), ==, 6);
	for (guint i = 0; i < json_array_get_length(tests); i++) {
		JsonObject *t = json_array_get_object_element(tests, i);
		const gchar *stopped = json_object_get_string_member(t, "stopped");
		g_assert_cmpfloat(json_object_get_double_member(t, "target_ci_percent"),
				  ==,
				  config->target_ci_percent);
		g_assert_true(g_strv_contains(
			(const gchar *const[]){"settled", "time-limit", "length", NULL},
			stopped));
		test_assert_confidence_beside(t, "ci_percent");
		/*
		 * settled: its interval was within the target when it stopped; the
		 * record's is the final one, with the requests in flight at the stop
		 * and the last completion as points too, so only near it
		 */
		if (g_strcmp0(stopped, "settled") == 0)
			g_assert_cmpfloat(json_object_get_double_member(t, "ci_percent"),
					  <=,
					  2 * config->target_ci_percent);
	}
	test_assert_confidence_beside(verdict, "spread_percent");
}

static void
test_bench_engine_record_confidence(void)
{
	g_autofree gchar *dir = NULL;
	g_autoptr(SdtBenchTarget) target = test_target_new(&dir, 8 * MIB);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchResult) result = NULL;
	SdtBenchTestResult *first;
	SdtBenchConfig config;

	test_config_tiny(&config);
	result = sdt_bench_run(target, &config, NULL, NULL, NULL, &error);
	g_assert_no_error(error);
	test_assert_record_confidence(result, target, &config);

	/*
	 * the same run as a loaded machine makes it: the first test ended with
	 * too few points for an interval, so the verdict's spread is unknown too
	 */
	first = g_ptr_array_index(result->tests, 0);
	first->ci_percent = NAN;
	result->verdict.spread_percent = NAN;
	test_assert_record_confidence(result, target, &config);
	g_clear_pointer(&target, sdt_bench_target_free);
	sdt_test_rm_rf(dir);
}

static void
test_bench_engine_injected_error(void)
{
	g_autofree gchar *dir = NULL;
	g_autoptr(SdtBenchTarget) target = test_target_new(&dir, 8 * MIB);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchResult) result = NULL;
	SdtBenchConfig config;

	test_config_tiny(&config);
	config.inject_test = "rand-4k-read-qd32";
	config.inject_after = 50;
	config.inject_errno = EIO;
	result = sdt_bench_run(target, &config, NULL, NULL, NULL, &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_IO);
	g_assert_null(result);
	/* which test, which device, which directory */
	g_assert_nonnull(strstr(error->message, "rand-4k-read-qd32"));
	g_assert_nonnull(strstr(error->message, target->device));
	g_assert_nonnull(strstr(error->message, dir));
	g_clear_pointer(&target, sdt_bench_target_free);
	g_assert_cmpuint(test_dir_count(dir), ==, 0);
	sdt_test_rm_rf(dir);
}

static void
test_bench_engine_cancel(gconstpointer data)
{
	SdtBenchTargetFlags flags = GPOINTER_TO_UINT(data);
	g_autofree gchar *dir = test_dir_new(TEST_DISK_DIR);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchTarget) target = sdt_bench_target_open(dir, 8 * MIB, flags, &error);
	g_autoptr(SdtBenchResult) result = NULL;
	g_autoptr(GCancellable) cancellable = g_cancellable_new();
	TestCanceller canceller = {.cancellable = cancellable, .delay_ms = 300};
	g_autoptr(GThread) thread = NULL;
	SdtBenchConfig config;
	gint64 returned_at;

	g_assert_no_error(error);
	test_config_tiny(&config);
	config.rand_seconds = 30; /* would run a minute without the cancel */
	thread = g_thread_new("canceller", test_canceller_thread, &canceller);
	result = sdt_bench_run(target, &config, NULL, NULL, cancellable, &error);
	returned_at = g_get_monotonic_time();
	g_thread_join(g_steal_pointer(&thread));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_CANCELLED);
	g_assert_null(result);
	g_assert_cmpint(returned_at - canceller.cancelled_at, <, 200 * 1000);
	g_clear_pointer(&target, sdt_bench_target_free);
	g_assert_cmpuint(test_dir_count(dir), ==, 0);
	sdt_test_rm_rf(dir);
}

/* sdt_ops_bench_run(): the JSON document and the history */

static void
test_bench_ops_json_and_history(void)
{
	g_autofree gchar *root = test_dir_new(TEST_DISK_DIR);
	g_autofree gchar *dir = test_dir_new(TEST_DISK_DIR);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtContext) ctx = sdt_context_new(root, &error);
	g_autoptr(SdtBenchRecord) record = NULL;
	g_autoptr(JsonNode) node = NULL;
	g_autoptr(JsonArray) history = NULL;
	JsonObject *obj;
	JsonObject *target;
	JsonObject *verdict;
	JsonArray *tests;
	SdtBenchConfig config;
	const gchar *names[] = {"seq-write",
				"rand-4k-write-qd32",
				"rand-4k-read-qd32",
				"seq-read",
				"rand-4k-write-qd1",
				"rand-4k-read-qd1"};

	g_assert_no_error(error);
	test_config_tiny(&config);
	record = sdt_ops_bench_run(ctx, &config, dir, NULL, NULL, NULL, &error);
	g_assert_no_error(error);
	node = sdt_bench_record_to_json(record);
	obj = json_node_get_object(node);

	target = json_object_get_object_member(obj, "target");
	g_assert_cmpstr(json_object_get_string_member(target, "path"), ==, dir);
	g_assert_nonnull(json_object_get_string_member(target, "device"));
	g_assert_cmpstr(json_object_get_string_member(target, "filesystem"), ==, "ext4");
	g_assert_cmpstr(json_object_get_string_member(obj, "profile"), ==, "test");
	tests = json_object_get_array_member(obj, "tests");
	g_assert_cmpuint(json_array_get_length(tests), ==, G_N_ELEMENTS(names));
	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		JsonObject *t = json_array_get_object_element(tests, i);
		g_assert_cmpstr(json_object_get_string_member(t, "name"), ==, names[i]);
		g_assert_true(json_object_has_member(t, "block_size"));
		g_assert_true(json_object_has_member(t, "queue_depth"));
		g_assert_cmpfloat(json_object_get_double_member(t, "mb_s"), >, 0);
		g_assert_cmpfloat(json_object_get_double_member(t, "iops"), >, 0);
		g_assert_cmpfloat(json_object_get_double_member(t, "seconds"), >, 0);
		g_assert_cmpint(json_object_has_member(t, "latency_us"),
				==,
				g_str_has_prefix(names[i], "rand-"));
	}
	verdict = json_object_get_object_member(obj, "verdict");
	g_assert_true(json_object_has_member(verdict, "a1"));
	g_assert_true(json_object_has_member(verdict, "a2"));
	/* a directory given for tests is a stand-in, not the SD card: marked as such */
	g_assert_true(json_object_get_boolean_member(target, "stand_in"));
	g_assert_true(json_object_get_boolean_member(verdict, "stand_in"));
	g_assert_true(json_object_has_member(obj, "ceiling_mb_s"));
	g_assert_false(json_object_has_member(obj, "kind"));

	history = test_history_json(ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(json_array_get_length(history), ==, 1);
	obj = json_array_get_object_element(history, 0);
	g_assert_cmpstr(json_object_get_string_member(obj, "kind"), ==, "bench");
	g_assert_true(json_object_get_boolean_member(json_object_get_object_member(obj, "target"),
						     "stand_in"));
	g_assert_cmpuint(json_array_get_length(json_object_get_array_member(obj, "tests")),
			 ==,
			 G_N_ELEMENTS(names));
	g_assert_cmpuint(test_dir_count(dir), ==, 0);
	sdt_test_rm_rf(dir);
	sdt_test_rm_rf(root);
}

static void
test_bench_ops_dir_needs_root(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtContext) ctx = sdt_context_new("/", &error);
	g_autofree gchar *node = NULL;

	g_assert_no_error(error);
	node = sdt_ops_bench(ctx, "quick", "/var/tmp", NULL, NULL, NULL, &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
	g_assert_null(node);
}

static void
test_bench_ops_unknown_profile(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtContext) ctx = sdt_context_new("/", &error);
	g_autofree gchar *node = sdt_ops_bench(ctx, "turbo", NULL, NULL, NULL, NULL, &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
	g_assert_null(node);
}

/*
 * Loop devices.  Each test body runs in a subprocess; the parent attaches and
 * mounts before and always detaches after, so a failing assertion leaves no
 * loop device, mount or image behind.
 */

typedef struct {
	gchar *image;
	gchar *device; /* /dev/loopN */
	gchar *mnt;
} TestLoop;

static TestLoop test_loop;

static gboolean
test_run(const gchar *cmdline)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *err = NULL;
	gint status = 0;

	if (!g_spawn_command_line_sync(cmdline, NULL, &err, &status, &error) ||
	    !g_spawn_check_wait_status(status, NULL)) {
		g_printerr("%s failed: %s %s\n", cmdline, error ? error->message : "", err);
		return FALSE;
	}
	return TRUE;
}

static void
test_loop_setup(guint size_mb, const gchar *mount_opts)
{
	g_autofree gchar *out = NULL;
	g_autofree gchar *cmd = NULL;
	gint fd;

	test_loop.image = g_build_filename(TEST_DISK_DIR, "sdt-bench-loop-XXXXXX.img", NULL);
	fd = g_mkstemp(test_loop.image);
	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(ftruncate(fd, (off_t) size_mb * MIB), ==, 0);
	close(fd);
	cmd = g_strdup_printf("losetup --find --show --direct-io=on %s", test_loop.image);
	g_assert_true(g_spawn_command_line_sync(cmd, &out, NULL, NULL, NULL));
	g_assert_true(g_str_has_prefix(out, "/dev/loop"));
	test_loop.device = g_strstrip(g_steal_pointer(&out));
	g_free(cmd);
	cmd = g_strdup_printf("mkfs.ext4 -q -F -m 0 %s", test_loop.device);
	g_assert_true(test_run(cmd));
	test_loop.mnt = test_dir_new(TEST_DISK_DIR);
	g_free(cmd);
	cmd = g_strdup_printf("mount -o %s %s %s", mount_opts, test_loop.device, test_loop.mnt);
	g_assert_true(test_run(cmd));
}

static void
test_loop_teardown(void)
{
	g_autofree gchar *cmd = NULL;

	if (test_loop.mnt != NULL) {
		cmd = g_strdup_printf("umount %s", test_loop.mnt);
		test_run(cmd);
		g_rmdir(test_loop.mnt);
	}
	if (test_loop.device != NULL) {
		/* only if it is still ours */
		g_autofree gchar *fn = g_strdup_printf("/sys/block/%s/loop/backing_file",
						       test_loop.device + strlen("/dev/"));
		g_autofree gchar *backing = NULL;
		if (g_file_get_contents(fn, &backing, NULL, NULL) &&
		    g_strcmp0(g_strstrip(backing), test_loop.image) == 0) {
			g_free(cmd);
			cmd = g_strdup_printf("losetup -d %s", test_loop.device);
			test_run(cmd);
		}
	}
	g_unlink(test_loop.image);
	g_clear_pointer(&test_loop.image, g_free);
	g_clear_pointer(&test_loop.device, g_free);
	g_clear_pointer(&test_loop.mnt, g_free);
}

static void
test_loop_run(const gchar *path, guint size_mb, const gchar *mount_opts)
{
	if (!test_is_root())
		return;
	test_loop_setup(size_mb, mount_opts);
	g_setenv("SDT_TEST_LOOP_DEVICE", test_loop.device, TRUE);
	g_setenv("SDT_TEST_LOOP_MNT", test_loop.mnt, TRUE);
	g_setenv("SDT_TEST_LOOP_IMAGE", test_loop.image, TRUE);
	g_test_trap_subprocess(path, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
	test_loop_teardown();
	g_test_trap_assert_passed();
}

static void
test_bench_loop_engine(void)
{
	const gchar *device = g_getenv("SDT_TEST_LOOP_DEVICE");
	const gchar *mnt = g_getenv("SDT_TEST_LOOP_MNT");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchTarget) target = NULL;
	g_autoptr(SdtBenchResult) result = NULL;
	SdtBenchTestResult *raw;
	SdtBenchConfig config;
	gint fd;

	if (!g_test_subprocess()) {
		test_loop_run("/sdtuner/bench/loop/engine", 48, "rw");
		return;
	}
	test_config_tiny(&config);
	config.raw_seconds = 0.2;
	target = sdt_bench_target_open(mnt, config.file_size, 0, &error);
	g_assert_no_error(error);
	/* the device the file really lives on, through udev */
	g_assert_cmpstr(target->device, ==, device + strlen("/dev/"));
	g_assert_cmpstr(target->device_node, ==, device);
	g_assert_cmpstr(target->disk_node, ==, device);
	g_assert_cmpstr(target->filesystem, ==, "ext4");
	g_assert_cmpuint(target->device_size, ==, 48 * MIB);

	/* the raw test never opens the card for writing */
	g_assert_cmpint(SDT_BENCH_RAW_OPEN_FLAGS & O_ACCMODE, ==, O_RDONLY);
	fd = sdt_bench_target_open_raw(target, &error);
	g_assert_no_error(error);
	g_assert_cmpint(test_fd_flags(fd) & O_ACCMODE, ==, O_RDONLY);
	g_assert_cmpint(test_fd_flags(fd) & O_DIRECT, ==, O_DIRECT);
	close(fd);

	result = sdt_bench_run(target, &config, NULL, NULL, NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(result->tests->len, ==, 7);
	g_assert_cmpuint(result->notes->len, ==, 0);
	raw = sdt_bench_result_get_test(result, "raw-read");
	g_assert_nonnull(raw);
	g_assert_cmpuint(raw->bytes, >, 0);
	g_assert_cmpuint(raw->bytes, <=, 4 * MIB);
	g_clear_pointer(&target, sdt_bench_target_free);
	g_assert_cmpuint(test_dir_count(mnt), ==, 1); /* lost+found */
}

static void
test_bench_loop_card_too_small(void)
{
	const gchar *device = g_getenv("SDT_TEST_LOOP_DEVICE");
	const gchar *mnt = g_getenv("SDT_TEST_LOOP_MNT");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchTarget) target = NULL;

	if (!g_test_subprocess()) {
		test_loop_run("/sdtuner/bench/loop/card-too-small", 16, "rw");
		return;
	}
	target = sdt_bench_target_open(mnt, 64 * MIB, 0, &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NO_SPACE);
	g_assert_null(target);
	g_assert_nonnull(strstr(error->message, device + strlen("/dev/")));
	g_assert_nonnull(strstr(error->message, "64 MiB"));
	g_assert_cmpuint(test_dir_count(mnt), ==, 1);
}

static void
test_bench_loop_disk_full(void)
{
	const gchar *device = g_getenv("SDT_TEST_LOOP_DEVICE");
	const gchar *mnt = g_getenv("SDT_TEST_LOOP_MNT");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchTarget) target = NULL;
	g_autofree gchar *filler = NULL;
	g_autofree gchar *cmd = NULL;

	if (!g_test_subprocess()) {
		test_loop_run("/sdtuner/bench/loop/disk-full", 48, "rw");
		return;
	}
	/* 32 of 48 MiB taken (plus the journal): a 16 MiB test file does not fit with its margin */
	filler = g_build_filename(mnt, "filler", NULL);
	cmd = g_strdup_printf("fallocate -l 32M %s", filler);
	g_assert_true(test_run(cmd));
	target = sdt_bench_target_open(mnt, 16 * MIB, 0, &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NO_SPACE);
	g_assert_null(target);
	g_assert_nonnull(strstr(error->message, device + strlen("/dev/")));
	g_assert_nonnull(strstr(error->message, mnt));
	g_assert_cmpuint(test_dir_count(mnt), ==, 2);
	g_unlink(filler);
}

static void
test_bench_loop_read_only(void)
{
	const gchar *device = g_getenv("SDT_TEST_LOOP_DEVICE");
	const gchar *mnt = g_getenv("SDT_TEST_LOOP_MNT");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchTarget) target = NULL;

	if (!g_test_subprocess()) {
		test_loop_run("/sdtuner/bench/loop/read-only", 16, "ro");
		return;
	}
	target = sdt_bench_target_open(mnt, 4 * MIB, 0, &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_READ_ONLY);
	g_assert_null(target);
	g_assert_nonnull(strstr(error->message, device + strlen("/dev/")));
	g_assert_nonnull(strstr(error->message, mnt));
}

/*
 * The card goes away mid-run.  `losetup -d` on a mounted loop device only sets
 * autoclear (the kernel detaches it after the last close), so the run would
 * go on unharmed; what a pulled card does to I/O is what shrinking the loop
 * device to 1 MiB does: every request beyond fails with EIO.
 */
typedef struct {
	gchar *cmd;
	guint delay_ms;
} TestShrink;

static gpointer
test_shrink_thread(gpointer data)
{
	TestShrink *s = data;
	g_usleep(s->delay_ms * 1000);
	g_assert_true(test_run(s->cmd));
	return NULL;
}

static void
test_bench_loop_device_gone(void)
{
	const gchar *device = g_getenv("SDT_TEST_LOOP_DEVICE");
	const gchar *mnt = g_getenv("SDT_TEST_LOOP_MNT");
	const gchar *image = g_getenv("SDT_TEST_LOOP_IMAGE");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchTarget) target = NULL;
	g_autoptr(SdtBenchResult) result = NULL;
	g_autoptr(GThread) thread = NULL;
	TestShrink shrink = {.delay_ms = 300};
	SdtBenchConfig config;

	if (!g_test_subprocess()) {
		test_loop_run("/sdtuner/bench/loop/device-gone", 48, "rw");
		return;
	}
	test_config_tiny(&config);
	config.file_size = 32 * MIB;
	config.rand_seconds = 10;
	target = sdt_bench_target_open(mnt, config.file_size, 0, &error);
	g_assert_no_error(error);
	shrink.cmd = g_strdup_printf("sh -c 'truncate -s 1M %s && losetup -c %s'", image, device);
	thread = g_thread_new("shrink", test_shrink_thread, &shrink);
	result = sdt_bench_run(target, &config, NULL, NULL, NULL, &error);
	g_thread_join(g_steal_pointer(&thread));
	g_free(shrink.cmd);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_IO);
	g_assert_null(result);
	g_assert_nonnull(strstr(error->message, device + strlen("/dev/")));
	g_assert_nonnull(strstr(error->message, mnt));
}

/*
 * The live rate on a slow card (a loop device throttled to 4 MB/s with the
 * cgroup block-I/O controller, as bench/card.sh does): 1 MiB blocks complete
 * every 250 ms.  A rate computed over whatever 100 ms had passed since the
 * last sample read 0.0 between two completions and 2.5 times the throttle
 * right after one.  Computed over a window of completed bytes, every sample
 * is above zero and none exceeds what the card can have completed.
 */
#define TEST_THROTTLE_BPS 4000000

static gchar *
test_throttle_new(const gchar *device, guint64 bps)
{
	g_autofree gchar *fn = g_strdup_printf("/sys/block/%s/dev", device + strlen("/dev/"));
	g_autofree gchar *majmin = NULL;
	g_autofree gchar *controllers = NULL;
	g_autoptr(GError) error = NULL;
	gchar *cg;

	g_assert_true(g_file_get_contents(fn, &majmin, NULL, &error));
	g_strstrip(majmin);
	if (g_file_get_contents("/sys/fs/cgroup/cgroup.controllers", &controllers, NULL, NULL) &&
	    strstr(controllers, "io") != NULL) {
		g_autofree gchar *limit = NULL;
		g_autofree gchar *max = NULL;
		/* cgroup v2 */
		test_run("sh -c 'grep -qw io /sys/fs/cgroup/cgroup.subtree_control || "
			 "echo +io > /sys/fs/cgroup/cgroup.subtree_control'");
		cg = g_strdup_printf("/sys/fs/cgroup/sdt-test-throttle-%d", getpid());
		g_assert_cmpint(g_mkdir(cg, 0755), ==, 0);
		limit = g_strdup_printf("%s rbps=%" G_GUINT64_FORMAT " wbps=%" G_GUINT64_FORMAT,
					majmin,
					bps,
					bps);
		max = g_build_filename(cg, "io.max", NULL);
		g_assert_true(g_file_set_contents(max, limit, -1, &error));
	} else if (g_file_test("/sys/fs/cgroup/blkio", G_FILE_TEST_IS_DIR)) {
		/* cgroup v1 */
		const gchar *files[] = {"blkio.throttle.read_bps_device",
					"blkio.throttle.write_bps_device"};
		g_autofree gchar *limit = g_strdup_printf("%s %" G_GUINT64_FORMAT, majmin, bps);
		cg = g_strdup_printf("/sys/fs/cgroup/blkio/sdt-test-throttle-%d", getpid());
		g_assert_cmpint(g_mkdir(cg, 0755), ==, 0);
		for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
			g_autofree gchar *path = g_build_filename(cg, files[i], NULL);
			/* sysfs: one write(), as echo does */
			gint fd = open(path, O_WRONLY);
			g_assert_cmpint(fd, >=, 0);
			g_assert_cmpint(write(fd, limit, strlen(limit)),
					==,
					(gssize) strlen(limit));
			close(fd);
		}
	} else {
		return NULL;
	}
	g_assert_no_error(error);
	return cg;
}

typedef struct {
	const gchar *phase; /* interned */
	gdouble rate;
	gdouble at; /* seconds since the phase's first sample */
	gint64 t;
} TestRateSample;

typedef struct {
	GArray *samples; /* of TestRateSample */
	gint64 phase_start;
	gchar *phase;
} TestRates;

static void
test_rates_cb(const gchar *phase, gdouble fraction, gdouble rate, gpointer user_data)
{
	TestRates *r = user_data;
	gint64 now = g_get_monotonic_time();
	TestRateSample sample;

	if (g_strcmp0(phase, r->phase) != 0) {
		g_free(r->phase);
		r->phase = g_strdup(phase);
		r->phase_start = now;
	}
	sample.phase = g_intern_string(phase);
	sample.rate = rate;
	sample.t = now;
	sample.at = (gdouble) (now - r->phase_start) / 1e6;
	g_array_append_val(r->samples, sample);
}

static void
test_bench_loop_live_rate_throttled(void)
{
	const gchar *mnt = g_getenv("SDT_TEST_LOOP_MNT");
	const gchar *cg = g_getenv("SDT_TEST_THROTTLE_CGROUP");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchTarget) target = NULL;
	g_autoptr(SdtBenchResult) result = NULL;
	g_autoptr(GPtrArray) phases = g_ptr_array_new_with_free_func(g_free);
	TestRates rates = {.samples = g_array_new(FALSE, FALSE, sizeof(TestRateSample))};
	const gdouble limit_mb_s = TEST_THROTTLE_BPS / 1e6;
	const gchar *seq[] = {"seq-write", "seq-read"};
	SdtBenchConfig config;

	if (!g_test_subprocess()) {
		const gchar *device;
		g_autofree gchar *throttle = NULL;
		if (!test_is_root())
			return;
		test_loop_setup(48, "rw");
		device = test_loop.device;
		throttle = test_throttle_new(device, TEST_THROTTLE_BPS);
		if (throttle == NULL) {
			test_loop_teardown();
			g_test_skip("no cgroup io (v2) or blkio (v1) controller to throttle with");
			return;
		}
		g_setenv("SDT_TEST_LOOP_DEVICE", test_loop.device, TRUE);
		g_setenv("SDT_TEST_LOOP_MNT", test_loop.mnt, TRUE);
		g_setenv("SDT_TEST_THROTTLE_CGROUP", throttle, TRUE);
		g_test_trap_subprocess("/sdtuner/bench/loop/live-rate-throttled",
				       120 * G_USEC_PER_SEC,
				       G_TEST_SUBPROCESS_INHERIT_STDOUT |
					       G_TEST_SUBPROCESS_INHERIT_STDERR);
		g_rmdir(throttle);
		test_loop_teardown();
		g_test_trap_assert_passed();
		return;
	}
	/* into the throttled group, then a run with 1 MiB sequential blocks */
	{
		g_autofree gchar *procs = g_build_filename(cg, "cgroup.procs", NULL);
		g_autofree gchar *pid = g_strdup_printf("%d", getpid());
		gint fd = open(procs, O_WRONLY);
		g_assert_cmpint(fd, >=, 0);
		g_assert_cmpint(write(fd, pid, strlen(pid)), ==, (gssize) strlen(pid));
		close(fd);
	}
	test_config_tiny(&config);
	config.file_size = 8 * MIB;
	config.rand_seconds = 0.1;
	config.rand_qd1_seconds = 0.1;
	/* 2 MiB raw reads, larger than a loop device's largest request (1280 KiB) */
	config.raw_seconds = 1.5;
	config.raw_block_size = 2 * MIB;
	config.raw_max_bytes = 16 * MIB;
	target = sdt_bench_target_open(mnt, config.file_size, 0, &error);
	g_assert_no_error(error);
	result = sdt_bench_run(target, &config, test_rates_cb, &rates, NULL, &error);
	g_assert_no_error(error);

	/*
	 * The raw read through io_uring went to an io-wq worker for every block
	 * and, in some runs, read at exactly half the throttle (each block charged
	 * twice).  Blocking reads in a worker thread read at the throttle.
	 */
	{
		SdtBenchTestResult *raw = sdt_bench_result_get_test(result, "raw-read");
		g_assert_nonnull(raw);
		g_assert_cmpstr(raw->io_engine, ==, "threads");
		g_assert_cmpuint(raw->ios, >=, 3);
		g_assert_cmpfloat(raw->mb_s, >=, limit_mb_s * 0.85);
		g_assert_cmpfloat(raw->mb_s, <=, limit_mb_s * 1.15);
	}
	for (guint p = 0; p < G_N_ELEMENTS(seq); p++) {
		SdtBenchTestResult *test = sdt_bench_result_get_test(result, seq[p]);
		guint n = 0;
		/* the throttle holds: the test's own figure is at most the limit */
		g_assert_cmpfloat(test->mb_s, <=, limit_mb_s * 1.1);
		for (guint i = 0; i < rates.samples->len; i++) {
			TestRateSample *s = &g_array_index(rates.samples, TestRateSample, i);
			if (g_strcmp0(s->phase, seq[p]) != 0)
				continue;
			n++;
			g_test_message("%s %.2f s: %.2f MB/s", s->phase, s->at, s->rate);
			/* no 0.0 between two completions */
			g_assert_cmpfloat(s->rate, >, 0.0);
			/* and after the throttle's start, never above what it lets through */
			if (s->at >= 1.0)
				g_assert_cmpfloat(s->rate, <=, limit_mb_s * 1.25);
		}
		/* 8 blocks in about 2 s: a sample for most of them */
		g_assert_cmpuint(n, >=, 4);
	}

	/*
	 * Waiting costs nothing: with a cancellable (the helper always has one)
	 * the loop sleeps until a block completes, instead of waking every 50 ms
	 * to look at it.  Voluntary context switches of this thread: about one
	 * per block; 50 ms polling added 20 a second (40 over these 2 s).
	 */
	for (guint b = 0; b < 2; b++) {
		SdtBenchIoBackend backend =
			b == 0 ? SDT_BENCH_IO_BACKEND_AUTO : SDT_BENCH_IO_BACKEND_THREADS;
		g_autoptr(GCancellable) cancellable = g_cancellable_new();
		g_autoptr(SdtBenchIo) io =
			sdt_bench_io_new(backend, 1, target->fd, 1 * MIB, &error);
		SdtBenchIoJob job = {
			.dir = SDT_BENCH_IO_READ,
			.block_size = 1 * MIB,
			.length = 8 * MIB,
			.cancellable = cancellable,
		};
		SdtBenchIoStats stats;
		struct rusage ru0;
		struct rusage ru1;

		g_assert_no_error(error);
		g_assert_cmpint(getrusage(RUSAGE_THREAD, &ru0), ==, 0);
		g_assert_true(sdt_bench_io_run(io, &job, &stats, &error));
		g_assert_cmpint(getrusage(RUSAGE_THREAD, &ru1), ==, 0);
		g_assert_no_error(error);
		g_assert_cmpuint(stats.ios, ==, 8);
		/* 8 blocks at 4 MB/s: about 2 s (less what the throttle lets through at once) */
		g_assert_cmpfloat(stats.seconds, >=, 1.0);
		g_test_message("%s: %ld voluntary switches for %" G_GUINT64_FORMAT " blocks",
			       sdt_bench_io_backend_to_string(sdt_bench_io_get_backend(io)),
			       ru1.ru_nvcsw - ru0.ru_nvcsw,
			       stats.ios);
		g_assert_cmpint(ru1.ru_nvcsw - ru0.ru_nvcsw, <=, 2 * (glong) stats.ios + 4);
	}
	g_free(rates.phase);
	g_array_unref(rates.samples);
}

int
main(int argc, char **argv)
{
	gint rc;

	g_test_init(&argc, &argv, NULL);
	test_dirs_made = g_ptr_array_new_with_free_func(g_free);

	g_test_add_func("/sdtuner/bench/latency/percentiles", test_bench_latency_percentiles);
	g_test_add_func("/sdtuner/bench/profiles", test_bench_profiles);
	g_test_add_func("/sdtuner/bench/verdict", test_bench_verdict);

	g_test_add_func("/sdtuner/bench/target/tmpfile-has-no-name",
			test_bench_target_tmpfile_has_no_name);
	g_test_add_func("/sdtuner/bench/target/unlinked-fallback",
			test_bench_target_unlinked_fallback);
	g_test_add_func("/sdtuner/bench/target/tmpfs-not-supported",
			test_bench_target_tmpfs_not_supported);
	g_test_add_func("/sdtuner/bench/target/fs-magic", test_bench_target_fs_magic);
	g_test_add_func("/sdtuner/bench/target/ramfs-not-supported",
			test_bench_target_ramfs_not_supported);
	g_test_add_func("/sdtuner/bench/target/shared-tmpfs-says-tmpfs",
			test_bench_target_shared_tmpfs_says_tmpfs);
	g_test_add_func("/sdtuner/bench/target/shared-dir-refused",
			test_bench_target_shared_dir_refused);
	g_test_add_func("/sdtuner/bench/target/missing-dir", test_bench_target_missing_dir);

	g_test_add_func("/sdtuner/bench/io/uring-qd32-in-flight",
			test_bench_io_uring_qd32_in_flight);
	g_test_add_func("/sdtuner/bench/io/threads-qd32-in-flight",
			test_bench_io_threads_qd32_in_flight);
	g_test_add_func("/sdtuner/bench/io/fallback-without-uring",
			test_bench_io_fallback_without_uring);
	g_test_add_func("/sdtuner/bench/io/uring-registered-buffers",
			test_bench_io_uring_registered_buffers);
	g_test_add_data_func("/sdtuner/bench/io/large-buffers/threads",
			     GINT_TO_POINTER(SDT_BENCH_IO_BACKEND_THREADS),
			     test_bench_io_large_buffers);
	g_test_add_data_func("/sdtuner/bench/io/large-buffers/uring",
			     GINT_TO_POINTER(SDT_BENCH_IO_BACKEND_AUTO),
			     test_bench_io_large_buffers);
	g_test_add_func("/sdtuner/bench/io/sequential-steady-state",
			test_bench_io_sequential_steady_state);
	g_test_add_func("/sdtuner/bench/io/cpu-worker-exits-during-run",
			test_bench_io_cpu_worker_exits_during_run);
	g_test_add_data_func("/sdtuner/bench/io/cpu-of-io-threads-only/sync",
			     GINT_TO_POINTER(SDT_BENCH_IO_BACKEND_SYNC),
			     test_bench_io_cpu_of_io_threads_only);
	g_test_add_data_func("/sdtuner/bench/io/cpu-of-io-threads-only/uring",
			     GINT_TO_POINTER(SDT_BENCH_IO_BACKEND_AUTO),
			     test_bench_io_cpu_of_io_threads_only);
	g_test_add_data_func("/sdtuner/bench/io/cpu-of-io-threads-only/threads",
			     GINT_TO_POINTER(SDT_BENCH_IO_BACKEND_THREADS),
			     test_bench_io_cpu_of_io_threads_only);
	g_test_add_data_func("/sdtuner/bench/io/injected-error/sync",
			     GINT_TO_POINTER(SDT_BENCH_IO_BACKEND_SYNC),
			     test_bench_io_injected_error);
	g_test_add_data_func("/sdtuner/bench/io/injected-error/uring",
			     GINT_TO_POINTER(SDT_BENCH_IO_BACKEND_AUTO),
			     test_bench_io_injected_error);
	g_test_add_data_func("/sdtuner/bench/io/injected-error/threads",
			     GINT_TO_POINTER(SDT_BENCH_IO_BACKEND_THREADS),
			     test_bench_io_injected_error);

	g_test_add_func("/sdtuner/bench/engine/regular-file", test_bench_engine_regular_file);
	g_test_add_func("/sdtuner/bench/engine/injected-error", test_bench_engine_injected_error);
	g_test_add_func("/sdtuner/bench/engine/fixed-lengths", test_bench_engine_fixed_lengths);
	g_test_add_func("/sdtuner/bench/engine/record-confidence",
			test_bench_engine_record_confidence);
	g_test_add_func("/sdtuner/bench/stop/settled", test_bench_stop_settled);
	g_test_add_func("/sdtuner/bench/stop/noisy-to-cap", test_bench_stop_noisy);
	g_test_add_func("/sdtuner/bench/stop/slice-bytes", test_bench_stop_slice_bytes);
	g_test_add_func("/sdtuner/bench/io/stopping-rule", test_bench_io_stopping_rule);
	g_test_add_data_func("/sdtuner/bench/engine/cancel-leaves-no-file/tmpfile",
			     GUINT_TO_POINTER(SDT_BENCH_TARGET_FLAG_NONE),
			     test_bench_engine_cancel);
	g_test_add_data_func("/sdtuner/bench/engine/cancel-leaves-no-file/unlinked",
			     GUINT_TO_POINTER(SDT_BENCH_TARGET_FLAG_NO_TMPFILE),
			     test_bench_engine_cancel);

	g_test_add_func("/sdtuner/bench/ops/json-and-history", test_bench_ops_json_and_history);
	g_test_add_func("/sdtuner/bench/ops/dir-needs-root", test_bench_ops_dir_needs_root);
	g_test_add_func("/sdtuner/bench/ops/unknown-profile", test_bench_ops_unknown_profile);

	g_test_add_func("/sdtuner/bench/loop/engine", test_bench_loop_engine);
	g_test_add_func("/sdtuner/bench/loop/card-too-small", test_bench_loop_card_too_small);
	g_test_add_func("/sdtuner/bench/loop/disk-full", test_bench_loop_disk_full);
	g_test_add_func("/sdtuner/bench/loop/read-only", test_bench_loop_read_only);
	g_test_add_func("/sdtuner/bench/loop/device-gone", test_bench_loop_device_gone);
	g_test_add_func("/sdtuner/bench/loop/live-rate-throttled",
			test_bench_loop_live_rate_throttled);
	rc = g_test_run();
	/* a scratch folder left in /var/tmp is a stray test file: the run fails */
	if (test_dirs_left_behind() > 0)
		rc = 1;
	g_ptr_array_unref(test_dirs_made);
	return rc;
}
