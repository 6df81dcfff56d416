/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel idioms nictlctl uses, for userspace; the kselftest headers
 * the unit tests include define them too.
 */
#ifndef NICTLCTL_UTIL_H
#define NICTLCTL_UTIL_H

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

#ifndef __printf
#define __printf(fmt, args)	__attribute__((format(printf, fmt, args)))
#endif

#endif /* NICTLCTL_UTIL_H */
