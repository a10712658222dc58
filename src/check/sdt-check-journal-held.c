/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_TMPFILE, fallocate() */

#include "config.h"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "sdt-check-private.h"

/*
 * What the tries of the copies hold until they are all placed.  A try whose blocks hold
 * data stays held, so that the next try gets other blocks; and since the blocks freed
 * next to it were most likely freed with it (a benchmark's test file of random bytes,
 * removed from the same state folder; any file removed lately), a file without a name
 * grows past them, by 1 MiB, then twice as much each time up to SDT_JOURNAL_SKIP_MAX,
 * where ext4 goes on from the file's last block: the next try lands beyond.  It never
 * takes more than @budget bytes (the running system keeps a quarter of what was free);
 * all of it is given back when the copies are placed (fallocate: nothing written).
 */
#define SDT_JOURNAL_SKIP_MIN (1u << 20)
#define SDT_JOURNAL_SKIP_MAX (16u << 20)

void
sdt_check_journal_held_init(SdtCheckJournalHeld *held, const gchar *dir)
{
	struct statvfs vfs;
	guint64 avail = 0;

	held->fds = g_array_new(FALSE, FALSE, sizeof(gint));
	held->skip_fd = -1;
	held->len = 0;
	held->step = SDT_JOURNAL_SKIP_MIN;
	if (statvfs(dir, &vfs) == 0)
		avail = (guint64) vfs.f_bavail * vfs.f_frsize;
	held->budget = avail - MIN(avail, MAX(avail / 4, 16u << 20));
}

/* everything held let go: the copies have their blocks */
void
sdt_check_journal_held_clear(SdtCheckJournalHeld *held)
{
	for (guint i = 0; held->fds != NULL && i < held->fds->len; i++)
		close(g_array_index(held->fds, gint, i));
	g_clear_pointer(&held->fds, g_array_unref);
	held->skip_fd = -1;
}

/* past the blocks freed next to a try that held data: FALSE when nothing more can be
 * held (the budget spent, no space, no file without a name) */
gboolean
sdt_check_journal_held_skip(SdtCheckJournalHeld *held, const gchar *dir)
{
	if (held->skip_fd < 0) {
		held->skip_fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (held->skip_fd < 0)
			return FALSE;
		g_array_append_val(held->fds, held->skip_fd);
	}
	while (held->step >= SDT_JOURNAL_SKIP_MIN) {
		guint64 step = MIN(held->step, held->budget - MIN(held->budget, held->len));
		if (step >= SDT_JOURNAL_SKIP_MIN &&
		    fallocate(held->skip_fd, 0, (off_t) held->len, (off_t) step) == 0) {
			held->len += step;
			held->step = MIN(held->step * 2, SDT_JOURNAL_SKIP_MAX);
			return TRUE;
		}
		/* less, closer to the budget's end or to the free space's */
		held->step /= 2;
	}
	return FALSE;
}
