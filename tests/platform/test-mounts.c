/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-error.h"
#include "sdt-mounts.h"
#include "sdt-mounts-private.h"

/* a Raspberry Pi OS layout, plus an escaped path and an overmount */
static const gchar *mountinfo =
	"22 1 179:2 / / rw,noatime shared:1 - ext4 /dev/mmcblk0p2 rw\n"
	"24 22 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n"
	"31 22 179:1 / /boot/firmware rw,relatime shared:20 master:3 - vfat /dev/mmcblk0p1 "
	"rw,fmask=0022,dmask=0022\n"
	"40 22 8:1 /photos /media/pi/My\\040Disk ro,relatime - ext4 /dev/sda1 rw\n"
	"41 22 8:2 / /mnt rw,relatime - btrfs /dev/sda2 ro,space_cache\n"
	"42 41 0:30 / /mnt rw,relatime - tmpfs tmpfs rw\n"
	"this is not a mountinfo line\n"
	"43 22 x:y / /bad rw - ext4 /dev/x rw\n"
	"44 22 8:3 / /nosep rw ext4 /dev/sda3 rw\n";

static void
test_parse(void)
{
	g_autoptr(GPtrArray) mounts = NULL;
	SdtMount *m;
	guint n_bad = 0;

	mounts = sdt_mounts_parse(mountinfo, &n_bad);
	g_assert_cmpuint(mounts->len, ==, 6);
	g_assert_cmpuint(n_bad, ==, 3);

	m = g_ptr_array_index(mounts, 0);
	g_assert_cmpuint(m->id, ==, 22);
	g_assert_cmpuint(m->parent_id, ==, 1);
	g_assert_cmpuint(m->major, ==, 179);
	g_assert_cmpuint(m->minor, ==, 2);
	g_assert_cmpstr(m->mount_point, ==, "/");
	g_assert_cmpstr(m->fs_type, ==, "ext4");
	g_assert_cmpstr(m->source, ==, "/dev/mmcblk0p2");
	g_assert_cmpstr(m->options, ==, "rw,noatime");
	g_assert_false(m->read_only);

	/* optional fields before the separator */
	m = g_ptr_array_index(mounts, 2);
	g_assert_cmpstr(m->mount_point, ==, "/boot/firmware");
	g_assert_cmpstr(m->fs_type, ==, "vfat");
	g_assert_cmpstr(m->super_options, ==, "rw,fmask=0022,dmask=0022");

	/* \040 is a space; "ro" per mount */
	m = g_ptr_array_index(mounts, 3);
	g_assert_cmpstr(m->mount_point, ==, "/media/pi/My Disk");
	g_assert_cmpstr(m->root, ==, "/photos");
	g_assert_true(m->read_only);

	/* "ro" per superblock */
	m = g_ptr_array_index(mounts, 4);
	g_assert_true(m->read_only);
	g_assert_true(m->fs_read_only);
}

static void
test_find(void)
{
	g_autoptr(GPtrArray) mounts = sdt_mounts_parse(mountinfo, NULL);
	g_autoptr(GPtrArray) dev = NULL;
	SdtMount *m;

	m = sdt_mounts_find_mount_point(mounts, "/boot/firmware");
	g_assert_nonnull(m);
	g_assert_cmpuint(m->minor, ==, 1);
	/* the last mount over a point is the visible one */
	m = sdt_mounts_find_mount_point(mounts, "/mnt");
	g_assert_cmpstr(m->fs_type, ==, "tmpfs");
	g_assert_null(sdt_mounts_find_mount_point(mounts, "/boot"));

	m = sdt_mounts_find_for_path(mounts, "/boot/firmware/config.txt");
	g_assert_cmpstr(m->mount_point, ==, "/boot/firmware");
	m = sdt_mounts_find_for_path(mounts, "/boot/firmwarex/file");
	g_assert_cmpstr(m->mount_point, ==, "/");
	m = sdt_mounts_find_for_path(mounts, "/var/tmp");
	g_assert_cmpstr(m->source, ==, "/dev/mmcblk0p2");
	m = sdt_mounts_find_for_path(mounts, "/mnt/x");
	g_assert_cmpstr(m->fs_type, ==, "tmpfs");

	dev = sdt_mounts_find_device(mounts, 179, 1);
	g_assert_cmpuint(dev->len, ==, 1);
	g_assert_cmpstr(((SdtMount *) g_ptr_array_index(dev, 0))->mount_point,
			==,
			"/boot/firmware");
	g_ptr_array_unref(dev);
	dev = sdt_mounts_find_device(mounts, 179, 5);
	g_assert_cmpuint(dev->len, ==, 0);
}

/* the helper's mount table under its unit's sandbox (tests/vm/systemd): the card's own
 * mounts are / and /boot/firmware; the rest are the sandbox's bind mounts of them */
static const gchar *sandbox_mountinfo =
	"22 1 179:2 / / ro,noatime shared:1 - ext4 /dev/mmcblk0p2 rw\n"
	"31 22 179:1 / /boot/firmware rw,relatime shared:20 - vfat /dev/mmcblk0p1 rw\n"
	"40 22 179:2 /boot /boot rw,noatime shared:1 - ext4 /dev/mmcblk0p2 rw\n"
	"41 31 179:1 / /boot/firmware rw,relatime shared:20 - vfat /dev/mmcblk0p1 rw\n"
	"42 22 179:2 /tmp/systemd-private-x/tmp /tmp rw,noatime - ext4 /dev/mmcblk0p2 rw\n"
	"43 22 179:2 /var/lib/sd-tuner /var/lib/sd-tuner rw,noatime - ext4 /dev/mmcblk0p2 rw\n"
	"44 22 0:30 /@home /home rw,relatime - btrfs /dev/sda1 rw\n";

static void
test_own_mounts(void)
{
	g_autoptr(GPtrArray) mounts = sdt_mounts_parse(sandbox_mountinfo, NULL);
	const gboolean own[] = {TRUE, FALSE, FALSE, TRUE, FALSE, FALSE, TRUE};

	g_assert_cmpuint(mounts->len, ==, G_N_ELEMENTS(own));
	for (guint i = 0; i < mounts->len; i++) {
		SdtMount *m = g_ptr_array_index(mounts, i);
		g_test_message("%s (root %s)", m->mount_point, m->root);
		/* covered by a later mount, a folder of a file system mounted whole elsewhere: not
		 * its own; a btrfs subvolume mounted alone is */
		g_assert_cmpint(sdt_mounts_is_own_mount(mounts, m), ==, own[i]);
	}
	/* read-only for this process only (ProtectSystem=strict), the file system is not */
	g_assert_true(((SdtMount *) g_ptr_array_index(mounts, 0))->read_only);
	g_assert_false(((SdtMount *) g_ptr_array_index(mounts, 0))->fs_read_only);
}

static void
test_load_under_root(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *root = g_test_build_filename(G_TEST_DIST, "data", "roots", "pi3", NULL);
	g_autofree gchar *empty =
		g_test_build_filename(G_TEST_DIST, "data", "boards", "empty-root", NULL);
	g_autoptr(SdtContext) ctx = sdt_context_new(root, &error);
	g_autoptr(SdtContext) ctx_empty = sdt_context_new(empty, &error);
	g_autoptr(GPtrArray) mounts = NULL;

	g_assert_no_error(error);
	mounts = sdt_mounts_load(ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(mounts->len, ==, 7);
	g_assert_cmpstr(sdt_mounts_find_mount_point(mounts, "/")->source, ==, "/dev/mmcblk0p2");

	g_assert_null(sdt_mounts_load(ctx_empty, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
	g_assert_nonnull(strstr(error->message, "mount table"));
}

/* every prefix and random byte flips: no crash, never more mounts */
static void
test_mutations(void)
{
	gsize len = strlen(mountinfo);

	for (gsize cut = 0; cut <= len; cut++) {
		g_autofree gchar *buf = g_strndup(mountinfo, cut);
		g_autoptr(GPtrArray) mounts = sdt_mounts_parse(buf, NULL);
		g_assert_cmpuint(mounts->len, <=, 6);
		sdt_mounts_find_for_path(mounts, "/boot/firmware/config.txt");
	}
	for (guint i = 0; i < 2000; i++) {
		g_autofree gchar *buf = g_strdup(mountinfo);
		g_autoptr(GPtrArray) mounts = NULL;
		for (guint j = 0; j < 4; j++)
			buf[g_test_rand_int_range(0, (gint32) len)] =
				(gchar) g_test_rand_int_range(1, 256);
		mounts = sdt_mounts_parse(buf, NULL);
		g_assert_cmpuint(mounts->len, <=, 6);
		sdt_mounts_find_mount_point(mounts, "/");
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/mounts/parse", test_parse);
	g_test_add_func("/sdtuner/mounts/find", test_find);
	g_test_add_func("/sdtuner/mounts/own-mounts", test_own_mounts);
	g_test_add_func("/sdtuner/mounts/load-under-root", test_load_under_root);
	g_test_add_func("/sdtuner/mounts/mutated-input-never-crashes", test_mutations);
	return g_test_run();
}
