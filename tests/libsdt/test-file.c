/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-test-util.h"

typedef struct {
	gchar *dir;
} Fixture;

static void
fixture_setup(Fixture *f, gconstpointer data)
{
	f->dir = g_dir_make_tmp("sdt-file-XXXXXX", NULL);
	g_assert_nonnull(f->dir);
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	g_assert_true(sdt_test_rm_rf(f->dir));
	g_free(f->dir);
}

static void
test_file_regular(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = g_build_filename(f->dir, "config.txt", NULL);
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;
	gsize len = 0;
	const gchar bytes[] = "# \xdc"
			      "bertaktung\n\0after-nul\n";

	g_assert_true(g_file_set_contents(path, bytes, sizeof bytes - 1, NULL));
	g_assert_true(sdt_file_read_bounded(path, 1024, &text, &len, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(len, ==, sizeof bytes - 1);
	g_assert_cmpmem(text, len, bytes, sizeof bytes - 1);
	g_assert_cmpint(text[len], ==, '\0');

	/* exactly at the limit is fine, one byte less is not */
	g_clear_pointer(&text, g_free);
	g_assert_true(sdt_file_read_bounded(path, sizeof bytes - 1, &text, NULL, &error));
	g_assert_no_error(error);
	g_clear_pointer(&text, g_free);
	g_assert_false(sdt_file_read_bounded(path, sizeof bytes - 2, &text, NULL, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_null(text);
}

/* a FIFO must be refused at once, not read (the helper would hang holding its lock) */
static void
test_file_fifo(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = g_build_filename(f->dir, "tryboot.txt", NULL);
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(mkfifo(path, 0600), ==, 0);
	g_assert_false(sdt_file_read_bounded(path, 1024, &text, NULL, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "not a regular file"));
	g_assert_null(text);
}

static void
test_file_symlink(Fixture *f, gconstpointer data)
{
	g_autofree gchar *target = g_build_filename(f->dir, "target", NULL);
	g_autofree gchar *path = g_build_filename(f->dir, "link", NULL);
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;

	g_assert_true(g_file_set_contents(target, "x=1\n", -1, NULL));
	g_assert_cmpint(symlink(target, path), ==, 0);
	g_assert_false(sdt_file_read_bounded(path, 1024, &text, NULL, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_null(text);
}

static void
test_file_missing_and_dir(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = g_build_filename(f->dir, "missing", NULL);
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;

	g_assert_false(sdt_file_read_bounded(path, 1024, &text, NULL, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
	g_clear_error(&error);
	g_assert_false(sdt_file_read_bounded(f->dir, 1024, &text, NULL, &error));
	g_assert_nonnull(error);
	g_assert_null(text);
}

/* procfs reports size 0 for files that hold bytes: the reader reads until end-of-file */
static void
test_kernel_size_zero(Fixture *f, gconstpointer data)
{
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;
	struct stat st;
	gsize len = 0;

	g_assert_cmpint(stat("/proc/sys/kernel/random/boot_id", &st), ==, 0);
	g_assert_cmpint(st.st_size, ==, 0);
	g_assert_true(sdt_file_read_kernel(NULL,
					   "/proc/sys/kernel/random/boot_id",
					   128,
					   &text,
					   &len,
					   &error));
	g_assert_no_error(error);
	/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx\n" */
	g_assert_cmpuint(len, ==, 37);
	g_assert_cmpint(text[36], ==, '\n');
	g_assert_cmpint(text[37], ==, '\0');
	g_clear_pointer(&text, g_free);
	g_assert_true(sdt_file_read_kernel(NULL, "/proc/uptime", 64, &text, &len, &error));
	g_assert_no_error(error);
	g_assert_cmpfloat(g_ascii_strtod(text, NULL), >, 0);
}

/* sysfs reports 4096 whatever a file holds */
static void
test_kernel_sysfs_size(Fixture *f, gconstpointer data)
{
	const gchar *path = "/sys/kernel/uevent_seqnum";
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;
	struct stat st;
	guint64 n = 0;
	gsize len = 0;

	g_assert_cmpint(stat(path, &st), ==, 0);
	g_assert_cmpint(st.st_size, ==, 4096);
	g_assert_true(sdt_file_read_kernel(NULL, path, 64, &text, &len, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(len, <, 64);
	g_strstrip(text);
	g_assert_true(g_ascii_string_to_unsigned(text, 10, 0, G_MAXUINT64, &n, NULL));
}

/*
 * A seq_file (/proc/self/maps) hands out one page per read(): 64 mappings of
 * their own make it several pages long, and every one of them must be in what
 * the reader returns.
 */
static void
test_kernel_short_read(Fixture *f, gconstpointer data)
{
	gsize page = (gsize) sysconf(_SC_PAGESIZE);
	g_autofree gchar *text = NULL;
	g_autofree gchar *once = g_malloc(1024 * 1024);
	g_autoptr(GError) error = NULL;
	guint8 *area;
	gssize first;
	gsize len = 0;
	gint fd;

	/* alternating protections keep the kernel from merging them */
	area = mmap(NULL, 128 * page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	g_assert_true(area != MAP_FAILED);
	for (guint i = 0; i < 128; i += 2)
		g_assert_cmpint(mprotect(area + i * page, page, PROT_READ | PROT_WRITE), ==, 0);
	fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	g_assert_cmpint(fd, >=, 0);
	first = read(fd, once, 1024 * 1024);
	close(fd);
	g_assert_true(
		sdt_file_read_kernel(NULL, "/proc/self/maps", 1024 * 1024, &text, &len, &error));
	g_assert_no_error(error);
	/* the kernel's read was short: less than the file, less than asked */
	g_assert_cmpint(first, >, 0);
	g_assert_cmpuint((gsize) first, <, len);
	for (guint i = 0; i < 128; i++) {
		g_autofree gchar *start = g_strdup_printf("%08" G_GINT64_MODIFIER "x-",
							  (guint64) (guintptr) (area + i * page));
		g_assert_nonnull(strstr(text, start));
	}
	g_assert_cmpint(munmap(area, 128 * page), ==, 0);
}

typedef struct {
	gchar *path;
	gint stop;
} Grower;

static gpointer
grower_run(gpointer data)
{
	Grower *g = data;
	gint fd = open(g->path, O_WRONLY | O_APPEND | O_CLOEXEC);
	gchar line[64];

	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\n';
	/* at most 1.3 MB: the reads below must stay under their maximum */
	for (guint i = 0; i < 20000 && !g_atomic_int_get(&g->stop); i++)
		g_assert_cmpint(write(fd, line, sizeof(line)), ==, sizeof(line));
	close(fd);
	return NULL;
}

/* a file that grows while it is read: what was there is read, nothing refused */
static void
test_kernel_growing(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = g_build_filename(f->dir, "grows", NULL);
	Grower g = {path, 0};
	GThread *thread;

	g_assert_true(g_file_set_contents(path, "start\n", -1, NULL));
	thread = g_thread_new("grower", grower_run, &g);
	for (guint i = 0; i < 50; i++) {
		g_autofree gchar *text = NULL;
		g_autoptr(GError) error = NULL;
		gsize len = 0;

		g_assert_true(
			sdt_file_read_kernel(NULL, path, 64 * 1024 * 1024, &text, &len, &error));
		g_assert_no_error(error);
		g_assert_true(g_str_has_prefix(text, "start\n"));
		g_assert_cmpuint(len, >=, 6);
	}
	g_atomic_int_set(&g.stop, 1);
	g_thread_join(thread);
}

static void
test_kernel_too_large(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = g_build_filename(f->dir, "large", NULL);
	g_autofree gchar *bytes = g_malloc(10001);
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;
	gsize len = 0;

	memset(bytes, 'a', 10001);
	g_assert_true(g_file_set_contents(path, bytes, 10001, NULL));
	g_assert_true(sdt_file_read_kernel(NULL, path, 10001, &text, &len, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(len, ==, 10001);
	g_clear_pointer(&text, g_free);
	g_assert_false(sdt_file_read_kernel(NULL, path, 10000, &text, &len, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "more than"));
	g_assert_null(text);
}

/* /dev/zero would never end: a device node is refused before any read */
static void
test_kernel_dev_zero(Fixture *f, gconstpointer data)
{
	g_autofree gchar *root = g_build_filename(f->dir, "root", NULL);
	g_autofree gchar *dt = g_build_filename(root, "proc", "device-tree", NULL);
	g_autofree gchar *model = g_build_filename(dt, "model", NULL);
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;
	gint64 start = g_get_monotonic_time();

	g_assert_false(sdt_file_read_kernel(NULL, "/dev/zero", 1024, &text, NULL, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "device node"));
	g_clear_error(&error);

	/* a copied root whose model is a link to /dev/zero */
	g_assert_cmpint(g_mkdir_with_parents(dt, 0755), ==, 0);
	g_assert_cmpint(symlink("/dev/zero", model), ==, 0);
	g_assert_false(
		sdt_file_read_kernel(root, "/proc/device-tree/model", 1024, &text, NULL, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_null(text);
	g_assert_cmpint(g_get_monotonic_time() - start, <, G_USEC_PER_SEC);
}

/* a FIFO would block the reader until someone writes: refused at once */
static void
test_kernel_fifo(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = g_build_filename(f->dir, "ios", NULL);
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(mkfifo(path, 0600), ==, 0);
	g_assert_false(sdt_file_read_kernel(NULL, path, 1024, &text, NULL, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "FIFO"));
	g_assert_null(text);
}

/* links are resolved inside the root, as the Pi would; nothing outside it is read */
static void
test_kernel_root_links(Fixture *f, gconstpointer data)
{
	g_autofree gchar *root = g_build_filename(f->dir, "root", NULL);
	g_autofree gchar *outside = g_build_filename(f->dir, "outside", NULL);
	g_autofree gchar *base = g_build_filename(root, "sys/firmware/devicetree/base", NULL);
	g_autofree gchar *proc = g_build_filename(root, "proc", NULL);
	g_autofree gchar *link = g_build_filename(proc, "device-tree", NULL);
	g_autofree gchar *file = NULL;
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;
	gsize len = 0;

	g_assert_cmpint(g_mkdir_with_parents(base, 0755), ==, 0);
	g_assert_cmpint(g_mkdir_with_parents(proc, 0755), ==, 0);
	g_assert_cmpint(g_mkdir_with_parents(outside, 0755), ==, 0);
	file = g_build_filename(base, "model", NULL);
	g_assert_true(g_file_set_contents(file, "Raspberry Pi 3 Model B", 23, NULL));
	g_clear_pointer(&file, g_free);
	file = g_build_filename(outside, "model", NULL);
	g_assert_true(g_file_set_contents(file, "outside", -1, NULL));

	/* an absolute link of the image, as on a Pi: read under the root */
	g_assert_cmpint(symlink("/sys/firmware/devicetree/base", link), ==, 0);
	g_assert_true(
		sdt_file_read_kernel(root, "/proc/device-tree/model", 1024, &text, &len, &error));
	g_assert_no_error(error);
	g_assert_cmpmem(text, len, "Raspberry Pi 3 Model B", 23);
	g_clear_pointer(&text, g_free);

	/* a link to a folder outside the root, absolute or by "..": never read */
	g_assert_cmpint(unlink(link), ==, 0);
	g_assert_cmpint(symlink(outside, link), ==, 0);
	g_assert_false(
		sdt_file_read_kernel(root, "/proc/device-tree/model", 1024, &text, &len, &error));
	g_assert_nonnull(error);
	g_assert_null(text);
	g_clear_error(&error);
	g_assert_cmpint(unlink(link), ==, 0);
	g_assert_cmpint(symlink("../../outside", link), ==, 0);
	g_assert_false(
		sdt_file_read_kernel(root, "/proc/device-tree/model", 1024, &text, &len, &error));
	g_assert_nonnull(error);
	g_assert_null(text);
	g_clear_error(&error);

	/* a link as the file itself is refused even inside the root */
	g_assert_cmpint(unlink(link), ==, 0);
	g_assert_cmpint(g_mkdir(link, 0755), ==, 0);
	g_clear_pointer(&file, g_free);
	file = g_build_filename(link, "model", NULL);
	g_assert_cmpint(symlink("/sys/firmware/devicetree/base/model", file), ==, 0);
	g_assert_false(
		sdt_file_read_kernel(root, "/proc/device-tree/model", 1024, &text, &len, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "symbolic link"));
	g_clear_error(&error);

	/* missing: NOT_FOUND, as the callers expect for an absent kernel file */
	g_assert_false(sdt_file_read_kernel(root, "/proc/uptime", 1024, &text, &len, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
}

/* from here on openat2() fails with ENOSYS, as on a kernel before 5.6 */
static void
deny_openat2(void)
{
#ifdef SYS_openat2
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {G_N_ELEMENTS(filter), filter};

	g_assert_cmpint(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), ==, 0);
	g_assert_cmpint(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog), ==, 0);
	g_assert_cmpint(syscall(SYS_openat2, AT_FDCWD, "/", NULL, 0), ==, -1);
	g_assert_cmpint(errno, ==, ENOSYS);
#endif
}

/*
 * Without openat2(): the file's folder, links resolved by the kernel as usual,
 * must lie under the root; a relative link inside it is followed, a link out
 * of it refused, saying so.
 */
static void
test_kernel_no_openat2(Fixture *f, gconstpointer data)
{
	g_autofree gchar *root = g_build_filename(f->dir, "root", NULL);
	g_autofree gchar *outside = g_build_filename(f->dir, "outside", NULL);
	g_autofree gchar *base = g_build_filename(root, "sys/firmware/devicetree/base", NULL);
	g_autofree gchar *proc = g_build_filename(root, "proc", NULL);
	g_autofree gchar *link = g_build_filename(proc, "device-tree", NULL);
	g_autofree gchar *file = g_build_filename(base, "model", NULL);
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;
	gsize len = 0;

	if (!g_test_subprocess()) {
		g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
		g_test_trap_assert_passed();
		return;
	}
	deny_openat2();
	g_assert_cmpint(g_mkdir_with_parents(base, 0755), ==, 0);
	g_assert_cmpint(g_mkdir_with_parents(proc, 0755), ==, 0);
	g_assert_cmpint(g_mkdir_with_parents(outside, 0755), ==, 0);
	g_assert_true(g_file_set_contents(file, "Raspberry Pi 3 Model B", 23, NULL));
	g_clear_pointer(&file, g_free);
	file = g_build_filename(outside, "model", NULL);
	g_assert_true(g_file_set_contents(file, "outside", -1, NULL));

	g_assert_cmpint(symlink("../sys/firmware/devicetree/base", link), ==, 0);
	g_assert_true(
		sdt_file_read_kernel(root, "/proc/device-tree/model", 1024, &text, &len, &error));
	g_assert_no_error(error);
	g_assert_cmpmem(text, len, "Raspberry Pi 3 Model B", 23);
	g_clear_pointer(&text, g_free);

	g_assert_cmpint(unlink(link), ==, 0);
	g_assert_cmpint(symlink(outside, link), ==, 0);
	g_assert_false(
		sdt_file_read_kernel(root, "/proc/device-tree/model", 1024, &text, &len, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "leads out of the root"));
	g_assert_null(text);
	g_clear_error(&error);

	/* a FIFO is refused the same way */
	g_clear_pointer(&file, g_free);
	file = g_build_filename(proc, "uptime", NULL);
	g_assert_cmpint(mkfifo(file, 0600), ==, 0);
	g_assert_false(sdt_file_read_kernel(root, "/proc/uptime", 1024, &text, &len, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/file/regular",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_file_regular,
		   fixture_teardown);
	g_test_add("/file/fifo", Fixture, NULL, fixture_setup, test_file_fifo, fixture_teardown);
	g_test_add("/file/symlink",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_file_symlink,
		   fixture_teardown);
	g_test_add("/file/missing-and-dir",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_file_missing_and_dir,
		   fixture_teardown);
	g_test_add("/file/kernel/size-zero",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_kernel_size_zero,
		   fixture_teardown);
	g_test_add("/file/kernel/sysfs-size",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_kernel_sysfs_size,
		   fixture_teardown);
	g_test_add("/file/kernel/short-read",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_kernel_short_read,
		   fixture_teardown);
	g_test_add("/file/kernel/growing",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_kernel_growing,
		   fixture_teardown);
	g_test_add("/file/kernel/too-large",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_kernel_too_large,
		   fixture_teardown);
	g_test_add("/file/kernel/dev-zero",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_kernel_dev_zero,
		   fixture_teardown);
	g_test_add("/file/kernel/fifo",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_kernel_fifo,
		   fixture_teardown);
	g_test_add("/file/kernel/root-links",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_kernel_root_links,
		   fixture_teardown);
	g_test_add("/file/kernel/no-openat2",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_kernel_no_openat2,
		   fixture_teardown);
	return g_test_run();
}
