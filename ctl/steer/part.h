/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of steering: `bind --steer` sets them all, a daemon rule those
 * its rps, rfs, xps and steer keys ask for.
 */
#ifndef NICTLCTL_STEER_PART_H
#define NICTLCTL_STEER_PART_H

enum steer_part {
	STEER_RPS = 1 << 0,	/* each rx queue's rps_cpus */
	STEER_RFS = 1 << 1,	/* each rx queue's rps_flow_cnt, and the host-wide table */
	STEER_XPS = 1 << 2,	/* each tx queue's xps_cpus */
	STEER_ALL = STEER_RPS | STEER_RFS | STEER_XPS,
};

#endif /* NICTLCTL_STEER_PART_H */
