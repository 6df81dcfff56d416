/* SPDX-License-Identifier: GPL-2.0 */
/* The MAC address rules match on. */
#ifndef NICTLCTL_MAC_H
#define NICTLCTL_MAC_H

#include <stddef.h>

/* "aa:bb:cc:dd:ee:ff" plus NUL */
#define MAC_STR_LEN	18

int mac_of(const char *ifname, char *buf, size_t len);

#endif /* NICTLCTL_MAC_H */
