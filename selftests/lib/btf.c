// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "btf.h"

#define BTF_PATH	"/sys/kernel/btf/vmlinux"
#define BTF_MAGIC	0xeb9f

/* The layout of Documentation/bpf/btf.rst, in the kernel's byte order. */
struct btf_header {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t type_off;
	uint32_t type_len;
	uint32_t str_off;
	uint32_t str_len;
};

struct btf_type {
	uint32_t name_off;
	uint32_t info;
	uint32_t size;
};

enum {
	KIND_INT = 1, KIND_ARRAY = 3, KIND_STRUCT = 4, KIND_UNION = 5, KIND_ENUM = 6,
	KIND_FUNC_PROTO = 13, KIND_VAR = 14, KIND_DATASEC = 15, KIND_DECL_TAG = 17,
	KIND_ENUM64 = 19,
};

/* Bytes that follow a type of @kind with @vlen entries; -1 for an unknown kind. */
static long btf_extra(unsigned int kind, unsigned int vlen)
{
	switch (kind) {
	case KIND_INT:
	case KIND_VAR:
	case KIND_DECL_TAG:
		return 4;
	case KIND_ARRAY:
		return 12;
	case KIND_STRUCT:
	case KIND_UNION:
	case KIND_DATASEC:
	case KIND_ENUM64:
		return 12L * vlen;
	case KIND_ENUM:
	case KIND_FUNC_PROTO:
		return 8L * vlen;
	default:
		return kind <= 19 ? 0 : -1;
	}
}

static char *read_all(const char *path, size_t *len)
{
	size_t cap = 1 << 22, n = 0, got;
	char *buf = malloc(cap), *grown;
	FILE *f = fopen(path, "re");

	while (buf && f && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n < cap)
			continue;
		grown = realloc(buf, cap *= 2);
		if (!grown)
			free(buf);
		buf = grown;
	}
	if (f)
		fclose(f);
	if (!f) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* @member as a member name in @body: its identifier, then a declarator's end. */
static int body_declares(const char *body, size_t len, const char *member)
{
	size_t n = strlen(member), i;
	const char *p;

	for (i = 0; i + n < len; i++) {
		p = body + i;
		if (strncmp(p, member, n) || (i && (isalnum(p[-1]) || p[-1] == '_')))
			continue;
		p += n;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == ';' || *p == '[' || *p == ':' || *p == ',' || (*p == ')' && p[1] == '('))
			return 1;
	}
	return 0;
}

/*
 * Without BTF (a kernel built without debug information, as the project's
 * debug kernel is), the running kernel's own headers: its struct @type
 * from the opening line to the first "};" at the start of a line. The
 * build tree is found through /lib/modules/RELEASE, or, on a host root
 * without /lib/modules (a container), through $NICTL_MODULES, the modules
 * folder the guest booted with (selftests/vm/guest-init.sh).
 */
static int header_struct_has(const char *header, const char *type, const char *member)
{
	/* A tree built with O= keeps the sources behind its "source" link. */
	static const char *const trees[] = { "build", "build/source" };
	const char *modules = getenv("NICTL_MODULES");
	char dir[256], path[512], open[128], *buf = NULL, *start, *end;
	struct utsname u;
	unsigned int i;
	size_t len;
	int found;

	if (uname(&u))
		return -errno;
	snprintf(open, sizeof(open), "\nstruct %s {\n", type);
	snprintf(dir, sizeof(dir), "/lib/modules/%s", u.release);
	if (access(dir, F_OK) && modules)
		snprintf(dir, sizeof(dir), "%s", modules);
	for (i = 0; !buf && i < sizeof(trees) / sizeof(trees[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s/include/%s", dir, trees[i], header);
		buf = read_all(path, &len);
	}
	if (!buf)
		return -errno ?: -ENOMEM;
	buf[len] = '\0';
	start = strstr(buf, open);
	end = start ? strstr(start, "\n};") : NULL;
	found = end ? body_declares(start, end - start, member) : -ENOENT;
	free(buf);
	return found;
}

int kernel_struct_has(const char *header, const char *type, const char *member)
{
	const struct btf_header *h;
	const struct btf_type *t;
	const uint32_t *m;
	size_t len, pos, end;
	unsigned int kind, vlen, i;
	int found = -ENOENT;
	const char *strs;
	char *buf;
	long extra;

	buf = read_all(BTF_PATH, &len);
	if (!buf && errno == ENOENT)
		return header_struct_has(header, type, member);
	if (!buf)
		return -errno ?: -ENOMEM;
	h = (const struct btf_header *)buf;
	if (len < sizeof(*h) || h->magic != BTF_MAGIC ||
	    (size_t)h->hdr_len + h->str_off + h->str_len > len ||
	    (size_t)h->hdr_len + h->type_off + h->type_len > len) {
		free(buf);
		return -EINVAL;
	}
	strs = buf + h->hdr_len + h->str_off;
	pos = h->hdr_len + h->type_off;
	end = pos + h->type_len;
	while (found == -ENOENT && pos + sizeof(*t) <= end) {
		t = (const struct btf_type *)(buf + pos);
		kind = (t->info >> 24) & 0x1f;
		vlen = t->info & 0xffff;
		extra = btf_extra(kind, vlen);
		if (extra < 0 || pos + sizeof(*t) + extra > end) {
			found = -EINVAL;
			break;
		}
		if (kind == KIND_STRUCT && t->name_off < h->str_len &&
		    !strcmp(strs + t->name_off, type)) {
			found = 0;
			m = (const uint32_t *)(t + 1);
			for (i = 0; i < vlen && !found; i++, m += 3)
				found = m[0] < h->str_len && !strcmp(strs + m[0], member);
		}
		pos += sizeof(*t) + extra;
	}
	free(buf);
	return found;
}
