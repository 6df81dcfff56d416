/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What nictlctl keeps between runs, under /run/nictl ($NICTL_RUN_DIR in
 * host unit tests): the steering values bind --steer replaced
 * (steer/state.c), the affinities a bind without the module replaced
 * (direct/apply.c) and the CPUs of the NAPI threads a bind moved
 * (napi/kept.c). Gone at reboot, as what they describe is.
 */
#ifndef NICTLCTL_RUNDIR_H
#define NICTLCTL_RUNDIR_H

#include <stddef.h>

const char *run_dir(void);

/*
 * Write @text to @path, a file of run_dir(), whole or not at all: to a
 * temporary name in the same directory, synced, then renamed, so a reader
 * (or a crash) never sees half of it. Makes the directory. 0 or -errno.
 */
int run_file_write(const char *path, const char *text);

/*
 * Take run_dir()'s lock (flock on its ".lock" file, made with the
 * directory), waiting for another nictlctl that holds it: binds and
 * restores without the module read, write and re-read the kept files and
 * /proc/irq as one step, as the module's lock makes its binds one step.
 * Returns the descriptor to give run_dir_unlock(), or -errno.
 */
int run_dir_lock(void);
void run_dir_unlock(int fd);

#endif /* NICTLCTL_RUNDIR_H */
