/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-board-model.h"

#define SDHOST SDT_SD_CONTROLLER_SDHOST
#define EMMC2  SDT_SD_CONTROLLER_EMMC2
#define SDIO1  SDT_SD_CONTROLLER_SDHCI_BRCMSTB

/* PLATFORM.md §1.3, §1.4, §1.6 and §2.1 */
/* clang-format off */
static const SdtBoardModel sdt_board_models[] = {
	/* key, type, name, SoC, compatible, model prefix, controller, core clock, filter */
	{"1", 0x00, "A", "BCM2835",
	 "raspberrypi,model-a", "Raspberry Pi Model A",
	 SDHOST, 250000000, "[pi1]"},
	{"1", 0x01, "B", "BCM2835",
	 "raspberrypi,model-b", "Raspberry Pi Model B",
	 SDHOST, 250000000, "[pi1]"},
	{"1", 0x02, "A+", "BCM2835",
	 "raspberrypi,model-a-plus", "Raspberry Pi Model A Plus",
	 SDHOST, 250000000, "[pi1]"},
	{"1", 0x03, "B+", "BCM2835",
	 "raspberrypi,model-b-plus", "Raspberry Pi Model B Plus",
	 SDHOST, 250000000, "[pi1]"},
	{"2", 0x04, "2B", "BCM2836",
	 "raspberrypi,2-model-b", "Raspberry Pi 2 Model B",
	 SDHOST, 250000000, "[pi2]"},
	{"cm1", 0x06, "CM1", "BCM2835",
	 "raspberrypi,compute-module", "Raspberry Pi Compute Module",
	 SDHOST, 250000000, "[pi1]"},
	{"3", 0x08, "3B", "BCM2837",
	 "raspberrypi,3-model-b", "Raspberry Pi 3 Model B",
	 SDHOST, 400000000, "[board-type=0x08]"},
	{"zero", 0x09, "Zero", "BCM2835",
	 "raspberrypi,model-zero", "Raspberry Pi Zero",
	 SDHOST, 400000000, "[board-type=0x09]"},
	{"cm3", 0x0a, "CM3", "BCM2837",
	 "raspberrypi,3-compute-module", "Raspberry Pi Compute Module 3",
	 SDHOST, 400000000, "[board-type=0x0a]"},
	{"zero-w", 0x0c, "Zero W", "BCM2835",
	 "raspberrypi,model-zero-w", "Raspberry Pi Zero W",
	 SDHOST, 400000000, "[board-type=0x0c]"},
	{"3-plus", 0x0d, "3B+", "BCM2837",
	 "raspberrypi,3-model-b-plus", "Raspberry Pi 3 Model B Plus",
	 SDHOST, 400000000, "[board-type=0x0d]"},
	{"3a-plus", 0x0e, "3A+", "BCM2837",
	 "raspberrypi,3-model-a-plus", "Raspberry Pi 3 Model A Plus",
	 SDHOST, 400000000, "[board-type=0x0e]"},
	{"cm3", 0x10, "CM3+", "BCM2837",
	 "raspberrypi,3-plus-compute-module", "Raspberry Pi Compute Module 3 Plus",
	 SDHOST, 400000000, "[board-type=0x10]"},
	{"4", 0x11, "4B", "BCM2711",
	 "raspberrypi,4-model-b", "Raspberry Pi 4 Model B",
	 EMMC2, 0, "[board-type=0x11]"},
	{"zero-2-w", 0x12, "Zero 2 W", "BCM2837",
	 "raspberrypi,model-zero-2-w", "Raspberry Pi Zero 2 W",
	 SDHOST, 400000000, "[pi02]"},
	{"400", 0x13, "400", "BCM2711",
	 "raspberrypi,400", "Raspberry Pi 400",
	 EMMC2, 0, "[pi400]"},
	{"cm4", 0x14, "CM4", "BCM2711",
	 "raspberrypi,4-compute-module", "Raspberry Pi Compute Module 4",
	 EMMC2, 0, "[cm4]"},
	{"cm4", 0x15, "CM4S", "BCM2711",
	 "raspberrypi,4s-compute-module", "Raspberry Pi Compute Module 4S",
	 EMMC2, 0, "[cm4s]"},
	{"5", 0x17, "5", "BCM2712",
	 "raspberrypi,5-model-b", "Raspberry Pi 5",
	 SDIO1, 0, "[board-type=0x17]"},
	{"cm5", 0x18, "CM5", "BCM2712",
	 "raspberrypi,5-compute-module", "Raspberry Pi Compute Module 5",
	 SDIO1, 0, "[board-type=0x18]"},
	{"500", 0x19, "500", "BCM2712",
	 "raspberrypi,500", "Raspberry Pi 500",
	 SDIO1, 0, "[board-type=0x19]"},
	/* shares its compatible string with the CM5: only the revision code tells them apart */
	{"cm5", 0x1a, "CM5 Lite", "BCM2712",
	 NULL, NULL,
	 SDIO1, 0, "[board-type=0x1a]"},
};
/* clang-format on */

const SdtBoardModel *
sdt_board_model_table(guint *n_models)
{
	if (n_models != NULL)
		*n_models = G_N_ELEMENTS(sdt_board_models);
	return sdt_board_models;
}

const SdtBoardModel *
sdt_board_model_lookup_type(guint type_code)
{
	for (guint i = 0; i < G_N_ELEMENTS(sdt_board_models); i++) {
		if (sdt_board_models[i].type_code == type_code)
			return &sdt_board_models[i];
	}
	return NULL;
}

const SdtBoardModel *
sdt_board_model_lookup_key(const gchar *key)
{
	for (guint i = 0; key != NULL && i < G_N_ELEMENTS(sdt_board_models); i++) {
		if (g_strcmp0(sdt_board_models[i].key, key) == 0)
			return &sdt_board_models[i];
	}
	return NULL;
}
