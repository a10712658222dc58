/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The pending trial as the writer sees it (src/wire/sdt-config-trial-state.c): the trial
 * of real runs (`sdtunerctl apply --trial` on the simulated Pi 3, before and after
 * config.txt was edited; as `status --json` shows it under "trial") read back byte for
 * byte; a member of the wrong type refused by name; absent and null read as unknown.
 */

#include "sdt-config-trial-state.h"
#include "sdt-config-trial-state-private.h"
#include "wire-golden.h"

static gchar *
write_state(gconstpointer doc)
{
	return sdt_config_trial_state_to_string(doc);
}

static void
test_golden(gconstpointer name)
{
	wire_golden_round_trip(name,
			       (WireGoldenParse) sdt_config_trial_state_parse,
			       write_state,
			       (GDestroyNotify) sdt_config_trial_state_free);
}

static void
test_fields(void)
{
	g_autofree gchar *text = wire_golden_read("config-trial-state-stale.json");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigTrialState) s = sdt_config_trial_state_parse(text, &error);
	g_autoptr(JsonNode) node = NULL;
	JsonObject *obj;

	g_assert_no_error(error);
	g_assert_cmpstr(s->id, ==, "sd-overclock-100");
	g_assert_cmpstr(s->path, ==, "/boot/firmware/tryboot.txt");
	g_assert_cmpstr(s->reboot_command, ==, SDT_CONFIG_TRIAL_STATE_REBOOT_COMMAND);
	g_assert_true(s->stale);
	g_assert_true(g_str_has_prefix(s->note, "/boot/firmware/config.txt has changed"));
	node = sdt_config_trial_state_to_json(s);
	obj = json_node_get_object(node);
	g_assert_true(json_object_get_boolean_member(obj, "stale"));
	g_assert_cmpstr(json_object_get_string_member(obj, "id"), ==, "sd-overclock-100");
}

static void
test_unknown(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigTrialState) s =
		sdt_config_trial_state_parse("{\"id\": null, \"later\": [1]}", &error);

	g_assert_no_error(error);
	g_assert_null(s->id);
	g_assert_null(s->path);
	g_assert_null(s->note);
	g_assert_false(s->stale);
	s->stale = TRUE;
	{
		g_autoptr(JsonNode) node = sdt_config_trial_state_to_json(s);
		g_autoptr(SdtConfigTrialState) back =
			sdt_config_trial_state_from_json(json_node_get_object(node), &error);
		g_assert_no_error(error);
		g_assert_true(back->stale);
		g_assert_null(back->id);
	}
}

static void
test_refused(void)
{
	static const gchar *const bad[][2] = {
		{"[]", "object"},
		{"{\"id\": 1}", "id"},
		{"{\"path\": false}", "path"},
		{"{\"reboot_command\": []}", "reboot_command"},
		{"{\"stale\": \"yes\"}", "stale"},
		{"{\"note\": {}}", "note"},
	};

	wire_golden_refused(bad,
			    G_N_ELEMENTS(bad),
			    (WireGoldenParse) sdt_config_trial_state_parse,
			    (GDestroyNotify) sdt_config_trial_state_free);
}

int
main(int argc, char **argv)
{
	static const gchar *const goldens[] = {"config-trial-state-fresh.json",
					       "config-trial-state-stale.json"};

	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(goldens); i++) {
		g_autofree gchar *path =
			g_strdup_printf("/wire/config-trial-state/golden/%s", goldens[i]);
		g_test_add_data_func(path, goldens[i], test_golden);
	}
	g_test_add_func("/wire/config-trial-state/fields", test_fields);
	g_test_add_func("/wire/config-trial-state/unknown", test_unknown);
	g_test_add_func("/wire/config-trial-state/refused", test_refused);
	return g_test_run();
}
