// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side tests of the fuzzer's generator (`make -C selftests unit`): a
 * seed gives the same bytes every time, every message stays in bounds and
 * can never be read as a second netlink message, the valid requests are
 * valid, and a run covers every command and kind. No module needed.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>

#include "kselftest_harness.h"

#include "gen.h"
#include "main.h"

#define FAMILY		0x1d
#define MESSAGES	20000

/* The test guest: 8 CPUs, CPU 7 offline, lo and three NICs. */
static int guest_ctx(struct fuzz_ctx *ctx)
{
	static const char *const names[] = { "lo", "vnode1", "vnode0", "e1k" };
	unsigned int i;

	memset(ctx, 0, sizeof(*ctx));
	ctx->family = FAMILY;
	ctx->nr_cpu_ids = 8;
	for (i = 0; i < 4; i++) {
		ctx->dev[i].ifindex = i + 1;
		strcpy(ctx->dev[i].name, names[i]);
	}
	ctx->n_devs = 4;
	return cpus_parse(&ctx->online, "0-6");
}

FIXTURE(gen) {
	struct fuzz_ctx ctx;
	struct fuzz_msg a;
	struct fuzz_msg b;
};

FIXTURE_SETUP(gen)
{
	ASSERT_EQ(0, guest_ctx(&self->ctx));
}

FIXTURE_TEARDOWN(gen)
{
}

TEST_F(gen, same_seed_same_bytes)
{
	struct prng r1, r2;
	unsigned int differ = 0;
	uint64_t step;

	for (step = 0; step < 2000; step++) {
		r1 = prng_step(42, step);
		r2 = prng_step(42, step);
		fuzz_gen(&r1, &self->ctx, step, &self->a);
		fuzz_gen(&r2, &self->ctx, step, &self->b);
		ASSERT_EQ(self->a.len, self->b.len);
		ASSERT_EQ(0, memcmp(self->a.buf, self->b.buf, self->a.len)) TH_LOG("step %lu", step);
		ASSERT_EQ(self->a.kind, self->b.kind);
		ASSERT_EQ(self->a.expect_end, self->b.expect_end);
		/* ...and another seed gives other messages. */
		r2 = prng_step(43, step);
		fuzz_gen(&r2, &self->ctx, step, &self->b);
		differ += self->a.len != self->b.len ||
			  memcmp(self->a.buf, self->b.buf, self->a.len);
	}
	EXPECT_LT(1900U, differ);
}

/*
 * The kernel reads on after a message whenever a netlink header's worth of
 * bytes follows it: what follows must always be shorter, so no message of
 * the fuzzer can reach another family.
 */
TEST_F(gen, bounded_and_one_message_each)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)self->a.buf;
	struct prng r;
	uint64_t step;

	for (step = 0; step < MESSAGES; step++) {
		r = prng_step(step % 7, step);
		fuzz_gen(&r, &self->ctx, step, &self->a);
		ASSERT_LE(self->a.len, (size_t)FUZZ_MSG_MAX);
		ASSERT_LE((size_t)NLMSG_HDRLEN, self->a.len);
		EXPECT_EQ(FAMILY, nlh->nlmsg_type);
		EXPECT_EQ((uint32_t)step, nlh->nlmsg_seq);
		if (NLMSG_ALIGN(nlh->nlmsg_len) < self->a.len)
			ASSERT_GT((size_t)NLMSG_HDRLEN, self->a.len - NLMSG_ALIGN(nlh->nlmsg_len))
				TH_LOG("step %lu: %zu bytes after a message of %u", step,
				       self->a.len - NLMSG_ALIGN(nlh->nlmsg_len), nlh->nlmsg_len);
	}
}

static int attr_ok(const struct nlattr *attr, void *data)
{
	unsigned int *n = data;

	(*n)++;
	if (mnl_attr_get_type(attr) == NICTL_A_QUEUE_CPU)
		return mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0 ? MNL_CB_ERROR : MNL_CB_OK;
	return mnl_attr_get_type(attr) > NICTL_A_MAX ? MNL_CB_ERROR : MNL_CB_OK;
}

/* Valid requests are well-formed and name only what exists. */
TEST_F(gen, valid_requests_are_valid)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)self->a.buf;
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *cpus;
	unsigned int n, cmd, i;
	struct prng r;
	struct cpus s;

	for (cmd = 1; cmd <= NICTL_CMD_MAX; cmd++) {
		for (i = 0; i < 200; i++) {
			r = prng_step(cmd, i);
			fuzz_gen_valid(&r, &self->ctx, cmd, i, &self->a);
			ASSERT_EQ(FUZZ_VALID, self->a.kind);
			ASSERT_EQ(self->a.len, nlh->nlmsg_len);
			EXPECT_TRUE(fuzz_msg_is_request(&self->a));
			EXPECT_TRUE(self->a.expect_end);
			EXPECT_EQ(cmd, genl->cmd);
			EXPECT_EQ(NICTL_FAMILY_VERSION, genl->version);
			n = 0;
			ASSERT_EQ(MNL_CB_OK, mnl_attr_parse(nlh, sizeof(*genl), attr_ok, &n));
			/* Every attribute parsed: no bytes are left over. */
			EXPECT_EQ(self->a.len, (size_t)mnl_nlmsg_get_payload_tail(nlh) -
					       (size_t)self->a.buf);
			if (cmd != NICTL_CMD_BIND)
				continue;
			EXPECT_LE(2U, n);
			cpus = NULL;
			mnl_attr_for_each(cpus, nlh, sizeof(*genl))
				if (mnl_attr_get_type(cpus) == NICTL_A_CPUS)
					break;
			if ((const char *)cpus >= (const char *)mnl_nlmsg_get_payload_tail(nlh))
				continue;
			ASSERT_EQ(0, cpus_from_bytes(&s, mnl_attr_get_payload(cpus),
						     mnl_attr_get_payload_len(cpus)));
			EXPECT_LT(0U, cpus_count(&s));
			EXPECT_TRUE(cpus_subset(&s, &self->ctx.online));
		}
	}
}

/*
 * A batch is read the way netlink_rcv_skb() reads a datagram: message after
 * message at aligned offsets, each as generated and with its own sequence
 * number, and after the last only what is too short to be read as another.
 */
TEST_F(gen, batches_read_as_their_messages)
{
	unsigned int by_n[FUZZ_BATCH_MAX + 1] = { 0 }, last_unframed = 0, dumps = 0, i;
	struct fuzz_batch *b = malloc(sizeof(*b)), *again = malloc(sizeof(*again));
	const struct nlmsghdr *nlh;
	const struct fuzz_msg *m;
	struct prng r;
	uint64_t step;
	size_t off;

	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, again);
	for (step = 0; step < MESSAGES / 4; step++) {
		r = prng_step(step % 5, step);
		fuzz_gen_batch(&r, &self->ctx, 1000, b);
		r = prng_step(step % 5, step);
		fuzz_gen_batch(&r, &self->ctx, 1000, again);
		ASSERT_EQ(b->len, again->len);
		ASSERT_EQ(0, memcmp(b->buf, again->buf, b->len)) TH_LOG("step %lu", step);
		ASSERT_LE(2U, b->n);
		ASSERT_GE((unsigned int)FUZZ_BATCH_MAX, b->n);
		by_n[b->n]++;
		for (off = 0, i = 0; i < b->n; i++) {
			m = &b->msg[i];
			nlh = (const struct nlmsghdr *)(b->buf + off);
			dumps += fuzz_msg_is_dump(m);
			ASSERT_EQ(0, off % NLMSG_ALIGNTO);
			ASSERT_LE(off + m->len, b->len);
			ASSERT_EQ(0, memcmp(nlh, m->buf, m->len))
				TH_LOG("step %lu message %u", step, i);
			ASSERT_EQ(1000U + i, nlh->nlmsg_seq);
			if (i + 1 == b->n)
				break;
			ASSERT_EQ(m->len, nlh->nlmsg_len) TH_LOG("step %lu message %u", step, i);
			off += NLMSG_ALIGN(nlh->nlmsg_len);
		}
		ASSERT_EQ(b->len, off + m->len);
		last_unframed += nlh->nlmsg_len != m->len;
		if (nlh->nlmsg_len <= m->len && NLMSG_ALIGN(nlh->nlmsg_len) < m->len)
			ASSERT_GT((size_t)NLMSG_HDRLEN, m->len - NLMSG_ALIGN(nlh->nlmsg_len));
	}
	for (i = 2; i <= FUZZ_BATCH_MAX; i++) {
		EXPECT_LT(MESSAGES / 40, by_n[i]) TH_LOG("batches of %u", i);
	}
	/* The last message still lies about its length as lone ones do, and dumps come. */
	EXPECT_LT(MESSAGES / 200, last_unframed);
	EXPECT_LT(MESSAGES / 200, dumps);
	free(again);
	free(b);
}

/* Over a run, every command, unknown ones and every kind of message come up. */
TEST_F(gen, covers_every_command_and_kind)
{
	unsigned int by_cmd[NICTL_CMD_MAX + 2] = { 0 }, by_kind[__FUZZ_KIND_MAX] = { 0 };
	unsigned int no_end = 0, i;
	struct prng r;
	uint8_t cmd;

	for (i = 0; i < MESSAGES; i++) {
		r = prng_step(1, i);
		fuzz_gen(&r, &self->ctx, i, &self->a);
		cmd = fuzz_msg_cmd(&self->a);
		by_cmd[cmd <= NICTL_CMD_MAX ? cmd : NICTL_CMD_MAX + 1]++;
		by_kind[self->a.kind]++;
		no_end += !self->a.expect_end;
	}
	for (i = 0; i <= NICTL_CMD_MAX + 1; i++) {
		EXPECT_LT(50U, by_cmd[i]) TH_LOG("command %u", i);
	}
	for (i = 0; i < __FUZZ_KIND_MAX; i++) {
		EXPECT_LT(MESSAGES / 20, by_kind[i]) TH_LOG("kind %u", i);
	}
	/* Some messages the kernel must drop or need not acknowledge. */
	EXPECT_LT(MESSAGES / 50, no_end);
}

NICTL_TEST_MAIN
