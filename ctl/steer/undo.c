// SPDX-License-Identifier: GPL-2.0
/*
 * Put back what the first `bind --steer` of a device replaced, from its
 * file under /run/nictl, and the host-wide RFS table size once no device
 * steered by nictl needs it any more: exactly the size from before, and
 * only if nictl raised it and nobody changed it since.
 */
#include <errno.h>
#include <net/if.h>
#include <string.h>

#include "report.h"
#include "steer/state.h"
#include "steer/undo.h"

static int flow_entries_undo(unsigned int ifindex)
{
	unsigned int before, raised;
	int err;

	if (state_others(ifindex) || state_flow_load(&before, &raised))
		return 0;
	err = flow_entries_put_back(before, raised);
	if (err < 0) {
		ctl_msg("cannot put " FLOW_ENTRIES_NAME " back to %u: %s", before, strerror(-err));
		return -1;
	}
	if (err)
		ctl_msg(FLOW_ENTRIES_NAME " is no longer the %u nictl set: left as it is", raised);
	state_flow_remove();
	return 0;
}

/*
 * Put back the steering values of the device @ifindex, if nictl replaced
 * any. 0 when done or nothing to do; -1 after printing what could not be
 * put back (its file then stays, for another try).
 */
int steer_undo(unsigned int ifindex)
{
	char ifname[IF_NAMESIZE];
	struct knob_list old;
	const char *failed;
	int err;

	err = state_load(ifindex, &old);
	if (err == -ENOENT)
		return 0;
	if (err) {
		ctl_msg("cannot read the steering values kept under /run/nictl: %s",
			strerror(-err));
		return -1;
	}
	if (if_indextoname(ifindex, ifname))
		err = knobs_put_back(ifname, &old, old.nr, &failed);
	if (err)
		ctl_msg("cannot put back %s of %s: %s; run restore again", failed, ifname,
			strerror(-err));
	knobs_free(&old);
	if (!err)
		state_remove(ifindex);
	return err ? -1 : flow_entries_undo(ifindex);
}
