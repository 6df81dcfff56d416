// SPDX-License-Identifier: GPL-2.0
/* Storage the compat header needs on kernels without formatted extack. */
#include "nictl.h"

char nictl_extack_buf[NICTL_EXTACK_LEN];
