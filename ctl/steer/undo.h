/* SPDX-License-Identifier: GPL-2.0 */
/* `restore`: put back the steering values `bind --steer` replaced. */
#ifndef NICTLCTL_STEER_UNDO_H
#define NICTLCTL_STEER_UNDO_H

int steer_undo(unsigned int ifindex);

#endif /* NICTLCTL_STEER_UNDO_H */
