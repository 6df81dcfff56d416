/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the running kernel offers, read from its own type information
 * (/sys/kernel/btf/vmlinux), as Kbuild reads the headers a module is built
 * against: a test expects what the kernel can do, whatever module it loads.
 */
#ifndef NICTL_TEST_BTF_H
#define NICTL_TEST_BTF_H

/* 1 when the kernel's struct @type has a member @member, 0 when not, or -errno. */
int kernel_struct_has(const char *type, const char *member);

#endif /* NICTL_TEST_BTF_H */
