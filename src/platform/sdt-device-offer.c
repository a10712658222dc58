/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-device-offer.h"
#include "sdt-device-offer-private.h"

/*
 * A device is offered when writing to it (with every block saved and put back, as the
 * check does) cannot hurt the running system and it can be a card: a removable disk (a
 * reader's, whose sysfs "removable" is 1) or an SD card in an mmc slot, whose host may
 * report it as fixed. udisks takes a drive as removable on the same sysfs flag, and an
 * mmc device of type SD as a card; a USB disk that says it is not removable (a USB SSD)
 * is not a card and is not offered, as the issue asks.
 */
SdtDeviceOffer
sdt_device_offer_decide(const SdtDeviceOfferFacts *facts)
{
	g_return_val_if_fail(facts != NULL, SDT_DEVICE_OFFER_NOT_REMOVABLE);

	if (facts->system_disk)
		return SDT_DEVICE_OFFER_SYSTEM_DISK;
	if (!facts->removable && !facts->sd_card)
		return SDT_DEVICE_OFFER_NOT_REMOVABLE;
	if (!facts->medium)
		return SDT_DEVICE_OFFER_NO_MEDIUM;
	if (facts->mounted)
		return SDT_DEVICE_OFFER_MOUNTED;
	if (facts->held)
		return SDT_DEVICE_OFFER_IN_USE;
	if (facts->read_only)
		return SDT_DEVICE_OFFER_READ_ONLY;
	return SDT_DEVICE_OFFER_OK;
}

SdtDeviceOffer
sdt_device_offer_decide_stand_in(const SdtDeviceOfferFacts *facts)
{
	SdtDeviceOfferFacts as_card;
	SdtDeviceOffer offer;

	g_return_val_if_fail(facts != NULL, SDT_DEVICE_OFFER_NOT_REMOVABLE);
	if (!facts->loop)
		return sdt_device_offer_decide(facts);
	/* every other reason counts as for a card in a reader */
	as_card = *facts;
	as_card.removable = TRUE;
	offer = sdt_device_offer_decide(&as_card);
	return offer == SDT_DEVICE_OFFER_OK ? SDT_DEVICE_OFFER_STAND_IN : offer;
}

gboolean
sdt_device_offer_is_offered(SdtDeviceOffer offer)
{
	return offer == SDT_DEVICE_OFFER_OK || offer == SDT_DEVICE_OFFER_STAND_IN;
}

const gchar *
sdt_device_offer_to_code(SdtDeviceOffer offer)
{
	switch (offer) {
	case SDT_DEVICE_OFFER_OK:
		return NULL;
	case SDT_DEVICE_OFFER_SYSTEM_DISK:
		return "system-disk";
	case SDT_DEVICE_OFFER_NOT_REMOVABLE:
		return "not-removable";
	case SDT_DEVICE_OFFER_NO_MEDIUM:
		return "no-medium";
	case SDT_DEVICE_OFFER_MOUNTED:
		return "mounted";
	case SDT_DEVICE_OFFER_IN_USE:
		return "in-use";
	case SDT_DEVICE_OFFER_READ_ONLY:
		return "read-only";
	case SDT_DEVICE_OFFER_STAND_IN:
		return "stand-in";
	default:
		break;
	}
	return "unknown";
}

const gchar *
sdt_device_offer_to_reason(SdtDeviceOffer offer)
{
	switch (offer) {
	case SDT_DEVICE_OFFER_OK:
		return NULL;
	case SDT_DEVICE_OFFER_SYSTEM_DISK:
		return _("It is the system disk");
	case SDT_DEVICE_OFFER_NOT_REMOVABLE:
		return _("It is not removable and not an SD card");
	case SDT_DEVICE_OFFER_NO_MEDIUM:
		return _("There is no card in it");
	case SDT_DEVICE_OFFER_MOUNTED:
		return _("It is mounted: unmount it first");
	case SDT_DEVICE_OFFER_IN_USE:
		return _("It is in use by the device mapper or a RAID");
	case SDT_DEVICE_OFFER_READ_ONLY:
		return _("It is read-only (the card's lock switch?)");
	case SDT_DEVICE_OFFER_STAND_IN:
		return _("A loop device on a simulated board, standing in for a card");
	default:
		break;
	}
	return NULL;
}
