/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The devices document's codec (src/wire/sdt-device-list.c): `devices --json` on the
 * fixture boards (tools/json-snapshot.sh) and a USB reader with a card read back byte
 * for byte; a member of the wrong type refused by name; unknown members ignored; absent
 * and null read as unknown.
 */

#include <math.h>

#include "sdt-device-list.h"
#include "sdt-device-list-private.h"
#include "wire-golden.h"

static gchar *
write_list(gconstpointer doc)
{
	return sdt_device_list_to_string(doc);
}

static void
test_golden(gconstpointer name)
{
	wire_golden_round_trip(name,
			       (WireGoldenParse) sdt_device_list_parse,
			       write_list,
			       (GDestroyNotify) sdt_device_list_free);
}

static void
test_fields(void)
{
	g_autofree gchar *text = wire_golden_read("devices-usb-reader.json");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtDeviceList) list = sdt_device_list_parse(text, &error);
	const SdtDeviceListEntry *d;
	const SdtDeviceListFs *fs;

	g_assert_no_error(error);
	g_assert_cmpuint(list->repaired->len, ==, 1);
	g_assert_cmpint(((SdtDeviceListRepair *) g_ptr_array_index(list->repaired, 0))->blocks,
			==,
			8);
	g_assert_cmpuint(list->devices->len, ==, 2);
	d = g_ptr_array_index(list->devices, 0);
	g_assert_cmpstr(d->path, ==, "/dev/sda");
	g_assert_cmpfloat(d->usb_speed_mbit_s, ==, 480.0);
	g_assert_cmpint(d->size_bytes, ==, 31914983424);
	g_assert_true(d->offered && d->removable && d->mounted && !d->system_disk);
	g_assert_cmpuint(d->filesystems->len, ==, 2);
	fs = g_ptr_array_index(d->filesystems, 1);
	g_assert_cmpstr(fs->type, ==, "ext4");
	g_assert_null(fs->label);
	d = g_ptr_array_index(list->devices, 1);
	g_assert_true(isnan(d->usb_speed_mbit_s));
	g_assert_cmpstr(d->reason_code, ==, "system-disk");
}

/* absent and null are unknown; members of other versions are ignored */
static void
test_unknown(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtDeviceList) list =
		sdt_device_list_parse("{\"devices\": [{\"device\": \"sdb\", \"vendor\": null, "
				      "\"usb_speed_mbit_s\": null, \"future\": [1]}], "
				      "\"also_future\": {}}",
				      &error);
	const SdtDeviceListEntry *d;
	g_autoptr(JsonNode) node = NULL;

	g_assert_no_error(error);
	g_assert_cmpuint(list->repaired->len, ==, 0);
	g_assert_null(list->repair_waiting);
	d = g_ptr_array_index(list->devices, 0);
	g_assert_null(d->vendor);
	g_assert_null(d->signatures_from);
	g_assert_true(isnan(d->usb_speed_mbit_s));
	g_assert_cmpint(d->size_bytes, ==, 0);
	g_assert_false(d->offered);
	g_assert_cmpuint(d->mount_points->len, ==, 0);
	/* written back: every member, unknown ones null */
	node = sdt_device_list_to_json(list);
	g_assert_true(json_node_is_null(json_object_get_member(
		json_array_get_object_element(
			json_object_get_array_member(json_node_get_object(node), "devices"),
			0),
		"usb_speed_mbit_s")));
	g_clear_pointer(&list, sdt_device_list_free);
	/* a reader in the middle of its document */
	node = json_from_string("{\"devices\": []}", &error);
	g_assert_no_error(error);
	list = sdt_device_list_from_json(json_node_get_object(node), &error);
	g_assert_no_error(error);
	g_assert_cmpuint(list->devices->len, ==, 0);
}

static void
test_refused(void)
{
	static const gchar *const bad[][2] = {
		{"[]", "not a JSON object"},
		{"{}", "devices"},
		{"{\"devices\": {}}", "devices"},
		{"{\"devices\": [3]}", "devices[0]"},
		{"{\"devices\": [{}]}", "devices[0].device"},
		{"{\"devices\": [{\"device\": 1}]}", "devices[0].device"},
		{"{\"devices\": [{\"device\": \"a\", \"offered\": \"yes\"}]}",
		 "devices[0].offered"},
		{"{\"devices\": [{\"device\": \"a\", \"size_bytes\": \"1\"}]}",
		 "devices[0].size_bytes"},
		{"{\"devices\": [{\"device\": \"a\", \"usb_speed_mbit_s\": \"480\"}]}",
		 "devices[0].usb_speed_mbit_s"},
		{"{\"devices\": [{\"device\": \"a\", \"mount_points\": [1]}]}",
		 "devices[0].mount_points"},
		{"{\"devices\": [{\"device\": \"a\", \"filesystems\": [{\"type\": 2}]}]}",
		 "devices[0].filesystems[0].type"},
		{"{\"devices\": [{\"device\": \"a\", \"in_use\": 0}]}", "devices[0].in_use"},
		{"{\"devices\": [], \"repaired\": 1}", "repaired"},
		{"{\"devices\": [], \"repaired\": [{\"blocks\": \"8\"}]}", "repaired[0].blocks"},
		{"{\"devices\": [], \"repair_waiting\": false}", "repair_waiting"},
	};

	wire_golden_refused(bad,
			    G_N_ELEMENTS(bad),
			    (WireGoldenParse) sdt_device_list_parse,
			    (GDestroyNotify) sdt_device_list_free);
}

int
main(int argc, char **argv)
{
	static const gchar *const goldens[] = {"devices-pi3.json",
					       "devices-pi4-no-card.json",
					       "devices-cm4-emmc.json",
					       "devices-pi5-nvme-boot.json",
					       "devices-usb-reader.json"};

	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(goldens); i++) {
		g_autofree gchar *path = g_strdup_printf("/wire/device-list/golden/%s", goldens[i]);
		g_test_add_data_func(path, goldens[i], test_golden);
	}
	g_test_add_func("/wire/device-list/fields", test_fields);
	g_test_add_func("/wire/device-list/unknown", test_unknown);
	g_test_add_func("/wire/device-list/refused", test_refused);
	return g_test_run();
}
