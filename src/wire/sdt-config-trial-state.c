/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-config-trial-state.h"
#include "sdt-config-trial-state-private.h"
#include "sdt-json.h"
#include "sdt-json-private.h"
#include "sdt-json-strict-private.h"

#define KEY_ID             "id"
#define KEY_PATH           "path"
#define KEY_REBOOT_COMMAND "reboot_command"
#define KEY_STALE          "stale"
#define KEY_NOTE           "note"

SdtConfigTrialState *
sdt_config_trial_state_new(void)
{
	return g_new0(SdtConfigTrialState, 1);
}

void
sdt_config_trial_state_free(SdtConfigTrialState *state)
{
	if (state == NULL)
		return;
	g_free(state->id);
	g_free(state->path);
	g_free(state->reboot_command);
	g_free(state->note);
	g_free(state);
}

SdtConfigTrialState *
sdt_config_trial_state_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtConfigTrialState) s = sdt_config_trial_state_new();

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	if (!sdt_json_strict_string(obj, NULL, KEY_ID, &s->id, error) ||
	    !sdt_json_strict_string(obj, NULL, KEY_PATH, &s->path, error) ||
	    !sdt_json_strict_string(obj, NULL, KEY_REBOOT_COMMAND, &s->reboot_command, error) ||
	    !sdt_json_strict_bool(obj, NULL, KEY_STALE, FALSE, &s->stale, error) ||
	    !sdt_json_strict_string(obj, NULL, KEY_NOTE, &s->note, error))
		return NULL;
	return g_steal_pointer(&s);
}

SdtConfigTrialState *
sdt_config_trial_state_parse(const gchar *text, GError **error)
{
	g_autoptr(JsonNode) root = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL, NULL);

	root = sdt_json_reader_parse(text, error);
	if (root == NULL)
		return NULL;
	return sdt_config_trial_state_from_json(json_node_get_object(root), error);
}

JsonNode *
sdt_config_trial_state_to_json(const SdtConfigTrialState *state)
{
	g_autoptr(JsonBuilder) b = json_builder_new();

	g_return_val_if_fail(state != NULL, NULL);

	json_builder_begin_object(b);
	sdt_json_string_or_null(b, KEY_ID, state->id);
	sdt_json_string_or_null(b, KEY_PATH, state->path);
	sdt_json_string_or_null(b, KEY_REBOOT_COMMAND, state->reboot_command);
	sdt_json_put_bool(b, KEY_STALE, state->stale);
	sdt_json_string_or_null(b, KEY_NOTE, state->note);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gchar *
sdt_config_trial_state_to_string(const SdtConfigTrialState *state)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(state != NULL, NULL);

	node = sdt_config_trial_state_to_json(state);
	sdt_json_sanitize_utf8(node);
	return sdt_json_to_string(node, TRUE);
}
