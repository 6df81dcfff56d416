/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands main() dispatches to. Each gets its own argv (argv[0] is the
 * command name), parses its options with getopt_long and returns the exit
 * status: EXIT_SUCCESS, EXIT_FAILURE, EXIT_USAGE or (daemon) EXIT_CONFIG.
 */
#ifndef NICTLCTL_COMMANDS_H
#define NICTLCTL_COMMANDS_H

int cmd_show(int argc, char **argv);
int cmd_bind(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_daemon(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_balance(int argc, char **argv);

#endif /* NICTLCTL_COMMANDS_H */
