/* SPDX-License-Identifier: GPL-2.0 */
/* Transmit packet steering (XPS) that follows the queue IRQs. */
#ifndef NICTLCTL_XPS_H
#define NICTLCTL_XPS_H

#include "dev.h"

int xps_apply(const struct nictl_dev *dev);

#endif /* NICTLCTL_XPS_H */
