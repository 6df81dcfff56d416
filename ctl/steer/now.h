/* SPDX-License-Identifier: GPL-2.0 */
/* A device's steering as sysfs has it now, for `show`. */
#ifndef NICTLCTL_STEER_NOW_H
#define NICTLCTL_STEER_NOW_H

#include "dev.h"
#include "steer/check.h"

int steer_now_read(const struct nictl_dev *dev, struct steer_now *now);
void steer_now_free(struct steer_now *now);

#endif /* NICTLCTL_STEER_NOW_H */
