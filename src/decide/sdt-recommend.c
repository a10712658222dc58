/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "sdt-board.h"
#include "sdt-cqe-quirks.h"
#include "sdt-recommend.h"
#include "sdt-recommend-private.h"

#define SDT_MHZ G_GUINT64_CONSTANT(1000000)

static void
sdt_recommendation_free(SdtRecommendation *rec)
{
	g_free(rec->id);
	g_free(rec->title);
	g_ptr_array_unref(rec->lines);
	g_free(rec->filter);
	g_free(rec->reason);
	g_free(rec->expected_effect);
	g_free(rec->risk);
	g_free(rec);
}

void
sdt_recommend_result_free(SdtRecommendResult *result)
{
	if (result == NULL)
		return;
	g_ptr_array_unref(result->recommendations);
	g_ptr_array_unref(result->notes);
	g_free(result->core_clock_detail);
	g_free(result);
}

/* PLATFORM.md §2.3: the smallest n >= 2 with core / n <= mhz + 0.999999 MHz */
guint64
sdt_recommend_sdhost_clock_hz(guint64 core_hz, guint mhz)
{
	guint64 request = (guint64) mhz * SDT_MHZ + (SDT_MHZ - 1);
	guint64 n;

	if (core_hz == 0 || request == 0)
		return 0;
	n = (core_hz + request - 1) / request;
	if (n < 2)
		n = 2;
	return core_hz / n;
}

/*
 * The filter of the board table (sdt-board.c): it reaches exactly the boards
 * that share this board's SD controller and core clock (PLATFORM.md §2.1,
 * §3.8).  NULL for boards SD Tuner writes nothing for.
 */
const gchar *
sdt_recommend_filter_for_type(gint type_code)
{
	const SdtBoardModel *model;

	if (type_code < 0)
		return NULL;
	model = sdt_board_model_lookup_type((guint) type_code);
	if (model == NULL || (model->controller != SDT_SD_CONTROLLER_SDHOST &&
			      model->controller != SDT_SD_CONTROLLER_SDHCI_BRCMSTB))
		return NULL;
	return model->filter;
}

static SdtRecommendation *
sdt_recommendation_new(const gchar *id, const gchar *line, const gchar *filter)
{
	SdtRecommendation *rec = g_new0(SdtRecommendation, 1);
	rec->id = g_strdup(id);
	rec->lines = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(rec->lines, g_strdup(line));
	rec->filter = g_strdup(filter);
	return rec;
}

static gchar *
sdt_mhz_to_string(guint64 hz)
{
	/* "100", "83.3" */
	if (hz % SDT_MHZ == 0)
		return g_strdup_printf("%" G_GUINT64_FORMAT, hz / SDT_MHZ);
	return g_strdup_printf("%.1f", (gdouble) hz / SDT_MHZ);
}

static void
sdt_recommend_notes_classes(const SdtRecommendFacts *facts, GPtrArray *notes)
{
	g_ptr_array_add(notes,
			g_strdup(_("A1 and A2 are the SD Association's application performance "
				   "classes. An A1 card promises at least 1500 random 4 KiB reads "
				   "and 500 random 4 KiB writes per second, an A2 card 4000 reads "
				   "and 2000 writes; both promise at least 10 MB/s of sustained "
				   "sequential writing.")));
	g_ptr_array_add(notes,
			g_strdup(_("Command queueing lets the computer hand the card many "
				   "requests at once, so the card can work on them in the order "
				   "that suits it and collect writes in its cache. The A2 figures "
				   "assume that the computer uses command queueing and the card's "
				   "cache.")));
	if (g_strcmp0(facts->controller, "sdhci-brcmstb") == 0) {
		g_ptr_array_add(
			notes,
			g_strdup(_("This board's SD controller can queue commands. Linux turns "
				   "queueing on only for A2 cards known to handle it well "
				   "(dtparam=sd_cqe=1, the default); sd_cqe=2 also allows other A2 "
				   "cards, and sd_cqe=0 switches it off.")));
	} else {
		g_ptr_array_add(
			notes,
			g_strdup(_("This board's SD controller cannot queue commands, so an A2 "
				   "card runs one command at a time here. Many A2 cards are then "
				   "no faster at random reads and writes than a good A1 card, and "
				   "some are slower, because they are built for queued, cached "
				   "work. Judge the card by the measured random speed, not by the "
				   "label.")));
	}
}

const gchar *
sdt_recommend_core_clock_source_to_string(SdtCoreClockSource source)
{
	switch (source) {
	case SDT_CORE_CLOCK_RUNNING:
		return "running-system";
	case SDT_CORE_CLOCK_UART_FIXED:
		return "enable-uart";
	case SDT_CORE_CLOCK_UART_TURBO:
		return "enable-uart-force-turbo";
	case SDT_CORE_CLOCK_CONFIG_CORE_FREQ:
		return "core-freq";
	case SDT_CORE_CLOCK_BOARD_DEFAULT:
	default:
		return "board-default";
	}
}

/* the clock config.txt and the board give, without a reading of the running system */
static guint
sdt_recommend_core_clock_configured(const SdtRecommendFacts *facts, SdtCoreClockSource *source)
{
	guint turbo = facts->config_core_freq_mhz > 0 ? facts->config_core_freq_mhz
		      : facts->core_clock_mhz > 0     ? facts->core_clock_mhz
						      : 250;

	/* docs/PLATFORM.md §2.3: enable_uart=1 fixes the core clock while the mini
	 * UART is the primary UART; disable-bt and miniuart-bt make the PL011
	 * primary, and then the core keeps its own clock */
	if (facts->mini_uart && facts->enable_uart && !facts->pl011_primary) {
		if (facts->force_turbo) {
			*source = SDT_CORE_CLOCK_UART_TURBO;
			return turbo;
		}
		*source = SDT_CORE_CLOCK_UART_FIXED;
		return 250;
	}
	if (facts->config_core_freq_mhz > 0) {
		*source = SDT_CORE_CLOCK_CONFIG_CORE_FREQ;
		return facts->config_core_freq_mhz;
	}
	*source = SDT_CORE_CLOCK_BOARD_DEFAULT;
	return turbo;
}

guint
sdt_recommend_core_clock(const SdtRecommendFacts *facts, SdtCoreClockSource *source)
{
	SdtCoreClockSource dummy;

	if (source == NULL)
		source = &dummy;
	if (facts->running_core_clock_mhz > 0) {
		*source = SDT_CORE_CLOCK_RUNNING;
		return facts->running_core_clock_mhz;
	}
	return sdt_recommend_core_clock_configured(facts, source);
}

guint
sdt_recommend_core_clock_mhz(const SdtRecommendFacts *facts)
{
	return sdt_recommend_core_clock(facts, NULL);
}

/* "1", "2", ...: the firmware takes any non-zero number as on */
static gboolean
sdt_recommend_config_on(const gchar *value)
{
	return value != NULL && atoi(value) != 0;
}

void
sdt_recommend_facts_from_config(SdtRecommendFacts *facts, SdtConfigTxt *cfg, gint type_code)
{
	static const gchar *const pl011_overlays[] = {"disable-bt",
						      "miniuart-bt",
						      "pi3-disable-bt",
						      "pi3-miniuart-bt",
						      NULL};
	g_autoptr(GPtrArray) lines = sdt_config_entries_lines_in_effect(cfg, type_code);
	const gchar *core_freq = sdt_config_entries_get_value(cfg, "core_freq", type_code);

	facts->enable_uart = sdt_recommend_config_on(
		sdt_config_entries_get_value(cfg, "enable_uart", type_code));
	facts->force_turbo = sdt_recommend_config_on(
		sdt_config_entries_get_value(cfg, "force_turbo", type_code));
	facts->config_core_freq_mhz =
		core_freq != NULL && atoi(core_freq) > 0 ? (guint) atoi(core_freq) : 0;
	facts->pl011_primary = FALSE;
	for (guint i = 0; i < lines->len; i++) {
		const SdtConfigEntry *entry = g_ptr_array_index(lines, i);
		const gchar *overlay = entry->line->overlay;
		g_autofree gchar *name = NULL;

		/* only a line that surely applies: a run-time filter may not hold */
		if (entry->applies != SDT_CONFIG_APPLIES_YES || overlay == NULL)
			continue;
		name = g_strstrip(g_strdup(overlay));
		if (g_strv_contains(pl011_overlays, name))
			facts->pl011_primary = TRUE;
	}
}

/* records which core clock the advice uses, and where the figure came from */
static guint
sdt_recommend_sdhost_core(const SdtRecommendFacts *facts, SdtRecommendResult *result)
{
	SdtCoreClockSource configured_source;
	guint configured = sdt_recommend_core_clock_configured(facts, &configured_source);

	result->core_clock_mhz = sdt_recommend_core_clock(facts, &result->core_clock_source);
	switch (result->core_clock_source) {
	case SDT_CORE_CLOCK_RUNNING:
		result->core_clock_detail = g_strdup(facts->running_core_clock_source != NULL
							     ? facts->running_core_clock_source
							     : "the running system");
		break;
	case SDT_CORE_CLOCK_UART_FIXED:
		result->core_clock_detail =
			g_strdup("config.txt: enable_uart=1 with the mini UART as primary UART");
		break;
	case SDT_CORE_CLOCK_UART_TURBO:
		result->core_clock_detail =
			g_strdup("config.txt: enable_uart=1 with the mini UART as primary UART, "
				 "and force_turbo=1");
		break;
	case SDT_CORE_CLOCK_CONFIG_CORE_FREQ:
		result->core_clock_detail = g_strdup("config.txt: core_freq");
		break;
	case SDT_CORE_CLOCK_BOARD_DEFAULT:
	default:
		result->core_clock_detail = g_strdup("the board's default core clock");
		break;
	}
	if (result->core_clock_source == SDT_CORE_CLOCK_RUNNING &&
	    configured != result->core_clock_mhz)
		g_ptr_array_add(
			result->notes,
			/* Translators: two clocks in MHz */
			g_strdup_printf(_("The running system reports a core clock of %u MHz, "
					  "while config.txt and the board's default give %u MHz; "
					  "SD Tuner uses the reported clock. If config.txt was "
					  "changed since the last boot, reboot and look again."),
					result->core_clock_mhz,
					configured));
	return result->core_clock_mhz;
}

static void
sdt_recommend_note_no_filter(SdtRecommendResult *result)
{
	g_ptr_array_add(result->notes,
			g_strdup(_("SD Tuner does not know a config.txt filter that "
				   "reaches only this board model, so it suggests no "
				   "change.")));
}

/* the step to recommend: the fastest core / n not above 100 MHz, or, after
 * errors, the next slower step than the one in use */
static guint64
sdt_recommend_sdhost_step(const SdtRecommendFacts *facts, guint64 core_hz)
{
	guint64 n = (core_hz + 100 * SDT_MHZ + SDT_MHZ - 2) / (100 * SDT_MHZ + SDT_MHZ - 1);

	if (n < 2)
		n = 2;
	if (facts->log_overclock_reduced) {
		guint64 current = facts->log_overclock_hz;
		if (current == 0 && facts->config_overclock_mhz > 0)
			current =
				sdt_recommend_sdhost_clock_hz(core_hz, facts->config_overclock_mhz);
		if (current == 0)
			current = facts->actual_clock_hz;
		if (current > 0)
			n = MAX(n, (core_hz + current / 2) / current + 1);
	}
	return core_hz / n;
}

/*
 * SD Tuner's overclock is in place and takes effect: only errors lead to
 * another step (never back up).  The clock it gives is that of the
 * sd_overclock in effect, a number config.txt gives, not one read back from
 * the block's id.
 */
static gboolean
sdt_recommend_sdhost_in_place(const SdtRecommendFacts *facts,
			      SdtRecommendResult *result,
			      guint64 core_hz)
{
	g_autofree gchar *in_place_clock = NULL;

	if (facts->log_overclock_reduced || facts->config_block_id == NULL ||
	    !g_str_has_prefix(facts->config_block_id, "sd-overclock-") ||
	    facts->config_overclock_mhz <= 0)
		return FALSE;
	in_place_clock = sdt_mhz_to_string(
		sdt_recommend_sdhost_clock_hz(core_hz, (guint) facts->config_overclock_mhz));
	g_ptr_array_add(result->notes,
			/* Translators: a recommendation id, then a clock in MHz */
			g_strdup_printf(_("SD Tuner's setting %s is in place; the SD "
					  "clock is %s MHz once the Pi has rebooted."),
					facts->config_block_id,
					in_place_clock));
	if (facts->config_sdhost_overlay)
		g_ptr_array_add(result->notes,
				g_strdup(_("A dtoverlay=sdhost line that also applies to "
					   "other boards is still in config.txt; it switches "
					   "off Wi-Fi on this board: remove it by hand.")));
	return TRUE;
}

/* overclocked at @step_hz or more by a line of the user's that works (and is
 * not an overlay SD Tuner would replace) */
static gboolean
sdt_recommend_sdhost_user_overclock(const SdtRecommendFacts *facts,
				    guint64 core_hz,
				    guint64 step_hz)
{
	if (facts->log_overclock_reduced || facts->config_sdhost_overlay ||
	    facts->config_sdtweak_overlay)
		return FALSE;
	return facts->actual_clock_hz >= step_hz ||
	       (facts->config_overclock_mhz > 0 &&
		sdt_recommend_sdhost_clock_hz(core_hz, facts->config_overclock_mhz) >= step_hz);
}

/* why: the bus ceiling, or the errors in the kernel log; and the old overlay it replaces */
static gchar *
sdt_recommend_sdhost_reason(const SdtRecommendFacts *facts,
			    guint core_mhz,
			    guint value,
			    const gchar *clock)
{
	g_autofree gchar *core_str = g_strdup_printf("%u", core_mhz);
	g_autofree gchar *reason = NULL;

	if (facts->log_overclock_reduced)
		reason = g_strdup_printf(
			/* Translators: the core clock and the new SD clock, in MHz ("400", "80") */
			_("The kernel log shows “reducing overclock due to errors”: the card "
			  "cannot keep up with the current SD clock. The next slower step the "
			  "core clock of %s MHz allows is %s MHz."),
			core_str,
			clock);
	else
		reason = g_strdup_printf(
			/* Translators: the core clock in MHz, the sd_overclock value, then the
			 * SD clock it gives in MHz ("400", 100, "100") */
			_("This board's SD controller (sdhost) runs High Speed cards at 50 MHz, "
			  "a 25 MB/s bus, and sequential reads of a good card are limited by "
			  "that bus. The controller divides the %s MHz core clock, so "
			  "sd_overclock=%u gives %s MHz."),
			core_str,
			value,
			clock);
	if (!facts->config_sdhost_overlay && !facts->config_sdtweak_overlay)
		return g_steal_pointer(&reason);
	return g_strconcat(reason,
			   " ",
			   facts->config_sdhost_overlay
				   ? _("It also replaces the old dtoverlay=sdhost line, "
				       "which switches off Wi-Fi on Pi 3, Zero W and "
				       "Zero 2 W.")
				   : _("It also replaces the deprecated "
				       "dtoverlay=sdtweak line."),
			   NULL);
}

/* dtparam=sd_overclock for the SD clock @step_hz */
static SdtRecommendation *
sdt_recommend_sdhost_overclock(const SdtRecommendFacts *facts,
			       guint core_mhz,
			       guint64 step_hz,
			       const gchar *filter)
{
	guint value = (guint) (step_hz / SDT_MHZ);
	g_autofree gchar *id = g_strdup_printf("sd-overclock-%u", value);
	g_autofree gchar *line = g_strdup_printf("dtparam=sd_overclock=%u", value);
	g_autofree gchar *clock = sdt_mhz_to_string(step_hz);
	g_autofree gchar *ceiling = g_strdup_printf("%.1f", (gdouble) step_hz / 2e6);
	SdtRecommendation *rec = sdt_recommendation_new(id, line, filter);

	rec->type_code = facts->type_code;
	rec->expected_clock_hz = step_hz;
	rec->replaces = SDT_CONFIG_SD_OVERCLOCK | SDT_CONFIG_SD_OVERLAY_SDHOST;
	/* Translators: %s is a clock in MHz, e.g. "100" */
	rec->title = g_strdup_printf(_("Run the SD card at %s MHz"), clock);
	rec->reason = sdt_recommend_sdhost_reason(facts, core_mhz, value, clock);
	rec->expected_effect = g_strdup_printf(
		/* Translators: the new SD clock in MHz, then the new bus ceiling in MB/s */
		_("SD clock %s MHz instead of 50 MHz: the bus ceiling rises from 25 MB/s "
		  "to %s MB/s, so sequential reads can be up to that much faster; random "
		  "access changes little."),
		clock,
		ceiling);
	rec->risk = g_strdup(
		_("Some cards make errors at this clock. The driver then lowers the clock by "
		  "itself and logs it; a card that fails badly can corrupt data. Try it with "
		  "a trial boot first, keep a backup, and revert if the kernel log shows mmc "
		  "errors."));
	return rec;
}

static void
sdt_recommend_sdhost(const SdtRecommendFacts *facts, SdtRecommendResult *result)
{
	guint core_mhz = sdt_recommend_sdhost_core(facts, result);
	guint64 core_hz = (guint64) core_mhz * SDT_MHZ;
	const gchar *filter = sdt_recommend_filter_for_type(facts->type_code);
	guint64 step_hz;

	if (filter == NULL) {
		sdt_recommend_note_no_filter(result);
		return;
	}
	if (g_strcmp0(facts->timing, "legacy") == 0 && facts->config_overclock_mhz == 0) {
		g_ptr_array_add(result->notes,
				g_strdup(_("The card runs at Default Speed (25 MHz), not High "
					   "Speed; the SD overclock applies only to High Speed "
					   "cards, so there is nothing to set.")));
		return;
	}
	step_hz = sdt_recommend_sdhost_step(facts, core_hz);
	if (step_hz <= 50 * SDT_MHZ) {
		g_ptr_array_add(
			result->notes,
			g_strdup(_("The kernel log shows that the card made errors even at "
				   "the lowest overclock step, so SD Tuner suggests no SD "
				   "overclock for this card. Revert SD Tuner's change if it "
				   "is in place.")));
		return;
	}
	if (sdt_recommend_sdhost_in_place(facts, result, core_hz))
		return;
	if (sdt_recommend_sdhost_user_overclock(facts, core_hz, step_hz)) {
		g_ptr_array_add(result->notes,
				g_strdup(_("The SD card is already overclocked by a line "
					   "in config.txt; there is nothing to add.")));
		return;
	}
	g_ptr_array_add(result->recommendations,
			sdt_recommend_sdhost_overclock(facts, core_mhz, step_hz, filter));
}

static void
sdt_recommend_emmc2(const SdtRecommendFacts *facts, SdtRecommendResult *result)
{
	if (g_strcmp0(facts->timing, "uhs-ddr50") == 0) {
		g_ptr_array_add(result->notes,
				g_strdup(_("The card already runs in DDR50 mode, the fastest mode "
					   "of this board's SD slot (a 50 MB/s bus). The Pi 4 "
					   "family has no SD speed setting in config.txt, so there "
					   "is nothing to set.")));
	} else {
		g_ptr_array_add(
			result->notes,
			g_strdup(_("The Pi 4 family has no SD speed setting in config.txt. "
				   "The card does not run in DDR50 mode, which needs a UHS-I "
				   "card; a UHS-I card would double the bus speed to "
				   "50 MB/s.")));
	}
}

/* dtparam=sd_cqe=0 after CQE recoveries in the kernel log */
static SdtRecommendation *
sdt_recommend_cqe_off(const SdtRecommendFacts *facts, const gchar *filter)
{
	SdtRecommendation *rec = sdt_recommendation_new("sd-cqe-0", "dtparam=sd_cqe=0", filter);

	rec->type_code = facts->type_code;
	rec->replaces = SDT_CONFIG_SD_CQE;
	rec->title = g_strdup(_("Switch off SD command queueing"));
	rec->reason =
		g_strdup(_("The kernel log shows “running CQE recovery”: this card mishandles "
			   "command queueing, and each recovery stalls the card."));
	rec->expected_effect =
		g_strdup(_("No more command-queue errors and stalls; random reads and writes "
			   "become slower than with a working queue."));
	rec->risk = g_strdup(_("Low: this is how Linux ran SD cards before queueing."));
	return rec;
}

/* why queueing cannot or need not be turned on for this card, or NULL */
static gchar *
sdt_recommend_cqe_blocker(const SdtRecommendFacts *facts)
{
	if (facts->app_class < 2)
		return g_strdup(facts->app_class == 1
					? _("The card is A1: it does not support command "
					    "queueing, so there is nothing to set.")
					: _("The card has no application performance class: "
					    "it does not support command queueing, so there is "
					    "nothing to set."));
	if (g_strcmp0(facts->cqe, "enabled") == 0)
		return g_strdup(_("Command queueing is already on for this A2 card; there "
				  "is nothing to set."));
	if (facts->cmd48 != 1 || facts->ext_perf_cq != 1)
		return g_strdup(_("The card is labelled A2 but does not report the "
				  "command-queue support Linux needs (CMD48 and the "
				  "performance-enhancement register), so queueing cannot "
				  "be turned on."));
	if (facts->cqe_list == SDT_CQE_LIST_DENY)
		/* Translators: %s is the kernel's reason (translated with the other
		 * strings of sdt-cqe-quirks.c), e.g. “Samsung PRO Plus, EVO Plus and PRO
		 * Ultimate cards of 2023 stop answering after a cache flush” */
		return g_strdup_printf(_("Linux lists this card as known-bad for command "
					 "queueing (%s), so SD Tuner does not offer "
					 "dtparam=sd_cqe=2."),
				       facts->cqe_list_why != NULL ? _(facts->cqe_list_why) : "?");
	if (g_strcmp0(facts->config_block_id, "sd-cqe-2") == 0 ||
	    g_strcmp0(facts->config_cqe, "2") == 0)
		return g_strdup(_("dtparam=sd_cqe=2 is already set; command queueing "
				  "starts after a reboot. If it stays off, the kernel "
				  "lists this card as known-bad."));
	return NULL;
}

/* dtparam=sd_cqe=2 for an A2 card the kernel does not list: a trial only */
static SdtRecommendation *
sdt_recommend_cqe_on(const SdtRecommendFacts *facts, const gchar *filter)
{
	SdtRecommendation *rec = sdt_recommendation_new("sd-cqe-2", "dtparam=sd_cqe=2", filter);

	rec->type_code = facts->type_code;
	rec->replaces = SDT_CONFIG_SD_CQE;
	rec->title = g_strdup(_("Turn on SD command queueing for this A2 card"));
	rec->reason = g_strdup(
		_("This is an A2 card that supports command queueing, but Linux keeps queueing "
		  "off because the card is not on its list of cards known to work "
		  "(sd_cqe=1, the default). sd_cqe=2 allows every A2 card that is not known "
		  "to be bad."));
	rec->expected_effect = g_strdup(
		_("Random 4 KiB reads and writes several times faster (about 2.5× reads and 4× "
		  "writes were measured on a SanDisk A2 card); sequential speed stays the "
		  "same."));
	rec->risk = g_strdup(
		_("Some cards corrupt data with queueing forced on: reads succeed but return "
		  "the wrong bytes, or the file system turns read-only. SD Tuner applies this "
		  "only as a one-boot trial and keeps it only if a soak test reads back every "
		  "byte it wrote and the kernel log shows no “running CQE recovery”. With the "
		  "cache on, a power cut can also lose the last writes."));
	rec->trial_only = TRUE;
	return rec;
}

static void
sdt_recommend_brcmstb(const SdtRecommendFacts *facts, SdtRecommendResult *result)
{
	const gchar *filter = sdt_recommend_filter_for_type(facts->type_code);
	gchar *blocker;

	if (filter == NULL) {
		sdt_recommend_note_no_filter(result);
		return;
	}
	if (facts->log_cqe_recovery && g_strcmp0(facts->config_block_id, "sd-cqe-0") != 0 &&
	    g_strcmp0(facts->config_cqe, "0") != 0 && g_strcmp0(facts->config_cqe, "off") != 0) {
		g_ptr_array_add(result->recommendations, sdt_recommend_cqe_off(facts, filter));
		return;
	}
	blocker = sdt_recommend_cqe_blocker(facts);
	if (blocker != NULL)
		g_ptr_array_add(result->notes, blocker);
	else
		g_ptr_array_add(result->recommendations, sdt_recommend_cqe_on(facts, filter));
}

/* eMMC, or an SD card the system does not run from: nothing to tune (issue 27) */
static void
sdt_recommend_not_an_sd_system(const SdtRecommendFacts *facts, SdtRecommendResult *result)
{
	result->not_tuned = facts->card_emmc ? "emmc" : "not-system-disk";
	if (facts->card_emmc) {
		g_ptr_array_add(
			result->notes,
			g_strdup(_("This board stores its system on eMMC, not on an SD "
				   "card. The SD settings of config.txt (sd_overclock, "
				   "sd_cqe and the sdhost overlays) are for SD cards and do "
				   "not apply to eMMC, so SD Tuner suggests no change. The "
				   "eMMC can still be benchmarked, and its wear is on the "
				   "Health page (sdtunerctl health).")));
	}
	if (!facts->system_elsewhere)
		return;
	if (facts->system_device != NULL)
		g_ptr_array_add(
			result->notes,
			/* Translators: %s is the system disk's partition, e.g. "nvme0n1p2" */
			g_strdup_printf(_("The system runs from %s, not from this card: SD "
					  "Tuner changes nothing for a card that is not the "
					  "system disk. You can still benchmark and check the "
					  "card."),
					facts->system_device));
	else
		g_ptr_array_add(result->notes,
				g_strdup(_("The system does not run from this card: SD Tuner "
					   "changes nothing for a card that is not the system "
					   "disk. You can still benchmark and check the card.")));
}

/**
 * sdt_recommend:
 *
 * Returns: (transfer full): the recommendations (often none) and the notes
 */
SdtRecommendResult *
sdt_recommend(const SdtRecommendFacts *facts)
{
	SdtRecommendResult *result = g_new0(SdtRecommendResult, 1);

	result->recommendations =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_recommendation_free);
	result->notes = g_ptr_array_new_with_free_func(g_free);

	if (facts->board_key == NULL || g_strcmp0(facts->board_key, "unknown") == 0 ||
	    facts->type_code < 0) {
		g_ptr_array_add(result->notes,
				g_strdup(_("This is not a Raspberry Pi that SD Tuner knows, so it "
					   "suggests no config.txt change; the card and benchmark "
					   "information still apply.")));
	} else if (!facts->card_present) {
		g_ptr_array_add(result->notes,
				g_strdup(_("No SD card was found, so there is nothing to tune.")));
	} else if (facts->card_emmc || facts->system_elsewhere) {
		sdt_recommend_not_an_sd_system(facts, result);
	} else if (g_strcmp0(facts->controller, "sdhost") == 0) {
		sdt_recommend_sdhost(facts, result);
	} else if (g_strcmp0(facts->controller, "emmc2") == 0) {
		sdt_recommend_emmc2(facts, result);
	} else if (g_strcmp0(facts->controller, "sdhci-brcmstb") == 0) {
		sdt_recommend_brcmstb(facts, result);
	} else {
		g_ptr_array_add(result->notes,
				g_strdup(_("SD Tuner does not know this board's SD controller, so "
					   "it suggests no change.")));
	}
	if (facts->type_code >= 0 && !facts->card_emmc)
		sdt_recommend_notes_classes(facts, result->notes);
	return result;
}

const SdtRecommendation *
sdt_recommend_result_find(const SdtRecommendResult *result, const gchar *id)
{
	for (guint i = 0; i < result->recommendations->len; i++) {
		SdtRecommendation *rec = g_ptr_array_index(result->recommendations, i);
		if (g_strcmp0(rec->id, id) == 0)
			return rec;
	}
	return NULL;
}
