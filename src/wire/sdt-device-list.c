/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sdt-device-list.h"
#include "sdt-device-list-private.h"
#include "sdt-json.h"
#include "sdt-json-private.h"
#include "sdt-json-strict-private.h"

#define KEY_REPAIRED        "repaired"
#define KEY_REPAIR_WAITING  "repair_waiting"
#define KEY_DEVICES         "devices"
#define KEY_DEVICE          "device"
#define KEY_BLOCKS          "blocks"
#define KEY_PATH            "path"
#define KEY_VENDOR          "vendor"
#define KEY_MODEL           "model"
#define KEY_SERIAL          "serial"
#define KEY_BUS             "bus"
#define KEY_CARD_TYPE       "card_type"
#define KEY_USB_SPEED       "usb_speed_mbit_s"
#define KEY_SIZE_BYTES      "size_bytes"
#define KEY_OFFERED         "offered"
#define KEY_REASON_CODE     "reason_code"
#define KEY_REASON          "reason"
#define KEY_SYSTEM_DISK     "system_disk"
#define KEY_REMOVABLE       "removable"
#define KEY_SD_CARD         "sd_card"
#define KEY_MEDIUM          "medium"
#define KEY_MOUNTED         "mounted"
#define KEY_IN_USE          "in_use"
#define KEY_READ_ONLY       "read_only"
#define KEY_MOUNT_POINTS    "mount_points"
#define KEY_PARTITION_TABLE "partition_table"
#define KEY_FILESYSTEMS     "filesystems"
#define KEY_TYPE            "type"
#define KEY_LABEL           "label"
#define KEY_SIGNATURES_FROM "signatures_from"

static void
sdt_device_list_fs_free(gpointer data)
{
	SdtDeviceListFs *fs = data;

	g_free(fs->device);
	g_free(fs->type);
	g_free(fs->label);
	g_free(fs);
}

static void
sdt_device_list_entry_free(gpointer data)
{
	SdtDeviceListEntry *d = data;

	g_free(d->device);
	g_free(d->path);
	g_free(d->vendor);
	g_free(d->model);
	g_free(d->serial);
	g_free(d->bus);
	g_free(d->card_type);
	g_free(d->reason_code);
	g_free(d->reason);
	g_ptr_array_unref(d->mount_points);
	g_free(d->partition_table);
	g_ptr_array_unref(d->filesystems);
	g_free(d->signatures_from);
	g_free(d);
}

static void
sdt_device_list_repair_free(gpointer data)
{
	SdtDeviceListRepair *r = data;

	g_free(r->device);
	g_free(r);
}

SdtDeviceList *
sdt_device_list_new(void)
{
	SdtDeviceList *list = g_new0(SdtDeviceList, 1);

	list->repaired = g_ptr_array_new_with_free_func(sdt_device_list_repair_free);
	list->devices = g_ptr_array_new_with_free_func(sdt_device_list_entry_free);
	return list;
}

void
sdt_device_list_free(SdtDeviceList *list)
{
	if (list == NULL)
		return;
	g_ptr_array_unref(list->repaired);
	g_free(list->repair_waiting);
	g_ptr_array_unref(list->devices);
	g_free(list);
}

SdtDeviceListEntry *
sdt_device_list_add(SdtDeviceList *list)
{
	SdtDeviceListEntry *d;

	g_return_val_if_fail(list != NULL, NULL);

	d = g_new0(SdtDeviceListEntry, 1);
	d->usb_speed_mbit_s = NAN;
	d->mount_points = g_ptr_array_new_with_free_func(g_free);
	d->filesystems = g_ptr_array_new_with_free_func(sdt_device_list_fs_free);
	g_ptr_array_add(list->devices, d);
	return d;
}

void
sdt_device_list_add_fs(SdtDeviceListEntry *entry,
		       const gchar *device,
		       const gchar *type,
		       const gchar *label)
{
	SdtDeviceListFs *fs;

	g_return_if_fail(entry != NULL);

	fs = g_new0(SdtDeviceListFs, 1);
	fs->device = g_strdup(device);
	fs->type = g_strdup(type);
	fs->label = g_strdup(label);
	g_ptr_array_add(entry->filesystems, fs);
}

void
sdt_device_list_add_repair(SdtDeviceList *list, const gchar *device, gint64 blocks)
{
	SdtDeviceListRepair *r;

	g_return_if_fail(list != NULL);

	r = g_new0(SdtDeviceListRepair, 1);
	r->device = g_strdup(device);
	r->blocks = blocks;
	g_ptr_array_add(list->repaired, r);
}

/* the reading direction: absent or null is unknown, a wrong type an error */

static gboolean
sdt_device_list_read_fs(JsonObject *obj, const gchar *where, SdtDeviceListEntry *d, GError **error)
{
	JsonArray *fss = NULL;

	if (!sdt_json_strict_array(obj, where, KEY_FILESYSTEMS, &fss, error))
		return FALSE;
	for (guint i = 0; fss != NULL && i < json_array_get_length(fss); i++) {
		g_autofree gchar *at = sdt_json_strict_element(where, KEY_FILESYSTEMS, i);
		JsonObject *o =
			sdt_json_strict_element_object(json_array_get_element(fss, i), at, error);
		SdtDeviceListFs *fs;
		if (o == NULL)
			return FALSE;
		fs = g_new0(SdtDeviceListFs, 1);
		g_ptr_array_add(d->filesystems, fs);
		if (!sdt_json_strict_string(o, at, KEY_DEVICE, &fs->device, error) ||
		    !sdt_json_strict_string(o, at, KEY_TYPE, &fs->type, error) ||
		    !sdt_json_strict_string(o, at, KEY_LABEL, &fs->label, error))
			return FALSE;
	}
	return TRUE;
}

static gboolean
sdt_device_list_read_facts(JsonObject *obj, const gchar *at, SdtDeviceListEntry *d, GError **error)
{
	return sdt_json_strict_bool(obj, at, KEY_OFFERED, FALSE, &d->offered, error) &&
	       sdt_json_strict_string(obj, at, KEY_REASON_CODE, &d->reason_code, error) &&
	       sdt_json_strict_string(obj, at, KEY_REASON, &d->reason, error) &&
	       sdt_json_strict_bool(obj, at, KEY_SYSTEM_DISK, FALSE, &d->system_disk, error) &&
	       sdt_json_strict_bool(obj, at, KEY_REMOVABLE, FALSE, &d->removable, error) &&
	       sdt_json_strict_bool(obj, at, KEY_SD_CARD, FALSE, &d->sd_card, error) &&
	       sdt_json_strict_bool(obj, at, KEY_MEDIUM, FALSE, &d->medium, error) &&
	       sdt_json_strict_bool(obj, at, KEY_MOUNTED, FALSE, &d->mounted, error) &&
	       sdt_json_strict_bool(obj, at, KEY_IN_USE, FALSE, &d->in_use, error) &&
	       sdt_json_strict_bool(obj, at, KEY_READ_ONLY, FALSE, &d->read_only, error);
}

static gboolean
sdt_device_list_read_entry(JsonObject *obj, const gchar *at, SdtDeviceListEntry *d, GError **error)
{
	if (!sdt_json_strict_string(obj, at, KEY_DEVICE, &d->device, error) ||
	    !sdt_json_strict_string(obj, at, KEY_PATH, &d->path, error) ||
	    !sdt_json_strict_string(obj, at, KEY_VENDOR, &d->vendor, error) ||
	    !sdt_json_strict_string(obj, at, KEY_MODEL, &d->model, error) ||
	    !sdt_json_strict_string(obj, at, KEY_SERIAL, &d->serial, error) ||
	    !sdt_json_strict_string(obj, at, KEY_BUS, &d->bus, error) ||
	    !sdt_json_strict_string(obj, at, KEY_CARD_TYPE, &d->card_type, error) ||
	    !sdt_json_strict_number(obj, at, KEY_USB_SPEED, &d->usb_speed_mbit_s, error) ||
	    !sdt_json_strict_int(obj, at, KEY_SIZE_BYTES, 0, &d->size_bytes, error) ||
	    !sdt_device_list_read_facts(obj, at, d, error) ||
	    !sdt_json_strict_strings(obj, at, KEY_MOUNT_POINTS, d->mount_points, error) ||
	    !sdt_json_strict_string(obj, at, KEY_PARTITION_TABLE, &d->partition_table, error) ||
	    !sdt_device_list_read_fs(obj, at, d, error) ||
	    !sdt_json_strict_string(obj, at, KEY_SIGNATURES_FROM, &d->signatures_from, error))
		return FALSE;
	if (d->device == NULL)
		return sdt_json_strict_missing(at, KEY_DEVICE, error);
	return TRUE;
}

static gboolean
sdt_device_list_read_repaired(JsonObject *obj, SdtDeviceList *list, GError **error)
{
	JsonArray *array = NULL;

	if (!sdt_json_strict_array(obj, NULL, KEY_REPAIRED, &array, error) ||
	    !sdt_json_strict_string(obj, NULL, KEY_REPAIR_WAITING, &list->repair_waiting, error))
		return FALSE;
	for (guint i = 0; array != NULL && i < json_array_get_length(array); i++) {
		g_autofree gchar *at = sdt_json_strict_element(NULL, KEY_REPAIRED, i);
		JsonObject *o =
			sdt_json_strict_element_object(json_array_get_element(array, i), at, error);
		SdtDeviceListRepair *r;
		if (o == NULL)
			return FALSE;
		r = g_new0(SdtDeviceListRepair, 1);
		g_ptr_array_add(list->repaired, r);
		if (!sdt_json_strict_string(o, at, KEY_DEVICE, &r->device, error) ||
		    !sdt_json_strict_int(o, at, KEY_BLOCKS, 0, &r->blocks, error))
			return FALSE;
	}
	return TRUE;
}

SdtDeviceList *
sdt_device_list_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtDeviceList) list = sdt_device_list_new();
	JsonArray *array = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	if (!sdt_device_list_read_repaired(obj, list, error) ||
	    !sdt_json_strict_array(obj, NULL, KEY_DEVICES, &array, error))
		return NULL;
	if (array == NULL) {
		sdt_json_strict_missing(NULL, KEY_DEVICES, error);
		return NULL;
	}
	for (guint i = 0; i < json_array_get_length(array); i++) {
		g_autofree gchar *at = sdt_json_strict_element(NULL, KEY_DEVICES, i);
		JsonObject *o =
			sdt_json_strict_element_object(json_array_get_element(array, i), at, error);
		if (o == NULL ||
		    !sdt_device_list_read_entry(o, at, sdt_device_list_add(list), error))
			return NULL;
	}
	return g_steal_pointer(&list);
}

SdtDeviceList *
sdt_device_list_parse(const gchar *text, GError **error)
{
	g_autoptr(JsonNode) root = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL, NULL);

	root = sdt_json_reader_parse(text, error);
	if (root == NULL)
		return NULL;
	return sdt_device_list_from_json(json_node_get_object(root), error);
}

/* the writing direction: every member in the order `devices` has always written */

static void
sdt_device_list_put_contents(JsonBuilder *b, const SdtDeviceListEntry *d)
{
	json_builder_set_member_name(b, KEY_MOUNT_POINTS);
	json_builder_begin_array(b);
	for (guint i = 0; i < d->mount_points->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(d->mount_points, i));
	json_builder_end_array(b);
	sdt_json_string_or_null(b, KEY_PARTITION_TABLE, d->partition_table);
	json_builder_set_member_name(b, KEY_FILESYSTEMS);
	json_builder_begin_array(b);
	for (guint i = 0; i < d->filesystems->len; i++) {
		const SdtDeviceListFs *fs = g_ptr_array_index(d->filesystems, i);
		json_builder_begin_object(b);
		sdt_json_string_or_null(b, KEY_DEVICE, fs->device);
		sdt_json_string_or_null(b, KEY_TYPE, fs->type);
		sdt_json_string_or_null(b, KEY_LABEL, fs->label);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	sdt_json_string_or_null(b, KEY_SIGNATURES_FROM, d->signatures_from);
}

static void
sdt_device_list_put_entry(JsonBuilder *b, const SdtDeviceListEntry *d)
{
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, KEY_DEVICE, d->device);
	sdt_json_string_or_null(b, KEY_PATH, d->path);
	sdt_json_string_or_null(b, KEY_VENDOR, d->vendor);
	sdt_json_string_or_null(b, KEY_MODEL, d->model);
	sdt_json_string_or_null(b, KEY_SERIAL, d->serial);
	sdt_json_string_or_null(b, KEY_BUS, d->bus);
	sdt_json_string_or_null(b, KEY_CARD_TYPE, d->card_type);
	sdt_json_number_or_null(b, KEY_USB_SPEED, d->usb_speed_mbit_s);
	json_builder_set_member_name(b, KEY_SIZE_BYTES);
	json_builder_add_int_value(b, d->size_bytes);
	sdt_json_put_bool(b, KEY_OFFERED, d->offered);
	sdt_json_string_or_null(b, KEY_REASON_CODE, d->reason_code);
	sdt_json_string_or_null(b, KEY_REASON, d->reason);
	sdt_json_put_bool(b, KEY_SYSTEM_DISK, d->system_disk);
	sdt_json_put_bool(b, KEY_REMOVABLE, d->removable);
	sdt_json_put_bool(b, KEY_SD_CARD, d->sd_card);
	sdt_json_put_bool(b, KEY_MEDIUM, d->medium);
	sdt_json_put_bool(b, KEY_MOUNTED, d->mounted);
	sdt_json_put_bool(b, KEY_IN_USE, d->in_use);
	sdt_json_put_bool(b, KEY_READ_ONLY, d->read_only);
	sdt_device_list_put_contents(b, d);
	json_builder_end_object(b);
}

JsonNode *
sdt_device_list_to_json(const SdtDeviceList *list)
{
	g_autoptr(JsonBuilder) b = json_builder_new();

	g_return_val_if_fail(list != NULL, NULL);

	json_builder_begin_object(b);
	json_builder_set_member_name(b, KEY_REPAIRED);
	json_builder_begin_array(b);
	for (guint i = 0; i < list->repaired->len; i++) {
		const SdtDeviceListRepair *r = g_ptr_array_index(list->repaired, i);
		json_builder_begin_object(b);
		sdt_json_string_or_null(b, KEY_DEVICE, r->device);
		json_builder_set_member_name(b, KEY_BLOCKS);
		json_builder_add_int_value(b, r->blocks);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	sdt_json_string_or_null(b, KEY_REPAIR_WAITING, list->repair_waiting);
	json_builder_set_member_name(b, KEY_DEVICES);
	json_builder_begin_array(b);
	for (guint i = 0; i < list->devices->len; i++)
		sdt_device_list_put_entry(b, g_ptr_array_index(list->devices, i));
	json_builder_end_array(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gchar *
sdt_device_list_to_string(const SdtDeviceList *list)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(list != NULL, NULL);

	node = sdt_device_list_to_json(list);
	/* sysfs and blkid may hold any bytes: the text is UTF-8 */
	sdt_json_sanitize_utf8(node);
	return sdt_json_to_string(node, TRUE);
}
