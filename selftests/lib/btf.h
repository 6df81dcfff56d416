/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the running kernel offers, read from its own type information
 * (/sys/kernel/btf/vmlinux), as Kbuild reads the headers a module is built
 * against: a test expects what the kernel can do, whatever module it loads.
 * A kernel without BTF is read from its headers (/lib/modules/KREL/build).
 */
#ifndef NICTL_TEST_BTF_H
#define NICTL_TEST_BTF_H

/*
 * 1 when the kernel's struct @type has a member @member, 0 when not, or
 * -errno. @header, below include/, declares @type: read without BTF.
 */
int kernel_struct_has(const char *header, const char *type, const char *member);

#endif /* NICTL_TEST_BTF_H */
