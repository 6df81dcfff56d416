/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Telling systemd (Type=notify) how the daemon is doing, over the datagram
 * socket $NOTIFY_SOCKET names, as sd_notify(3) does without its library:
 * READY=1 once the rules were first applied, RELOADING=1 and READY=1 around
 * a reload, STOPPING=1, STATUS= for `systemctl status`. Without the
 * variable (not started by systemd) nothing is sent.
 */
#ifndef NICTLCTL_NOTIFY_H
#define NICTLCTL_NOTIFY_H

#include "util.h"

__printf(1, 2) void notify_systemd(const char *fmt, ...);

#endif /* NICTLCTL_NOTIFY_H */
