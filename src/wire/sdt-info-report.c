/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sdt-info-report.h"
#include "sdt-info-report-private.h"
#include "sdt-json-strict-private.h"
#include "sdt-json.h"
#include "sdt-json-private.h"

/*
 * Each object of the document is a table of its members, in the order the
 * engine writes them: the member's name (the one constant for both
 * directions), how it is written, and where it lives in the C struct.  One
 * walker writes a table, one reads it, one sets its unknowns, one frees it.
 */

typedef enum {
	SDT_INFO_REPORT_STRING,  /* gchar *, NULL: null */
	SDT_INFO_REPORT_INT,     /* gint64, SDT_INFO_REPORT_UNKNOWN: null */
	SDT_INFO_REPORT_FLAG,    /* SdtInfoReportFlag, _UNKNOWN: null */
	SDT_INFO_REPORT_NUMBER,  /* gdouble, NaN: null */
	SDT_INFO_REPORT_BOOL,    /* gboolean, always written; absent: FALSE */
	SDT_INFO_REPORT_COUNT,   /* gint64, always written; absent: 0 */
	SDT_INFO_REPORT_STRINGS, /* GPtrArray of gchar *, always written */
	SDT_INFO_REPORT_OBJECT,  /* a struct (@sub) at @offset, always written */
	SDT_INFO_REPORT_MAYBE,   /* the same, null unless its first field (gboolean) is TRUE */
} SdtInfoReportKind;

typedef struct SdtInfoReportMember SdtInfoReportMember;

typedef struct {
	const SdtInfoReportMember *members;
	guint n_members;
} SdtInfoReportTable;

struct SdtInfoReportMember {
	const gchar *key;
	SdtInfoReportKind kind;
	gsize offset;
	const SdtInfoReportTable *sub;
};

#define SDT_INFO_REPORT_TABLE(members)         \
	{                                      \
		members, G_N_ELEMENTS(members) \
	}
#define M(key, kind, type, field)                                               \
	{                                                                       \
		key, SDT_INFO_REPORT_##kind, G_STRUCT_OFFSET(type, field), NULL \
	}
#define SUB(key, kind, type, field, table)                                        \
	{                                                                         \
		key, SDT_INFO_REPORT_##kind, G_STRUCT_OFFSET(type, field), &table \
	}

static const SdtInfoReportMember sdt_info_report_board_members[] = {
	M("model", STRING, SdtInfoReportBoard, model),
	M("key", STRING, SdtInfoReportBoard, key),
	M("revision", STRING, SdtInfoReportBoard, revision),
	M("type_code", INT, SdtInfoReportBoard, type_code),
	M("soc", STRING, SdtInfoReportBoard, soc),
	M("sd_controller", STRING, SdtInfoReportBoard, sd_controller),
	/* extras */
	M("name", STRING, SdtInfoReportBoard, name),
	M("filter", STRING, SdtInfoReportBoard, filter),
	M("core_clock_hz", INT, SdtInfoReportBoard, core_clock_hz),
	M("memory_mb", INT, SdtInfoReportBoard, memory_mb),
	M("source", STRING, SdtInfoReportBoard, source),
	M("compatible", STRINGS, SdtInfoReportBoard, compatible),
};
static const SdtInfoReportTable sdt_info_report_board =
	SDT_INFO_REPORT_TABLE(sdt_info_report_board_members);

static const SdtInfoReportMember sdt_info_report_ext_perf_members[] = {
	M("raw", COUNT, SdtInfoReportExtPerf, raw),
	M("cache", BOOL, SdtInfoReportExtPerf, cache),
	M("cmd_queue", BOOL, SdtInfoReportExtPerf, cmd_queue),
	M("card_maintenance", BOOL, SdtInfoReportExtPerf, card_maintenance),
	M("host_maintenance", BOOL, SdtInfoReportExtPerf, host_maintenance),
};
static const SdtInfoReportTable sdt_info_report_ext_perf =
	SDT_INFO_REPORT_TABLE(sdt_info_report_ext_perf_members);

static const SdtInfoReportMember sdt_info_report_ext_power_members[] = {
	M("raw", COUNT, SdtInfoReportExtPower, raw),
	M("power_off_notify", BOOL, SdtInfoReportExtPower, power_off_notify),
};
static const SdtInfoReportTable sdt_info_report_ext_power =
	SDT_INFO_REPORT_TABLE(sdt_info_report_ext_power_members);

static const SdtInfoReportMember sdt_info_report_registers_members[] = {
	M("cid", STRING, SdtInfoReportRegisters, cid),
	M("csd", STRING, SdtInfoReportRegisters, csd),
	M("scr", STRING, SdtInfoReportRegisters, scr),
	M("ssr", STRING, SdtInfoReportRegisters, ssr),
	M("ext_perf", STRING, SdtInfoReportRegisters, ext_perf),
	M("ext_power", STRING, SdtInfoReportRegisters, ext_power),
};
static const SdtInfoReportTable sdt_info_report_registers =
	SDT_INFO_REPORT_TABLE(sdt_info_report_registers_members);

/* the card's members up to "emmc", which follows them (a pointer: sdt_info_report_put_card) */
static const SdtInfoReportMember sdt_info_report_card_members[] = {
	M("present", BOOL, SdtInfoReportCard, present),
	M("device", STRING, SdtInfoReportCard, device),
	M("manfid", INT, SdtInfoReportCard, manfid),
	M("manufacturer", STRING, SdtInfoReportCard, manufacturer),
	M("oemid", STRING, SdtInfoReportCard, oemid),
	M("name", STRING, SdtInfoReportCard, name),
	M("date", STRING, SdtInfoReportCard, date),
	M("capacity_bytes", INT, SdtInfoReportCard, capacity_bytes),
	M("spec_version", STRING, SdtInfoReportCard, spec_version),
	M("speed_class", INT, SdtInfoReportCard, speed_class),
	M("uhs_grade", INT, SdtInfoReportCard, uhs_grade),
	M("video_class", INT, SdtInfoReportCard, video_class),
	M("app_class", INT, SdtInfoReportCard, app_class),
	M("cq_depth", INT, SdtInfoReportCard, cq_depth),
	M("cache", FLAG, SdtInfoReportCard, cache),
	/* extras: where the card sits */
	M("type", STRING, SdtInfoReportCard, type),
	M("kind", STRING, SdtInfoReportCard, kind),
	M("mmc_device", STRING, SdtInfoReportCard, mmc_device),
	M("host", STRING, SdtInfoReportCard, host),
	M("host_device", STRING, SdtInfoReportCard, host_device),
	M("host_driver", STRING, SdtInfoReportCard, host_driver),
	M("holds_system", FLAG, SdtInfoReportCard, holds_system),
	M("system_device", STRING, SdtInfoReportCard, system_device),
	M("mount_points", STRINGS, SdtInfoReportCard, mount_points),
	M("size_bytes", INT, SdtInfoReportCard, size_bytes),
	/* extras: the register fields */
	M("serial", STRING, SdtInfoReportCard, serial),
	M("hwrev", INT, SdtInfoReportCard, hwrev),
	M("fwrev", INT, SdtInfoReportCard, fwrev),
	M("csd_version", INT, SdtInfoReportCard, csd_version),
	M("max_dtr_hz", INT, SdtInfoReportCard, max_dtr_hz),
	M("cmd23", FLAG, SdtInfoReportCard, cmd23),
	M("cmd48", FLAG, SdtInfoReportCard, cmd48),
	M("performance_move", INT, SdtInfoReportCard, performance_move),
	M("au_size_bytes", INT, SdtInfoReportCard, au_size_bytes),
	M("discard", FLAG, SdtInfoReportCard, discard),
	M("card_maintenance", FLAG, SdtInfoReportCard, card_maintenance),
	M("host_maintenance", FLAG, SdtInfoReportCard, host_maintenance),
	SUB("ext_perf", MAYBE, SdtInfoReportCard, ext_perf, sdt_info_report_ext_perf),
	SUB("ext_power", MAYBE, SdtInfoReportCard, ext_power, sdt_info_report_ext_power),
	SUB("registers", OBJECT, SdtInfoReportCard, registers, sdt_info_report_registers),
};
static const SdtInfoReportTable sdt_info_report_card =
	SDT_INFO_REPORT_TABLE(sdt_info_report_card_members);

static const SdtInfoReportMember sdt_info_report_life_time_members[] = {
	M("value", INT, SdtInfoReportLifeTime, value),
	M("state", STRING, SdtInfoReportLifeTime, state),
	M("used_min_percent", INT, SdtInfoReportLifeTime, used_min_percent),
	M("used_max_percent", INT, SdtInfoReportLifeTime, used_max_percent),
};
static const SdtInfoReportTable sdt_info_report_life_time =
	SDT_INFO_REPORT_TABLE(sdt_info_report_life_time_members);

/* card.emmc.pre_eol and card.emmc.raw: their fields are the eMMC struct's own */
static const SdtInfoReportMember sdt_info_report_pre_eol_members[] = {
	M("value", INT, SdtInfoReportEmmc, pre_eol),
	M("state", STRING, SdtInfoReportEmmc, pre_eol_state),
};
static const SdtInfoReportTable sdt_info_report_pre_eol =
	SDT_INFO_REPORT_TABLE(sdt_info_report_pre_eol_members);

static const SdtInfoReportMember sdt_info_report_emmc_raw_members[] = {
	M("life_time", STRING, SdtInfoReportEmmc, raw_life_time),
	M("pre_eol_info", STRING, SdtInfoReportEmmc, raw_pre_eol_info),
	M("rev", STRING, SdtInfoReportEmmc, raw_rev),
};
static const SdtInfoReportTable sdt_info_report_emmc_raw =
	SDT_INFO_REPORT_TABLE(sdt_info_report_emmc_raw_members);

static const SdtInfoReportMember sdt_info_report_emmc_members[] = {
	M("wear", STRING, SdtInfoReportEmmc, wear),
	SUB("life_time_a", OBJECT, SdtInfoReportEmmc, life_time_a, sdt_info_report_life_time),
	SUB("life_time_b", OBJECT, SdtInfoReportEmmc, life_time_b, sdt_info_report_life_time),
	{"pre_eol", SDT_INFO_REPORT_OBJECT, 0, &sdt_info_report_pre_eol},
	M("ext_csd_rev", INT, SdtInfoReportEmmc, ext_csd_rev),
	M("oemid", INT, SdtInfoReportEmmc, oemid),
	{"raw", SDT_INFO_REPORT_OBJECT, 0, &sdt_info_report_emmc_raw},
};
static const SdtInfoReportTable sdt_info_report_emmc =
	SDT_INFO_REPORT_TABLE(sdt_info_report_emmc_members);

static const SdtInfoReportMember sdt_info_report_bus_members[] = {
	M("clock_hz", INT, SdtInfoReportBus, clock_hz),
	M("actual_clock_hz", INT, SdtInfoReportBus, actual_clock_hz),
	M("timing", STRING, SdtInfoReportBus, timing),
	M("bus_width", INT, SdtInfoReportBus, bus_width),
	M("ceiling_mb_s", NUMBER, SdtInfoReportBus, ceiling_mb_s),
	M("cqe", STRING, SdtInfoReportBus, cqe),
	/* extras */
	M("signal_voltage", NUMBER, SdtInfoReportBus, signal_voltage),
	M("timing_text", STRING, SdtInfoReportBus, timing_text),
	M("source", STRING, SdtInfoReportBus, source),
};
static const SdtInfoReportTable sdt_info_report_bus =
	SDT_INFO_REPORT_TABLE(sdt_info_report_bus_members);

static const SdtInfoReportMember sdt_info_report_kernel_log_members[] = {
	M("read", BOOL, SdtInfoReportKernelLog, read),
	M("overclock_hz", INT, SdtInfoReportKernelLog, overclock_hz),
	M("overclock_current_hz", INT, SdtInfoReportKernelLog, overclock_current_hz),
	M("overclock_reduced", INT, SdtInfoReportKernelLog, overclock_reduced),
	M("overclock_cancelled", FLAG, SdtInfoReportKernelLog, overclock_cancelled),
	M("cqe_enabled", FLAG, SdtInfoReportKernelLog, cqe_enabled),
	M("cqe_tags", INT, SdtInfoReportKernelLog, cqe_tags),
	M("host_software_queue", FLAG, SdtInfoReportKernelLog, host_software_queue),
	M("cmdq_failed", FLAG, SdtInfoReportKernelLog, cmdq_failed),
	M("cqe_recovery", INT, SdtInfoReportKernelLog, cqe_recovery),
	M("quirks", STRING, SdtInfoReportKernelLog, quirks),
	M("card_timing", STRING, SdtInfoReportKernelLog, card_timing),
	M("card_type", STRING, SdtInfoReportKernelLog, card_type),
};
static const SdtInfoReportTable sdt_info_report_kernel_log =
	SDT_INFO_REPORT_TABLE(sdt_info_report_kernel_log_members);

/* "card" (sdt_info_report_put_card) and "config" (a pointer) are not in the table */
#define SDT_INFO_REPORT_KEY_CARD        "card"
#define SDT_INFO_REPORT_KEY_EMMC        "emmc"
#define SDT_INFO_REPORT_KEY_CONFIG      "config"
#define SDT_INFO_REPORT_KEY_SD_SETTINGS "sd_settings"

static const SdtInfoReportMember sdt_info_report_head_members[] = {
	SUB("board", OBJECT, SdtInfoReport, board, sdt_info_report_board),
};
static const SdtInfoReportMember sdt_info_report_tail_members[] = {
	SUB("bus", OBJECT, SdtInfoReport, bus, sdt_info_report_bus),
	SUB("kernel_log", OBJECT, SdtInfoReport, kernel_log, sdt_info_report_kernel_log),
	M("simulated", BOOL, SdtInfoReport, simulated),
	M("warnings", STRINGS, SdtInfoReport, warnings),
};
static const SdtInfoReportTable sdt_info_report_head =
	SDT_INFO_REPORT_TABLE(sdt_info_report_head_members);
static const SdtInfoReportTable sdt_info_report_tail =
	SDT_INFO_REPORT_TABLE(sdt_info_report_tail_members);

/* the members of "config" before its list of settings */
static const SdtInfoReportMember sdt_info_report_config_members[] = {
	M("path", STRING, SdtInfoReportConfig, path),
	M("error", STRING, SdtInfoReportConfig, error),
	M("managed_block", STRING, SdtInfoReportConfig, managed_block),
};
static const SdtInfoReportTable sdt_info_report_config =
	SDT_INFO_REPORT_TABLE(sdt_info_report_config_members);

static const SdtInfoReportMember sdt_info_report_setting_members[] = {
	M("text", STRING, SdtInfoReportSetting, text),
	M("line", COUNT, SdtInfoReportSetting, line),
	M("file", STRING, SdtInfoReportSetting, file),
	M("filter", STRING, SdtInfoReportSetting, filter),
	M("applies", BOOL, SdtInfoReportSetting, applies),
	M("conditional", BOOL, SdtInfoReportSetting, conditional),
	M("managed", BOOL, SdtInfoReportSetting, managed),
	M("kind", STRING, SdtInfoReportSetting, kind),
	M("warning", STRING, SdtInfoReportSetting, warning),
};
static const SdtInfoReportTable sdt_info_report_setting =
	SDT_INFO_REPORT_TABLE(sdt_info_report_setting_members);

#undef M
#undef SUB

#define SDT_INFO_REPORT_AT(base, member) ((gpointer) ((guint8 *) (base) + (member)->offset))

/* the life cycle: every value unknown, every list empty; and back */

static void
sdt_info_report_init_table(const SdtInfoReportTable *table, gpointer base)
{
	for (guint i = 0; i < table->n_members; i++) {
		const SdtInfoReportMember *m = &table->members[i];
		gpointer p = SDT_INFO_REPORT_AT(base, m);

		switch (m->kind) {
		case SDT_INFO_REPORT_INT:
			*(gint64 *) p = SDT_INFO_REPORT_UNKNOWN;
			break;
		case SDT_INFO_REPORT_FLAG:
			*(SdtInfoReportFlag *) p = SDT_INFO_REPORT_FLAG_UNKNOWN;
			break;
		case SDT_INFO_REPORT_NUMBER:
			*(gdouble *) p = NAN;
			break;
		case SDT_INFO_REPORT_STRINGS:
			*(GPtrArray **) p = g_ptr_array_new_with_free_func(g_free);
			break;
		case SDT_INFO_REPORT_OBJECT:
		case SDT_INFO_REPORT_MAYBE:
			sdt_info_report_init_table(m->sub, p);
			break;
		default:
			break;
		}
	}
}

static void
sdt_info_report_clear_table(const SdtInfoReportTable *table, gpointer base)
{
	for (guint i = 0; i < table->n_members; i++) {
		const SdtInfoReportMember *m = &table->members[i];
		gpointer p = SDT_INFO_REPORT_AT(base, m);

		if (m->kind == SDT_INFO_REPORT_STRING)
			g_clear_pointer((gchar **) p, g_free);
		else if (m->kind == SDT_INFO_REPORT_STRINGS)
			g_clear_pointer((GPtrArray **) p, g_ptr_array_unref);
		else if (m->kind == SDT_INFO_REPORT_OBJECT || m->kind == SDT_INFO_REPORT_MAYBE)
			sdt_info_report_clear_table(m->sub, p);
	}
}

SdtInfoReportEmmc *
sdt_info_report_emmc_new(void)
{
	SdtInfoReportEmmc *emmc = g_new0(SdtInfoReportEmmc, 1);

	sdt_info_report_init_table(&sdt_info_report_emmc, emmc);
	return emmc;
}

void
sdt_info_report_emmc_free(SdtInfoReportEmmc *emmc)
{
	if (emmc == NULL)
		return;
	sdt_info_report_clear_table(&sdt_info_report_emmc, emmc);
	g_free(emmc);
}

static void
sdt_info_report_setting_free(gpointer data)
{
	sdt_info_report_clear_table(&sdt_info_report_setting, data);
	g_free(data);
}

static void
sdt_info_report_config_free(SdtInfoReportConfig *config)
{
	if (config == NULL)
		return;
	sdt_info_report_clear_table(&sdt_info_report_config, config);
	g_ptr_array_unref(config->sd_settings);
	g_free(config);
}

SdtInfoReport *
sdt_info_report_new(void)
{
	SdtInfoReport *report = g_new0(SdtInfoReport, 1);

	sdt_info_report_init_table(&sdt_info_report_head, report);
	sdt_info_report_init_table(&sdt_info_report_card, &report->card);
	sdt_info_report_init_table(&sdt_info_report_tail, report);
	return report;
}

void
sdt_info_report_free(SdtInfoReport *report)
{
	if (report == NULL)
		return;
	sdt_info_report_clear_table(&sdt_info_report_head, report);
	sdt_info_report_clear_table(&sdt_info_report_card, &report->card);
	sdt_info_report_emmc_free(report->card.emmc);
	sdt_info_report_clear_table(&sdt_info_report_tail, report);
	sdt_info_report_config_free(report->config);
	g_free(report);
}

SdtInfoReportConfig *
sdt_info_report_ensure_config(SdtInfoReport *report)
{
	g_return_val_if_fail(report != NULL, NULL);
	if (report->config == NULL) {
		report->config = g_new0(SdtInfoReportConfig, 1);
		report->config->sd_settings =
			g_ptr_array_new_with_free_func(sdt_info_report_setting_free);
	}
	return report->config;
}

SdtInfoReportSetting *
sdt_info_report_add_setting(SdtInfoReportConfig *config)
{
	SdtInfoReportSetting *s = g_new0(SdtInfoReportSetting, 1);

	g_return_val_if_fail(config != NULL, NULL);
	g_ptr_array_add(config->sd_settings, s);
	return s;
}

/* the writing direction: every member in the engine's order */

static void
sdt_info_report_put_table(JsonBuilder *b, const SdtInfoReportTable *table, gconstpointer base);

static void
sdt_info_report_put_strings(JsonBuilder *b, const GPtrArray *strings)
{
	json_builder_begin_array(b);
	for (guint i = 0; strings != NULL && i < strings->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(strings, i));
	json_builder_end_array(b);
}

static void
sdt_info_report_put_member(JsonBuilder *b, const SdtInfoReportMember *m, gconstpointer p)
{
	const gint64 *i = p;
	const SdtInfoReportFlag *f = p;

	switch (m->kind) {
	case SDT_INFO_REPORT_STRING:
		sdt_json_string_or_null(b, m->key, *(gchar *const *) p);
		return;
	case SDT_INFO_REPORT_INT:
		sdt_json_int_or_null(b, m->key, *i != SDT_INFO_REPORT_UNKNOWN, *i);
		return;
	case SDT_INFO_REPORT_FLAG:
		sdt_json_bool_or_null(b,
				      m->key,
				      *f != SDT_INFO_REPORT_FLAG_UNKNOWN,
				      *f == SDT_INFO_REPORT_FLAG_YES);
		return;
	case SDT_INFO_REPORT_NUMBER:
		sdt_json_number_or_null(b, m->key, *(const gdouble *) p);
		return;
	default:
		break;
	}
	json_builder_set_member_name(b, m->key);
	if (m->kind == SDT_INFO_REPORT_BOOL)
		json_builder_add_boolean_value(b, *(const gboolean *) p);
	else if (m->kind == SDT_INFO_REPORT_COUNT)
		json_builder_add_int_value(b, *i);
	else if (m->kind == SDT_INFO_REPORT_STRINGS)
		sdt_info_report_put_strings(b, *(GPtrArray *const *) p);
	else if (m->kind == SDT_INFO_REPORT_MAYBE && !*(const gboolean *) p)
		json_builder_add_null_value(b);
	else
		sdt_info_report_put_table(b, m->sub, p);
}

/* @table's members as one object */
static void
sdt_info_report_put_table(JsonBuilder *b, const SdtInfoReportTable *table, gconstpointer base)
{
	json_builder_begin_object(b);
	for (guint i = 0; i < table->n_members; i++)
		sdt_info_report_put_member(b,
					   &table->members[i],
					   SDT_INFO_REPORT_AT(base, &table->members[i]));
	json_builder_end_object(b);
}

/* @table's members into the object being built */
static void
sdt_info_report_put_members(JsonBuilder *b, const SdtInfoReportTable *table, gconstpointer base)
{
	for (guint i = 0; i < table->n_members; i++)
		sdt_info_report_put_member(b,
					   &table->members[i],
					   SDT_INFO_REPORT_AT(base, &table->members[i]));
}

JsonNode *
sdt_info_report_emmc_to_json(const SdtInfoReportEmmc *emmc)
{
	g_autoptr(JsonBuilder) b = NULL;

	if (emmc == NULL)
		return json_node_new(JSON_NODE_NULL);
	b = json_builder_new();
	sdt_info_report_put_table(b, &sdt_info_report_emmc, emmc);
	return json_builder_get_root(b);
}

static void
sdt_info_report_put_card(JsonBuilder *b, const SdtInfoReportCard *card)
{
	json_builder_set_member_name(b, SDT_INFO_REPORT_KEY_CARD);
	json_builder_begin_object(b);
	sdt_info_report_put_members(b, &sdt_info_report_card, card);
	json_builder_set_member_name(b, SDT_INFO_REPORT_KEY_EMMC);
	json_builder_add_value(b, sdt_info_report_emmc_to_json(card->emmc));
	json_builder_end_object(b);
}

static void
sdt_info_report_put_config(JsonBuilder *b, const SdtInfoReportConfig *config)
{
	json_builder_set_member_name(b, SDT_INFO_REPORT_KEY_CONFIG);
	json_builder_begin_object(b);
	sdt_info_report_put_members(b, &sdt_info_report_config, config);
	json_builder_set_member_name(b, SDT_INFO_REPORT_KEY_SD_SETTINGS);
	json_builder_begin_array(b);
	for (guint i = 0; i < config->sd_settings->len; i++)
		sdt_info_report_put_table(b,
					  &sdt_info_report_setting,
					  g_ptr_array_index(config->sd_settings, i));
	json_builder_end_array(b);
	json_builder_end_object(b);
}

JsonNode *
sdt_info_report_to_json(const SdtInfoReport *report)
{
	g_autoptr(JsonBuilder) b = NULL;

	g_return_val_if_fail(report != NULL, NULL);

	b = json_builder_new();
	json_builder_begin_object(b);
	sdt_info_report_put_members(b, &sdt_info_report_head, report);
	sdt_info_report_put_card(b, &report->card);
	sdt_info_report_put_members(b, &sdt_info_report_tail, report);
	if (report->config != NULL)
		sdt_info_report_put_config(b, report->config);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gchar *
sdt_info_report_to_string(const SdtInfoReport *report)
{
	g_autoptr(JsonNode) node = sdt_info_report_to_json(report);

	/* config.txt, sysfs and the kernel log may hold any bytes: the text is UTF-8 */
	sdt_json_sanitize_utf8(node);
	return sdt_json_to_string(node, TRUE);
}

/* the reading direction: absent or null is unknown, another type an error */

static gboolean sdt_info_report_read_table(JsonObject *obj,
					   const gchar *where,
					   const SdtInfoReportTable *table,
					   gpointer base,
					   GError **error);

static gboolean
sdt_info_report_read_flag(JsonObject *obj,
			  const gchar *where,
			  const gchar *key,
			  SdtInfoReportFlag *flag,
			  GError **error)
{
	gboolean v; /* TRUE, FALSE, or the fallback for null */

	if (!sdt_json_strict_bool(obj, where, key, SDT_INFO_REPORT_FLAG_UNKNOWN, &v, error))
		return FALSE;
	*flag = v == SDT_INFO_REPORT_FLAG_UNKNOWN ? SDT_INFO_REPORT_FLAG_UNKNOWN
		: v                               ? SDT_INFO_REPORT_FLAG_YES
						  : SDT_INFO_REPORT_FLAG_NO;
	return TRUE;
}

/* an object member (@m OBJECT or MAYBE): a MAYBE's first field says whether it was one */
static gboolean
sdt_info_report_read_sub(JsonObject *obj,
			 const gchar *where,
			 const SdtInfoReportMember *m,
			 gpointer p,
			 GError **error)
{
	g_autofree gchar *at =
		where != NULL ? g_strdup_printf("%s.%s", where, m->key) : g_strdup(m->key);
	JsonObject *sub = NULL;

	if (!sdt_json_strict_object(obj, where, m->key, &sub, error))
		return FALSE;
	if (m->kind == SDT_INFO_REPORT_MAYBE)
		*(gboolean *) p = sub != NULL;
	return sdt_info_report_read_table(sub, at, m->sub, p, error);
}

static gboolean
sdt_info_report_read_member(JsonObject *obj,
			    const gchar *where,
			    const SdtInfoReportMember *m,
			    gpointer p,
			    GError **error)
{
	switch (m->kind) {
	case SDT_INFO_REPORT_STRING:
		g_clear_pointer((gchar **) p, g_free);
		return sdt_json_strict_string(obj, where, m->key, p, error);
	case SDT_INFO_REPORT_INT:
		return sdt_json_strict_int(obj, where, m->key, SDT_INFO_REPORT_UNKNOWN, p, error);
	case SDT_INFO_REPORT_FLAG:
		return sdt_info_report_read_flag(obj, where, m->key, p, error);
	case SDT_INFO_REPORT_NUMBER:
		return sdt_json_strict_number(obj, where, m->key, p, error);
	case SDT_INFO_REPORT_BOOL:
		return sdt_json_strict_bool(obj, where, m->key, FALSE, p, error);
	case SDT_INFO_REPORT_COUNT:
		return sdt_json_strict_int(obj, where, m->key, 0, p, error);
	case SDT_INFO_REPORT_STRINGS:
		return sdt_json_strict_strings(obj, where, m->key, *(GPtrArray **) p, error);
	case SDT_INFO_REPORT_OBJECT:
	case SDT_INFO_REPORT_MAYBE:
	default:
		return sdt_info_report_read_sub(obj, where, m, p, error);
	}
}

/* @obj NULL (an object that was null or absent): every member keeps its unknown */
static gboolean
sdt_info_report_read_table(JsonObject *obj,
			   const gchar *where,
			   const SdtInfoReportTable *table,
			   gpointer base,
			   GError **error)
{
	if (obj == NULL)
		return TRUE;
	for (guint i = 0; i < table->n_members; i++) {
		const SdtInfoReportMember *m = &table->members[i];
		if (!sdt_info_report_read_member(obj, where, m, SDT_INFO_REPORT_AT(base, m), error))
			return FALSE;
	}
	return TRUE;
}

gboolean
sdt_info_report_read_emmc(JsonObject *card,
			  const gchar *where,
			  SdtInfoReportEmmc **emmc,
			  GError **error)
{
	g_autoptr(SdtInfoReportEmmc) read = NULL;
	g_autofree gchar *at = NULL;
	JsonObject *obj = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	at = g_strdup_printf("%s.%s", where, SDT_INFO_REPORT_KEY_EMMC);
	*emmc = NULL;
	if (!sdt_json_strict_object(card, where, SDT_INFO_REPORT_KEY_EMMC, &obj, error))
		return FALSE;
	if (obj == NULL)
		return TRUE;
	read = sdt_info_report_emmc_new();
	if (!sdt_info_report_read_table(obj, at, &sdt_info_report_emmc, read, error))
		return FALSE;
	*emmc = g_steal_pointer(&read);
	return TRUE;
}

static gboolean
sdt_info_report_read_card(JsonObject *obj, SdtInfoReportCard *card, GError **error)
{
	const gchar *at = SDT_INFO_REPORT_KEY_CARD;
	JsonObject *c = NULL;

	return sdt_json_strict_object(obj, NULL, at, &c, error) &&
	       sdt_info_report_read_table(c, at, &sdt_info_report_card, card, error) &&
	       (c == NULL || sdt_info_report_read_emmc(c, at, &card->emmc, error));
}

static gboolean
sdt_info_report_read_config(JsonObject *obj, SdtInfoReport *report, GError **error)
{
	const gchar *at = SDT_INFO_REPORT_KEY_CONFIG;
	SdtInfoReportConfig *config;
	JsonObject *c = NULL;
	JsonArray *settings = NULL;

	if (!sdt_json_strict_object(obj, NULL, at, &c, error))
		return FALSE;
	if (c == NULL)
		return TRUE;
	config = sdt_info_report_ensure_config(report);
	if (!sdt_info_report_read_table(c, at, &sdt_info_report_config, config, error) ||
	    !sdt_json_strict_array(c, at, SDT_INFO_REPORT_KEY_SD_SETTINGS, &settings, error))
		return FALSE;
	for (guint i = 0; settings != NULL && i < json_array_get_length(settings); i++) {
		g_autofree gchar *at_i =
			sdt_json_strict_element(at, SDT_INFO_REPORT_KEY_SD_SETTINGS, i);
		JsonObject *s = sdt_json_strict_element_object(json_array_get_element(settings, i),
							       at_i,
							       error);
		if (s == NULL || !sdt_info_report_read_table(s,
							     at_i,
							     &sdt_info_report_setting,
							     sdt_info_report_add_setting(config),
							     error))
			return FALSE;
	}
	return TRUE;
}

SdtInfoReport *
sdt_info_report_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtInfoReport) report = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	report = sdt_info_report_new();
	if (!sdt_info_report_read_table(obj, NULL, &sdt_info_report_head, report, error) ||
	    !sdt_info_report_read_card(obj, &report->card, error) ||
	    !sdt_info_report_read_table(obj, NULL, &sdt_info_report_tail, report, error) ||
	    !sdt_info_report_read_config(obj, report, error))
		return NULL;
	return g_steal_pointer(&report);
}

SdtInfoReport *
sdt_info_report_parse(const gchar *text, GError **error)
{
	g_autoptr(JsonNode) root = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL, NULL);

	root = sdt_json_reader_parse(text, error);
	if (root == NULL)
		return NULL;
	return sdt_info_report_from_json(json_node_get_object(root), error);
}
