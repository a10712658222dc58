/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * libFuzzer target for the journal readers and the revert that trusts them.
 * The input is written as <state>/config-journal.json ("@STATE@" in it is
 * replaced by the state folder, so seeds can name a real backup) next to a
 * config.txt that holds SD Tuner's block, then:
 * - both schema readers run on the raw bytes (a wrong member type must be an
 *   error, never a Json-CRITICAL: run with G_DEBUG=fatal-criticals);
 * - revert either fails and leaves config.txt as it was, or succeeds and no
 *   line SD Tuner wrote (dtparam=sd_overclock=100) nor a marker is left.
 * Build and run with `tools/fuzz.sh journal`.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sdt-config-apply.h"
#include "sdt-config-journal-doc.h"
#include "sdt-config-writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const gchar *fuzz_before = "dtparam=audio=on\n[pi4]\narm_boost=1\n[all]\n";

static gchar *fuzz_dir;
static gchar *fuzz_config;
static gchar *fuzz_state;
static gchar *fuzz_applied;
static gsize fuzz_applied_len;

static void
fuzz_setup(void)
{
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(SdtConfigApplyResult) res = NULL;
	g_autofree gchar *backups = NULL;
	const gchar *lines[] = {"dtparam=sd_overclock=100", NULL};
	SdtConfigBlock block = {"sd-overclock-100",
				"[board-type=0x08]",
				lines,
				0x08,
				SDT_CONFIG_SD_OVERCLOCK | SDT_CONFIG_SD_OVERLAY_SDHOST};

	fuzz_dir = g_dir_make_tmp("sdt-fuzz-journal-XXXXXX", NULL);
	if (fuzz_dir == NULL)
		abort();
	fuzz_config = g_build_filename(fuzz_dir, "config.txt", NULL);
	fuzz_state = g_build_filename(fuzz_dir, "state", NULL);
	backups = g_build_filename(fuzz_state, "backups", NULL);
	if (!g_file_set_contents(fuzz_config, fuzz_before, -1, NULL))
		abort();
	writer = sdt_config_writer_new_for_paths(fuzz_config,
						 "/boot/firmware/config.txt",
						 fuzz_state);
	res = sdt_config_apply(writer, &block, FALSE, NULL);
	if (res == NULL ||
	    !g_file_get_contents(fuzz_config, &fuzz_applied, &fuzz_applied_len, NULL))
		abort();
	/* a fixed backup name the seeds can refer to as @STATE@/backups/config.txt.seed */
	{
		g_autofree gchar *seed = g_build_filename(backups, "config.txt.seed", NULL);
		if (!g_file_set_contents(seed, fuzz_before, -1, NULL))
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(SdtConfigJournalDoc) journal = NULL;
	g_autoptr(SdtConfigJournalDocTrial) trial = NULL;
	g_autoptr(SdtConfigApplyRevert) res = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GString) text = NULL;
	g_autofree gchar *journal_path = NULL;
	g_autofree gchar *now = NULL;
	gsize now_len = 0;

	if (size > 64 * 1024)
		return 0;
	if (fuzz_dir == NULL)
		fuzz_setup();

	/* the readers on the raw bytes */
	journal = sdt_config_journal_doc_parse((const gchar *) data, size, NULL);
	trial = sdt_config_journal_doc_trial_parse((const gchar *) data, size, NULL);
	if (journal != NULL) {
		/* what the codec accepted it writes back, and reads again */
		g_autofree gchar *again = sdt_config_journal_doc_to_string(journal);
		g_autoptr(SdtConfigJournalDoc) reread =
			sdt_config_journal_doc_parse(again, strlen(again), NULL);
		if (reread == NULL || g_strcmp0(reread->id, journal->id) != 0)
			abort();
	}

	/* the revert that trusts it */
	text = g_string_new_len((const gchar *) data, (gssize) size);
	g_string_replace(text, "@STATE@", fuzz_state, 0);
	journal_path = g_build_filename(fuzz_state, "config-journal.json", NULL);
	if (!g_file_set_contents(fuzz_config, fuzz_applied, (gssize) fuzz_applied_len, NULL) ||
	    !g_file_set_contents(journal_path, text->str, (gssize) text->len, NULL))
		abort();
	writer = sdt_config_writer_new_for_paths(fuzz_config,
						 "/boot/firmware/config.txt",
						 fuzz_state);
	res = sdt_config_apply_revert(writer, &error);
	if (!g_file_get_contents(fuzz_config, &now, &now_len, NULL))
		abort();
	if (res == NULL) {
		/* refused: nothing changed */
		if (error == NULL || now_len != fuzz_applied_len ||
		    memcmp(now, fuzz_applied, now_len) != 0)
			abort();
	} else {
		/* success: SD Tuner's setting and markers are gone, the rest is as before */
		if (strstr(now, "dtparam=sd_overclock=100") != NULL ||
		    strstr(now, SDT_CONFIG_BLOCK_BEGIN) != NULL || strcmp(now, fuzz_before) != 0)
			abort();
	}
	return 0;
}
