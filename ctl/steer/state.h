/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `bind --steer` replaced, kept for `restore`, a later process: one
 * file per device under /run/nictl (a tmpfs: nothing outlives a reboot,
 * and neither do the values it would put back), and one for the host-wide
 * RFS table size when nictl raised it.
 */
#ifndef NICTLCTL_STEER_STATE_H
#define NICTLCTL_STEER_STATE_H

#include <stdbool.h>

#include "steer/knob.h"

int state_save(unsigned int ifindex, const char *ifname, const struct knob_list *old);
int state_load(unsigned int ifindex, struct knob_list *old);
int state_keep(unsigned int ifindex, const char *ifname, const struct knob_list *old,
	       bool *created);
int state_remove(unsigned int ifindex);
bool state_others(unsigned int ifindex);

int state_flow_save(unsigned int before, unsigned int raised);
int state_flow_load(unsigned int *before, unsigned int *raised);
int state_flow_remove(void);

#endif /* NICTLCTL_STEER_STATE_H */
