/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

/* the scratch folder and tree removal the tests share come with the oracle */
#include "sdt-test-util.h"

G_BEGIN_DECLS

/* one board family of DESIGN.md board.key with a type code of it */
typedef struct {
	const gchar *key;
	gint type_code;
} SdtTestFamily;

extern const SdtTestFamily sdt_test_families[];
extern const guint sdt_test_n_families;

/* the project's own corpus (tests/data/config/ *.txt), or the shared reference
 * corpus outside the project ($SDTUNER_SHARED_DIR/data/config-corpus) */
typedef enum {
	SDT_TEST_CORPUS_OWN,
	SDT_TEST_CORPUS_SHARED,
} SdtTestCorpus;

/* the files of one corpus, sorted; for the shared one, NULL after g_test_skip()
 * with the reason when $SDTUNER_SHARED_DIR is not set or has no corpus */
GPtrArray *sdt_test_corpus_files(SdtTestCorpus which);

/*
 * A second implementation of the config.txt filter rules (PLATFORM.md §3.3),
 * written apart from sdt-config-txt.c on purpose: it works on raw text, uses
 * an inverted table (for each board, the model filters it sees), and returns
 * for every line 0 (does not apply), 1 (applies) or 2 (depends on a run-time
 * filter), in file order.
 */
GArray *sdt_test_oracle_applies(const gchar *data, gsize len, gint type_code);

/* the lines in effect on @type_code by the oracle: "text\tapplies" strings */
GPtrArray *sdt_test_oracle_in_effect(const gchar *data, gsize len, gint type_code);

G_END_DECLS
