// SPDX-License-Identifier: GPL-2.0
/*
 * Talking to irqbalance: the "setup" reply read, the ban command built, the
 * bans merged so irqbalance's own survive, and the whole exchange against a
 * fake irqbalance that listens where the real one does and speaks its
 * protocol (one command per connection, credentials required).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "kselftest_harness.h"

#include "daemon/irqbalance.h"
#include "util.h"

static void set_of(struct irq_set *s, const unsigned int *irqs, unsigned int n)
{
	unsigned int i;

	*s = (struct irq_set)IRQ_SET_INIT;
	for (i = 0; i < n; i++)
		if (irq_set_add(s, irqs[i]))
			abort();
}

/* The set as "a b c" in a static buffer. */
static const char *str(const struct irq_set *s)
{
	static char buf[256];
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < s->nr; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%u", i ? " " : "", s->irq[i]);
	return buf;
}

TEST(irq_set_is_sorted_without_duplicates)
{
	static const unsigned int irqs[] = { 47, 12, 45, 12, 46 };
	struct irq_set s;

	set_of(&s, irqs, ARRAY_SIZE(irqs));
	EXPECT_STREQ("12 45 46 47", str(&s));
	EXPECT_TRUE(irq_set_has(&s, 45));
	EXPECT_FALSE(irq_set_has(&s, 44));
	irq_set_free(&s);
}

TEST(parse_setup)
{
	struct irq_set s = IRQ_SET_INIT;

	/* As irqbalance 1.9 sends it: IRQs banned by --banirq or over the socket. */
	EXPECT_EQ(0, irqb_parse_setup("SLEEP 10 IRQ 12 LOAD 0 DIFF 0 CLASS 5 IRQ 31 LOAD 20 "
				      "DIFF 3 CLASS 0 BANNED 00000000", &s));
	EXPECT_STREQ("12 31", str(&s));
	irq_set_free(&s);
	EXPECT_EQ(0, irqb_parse_setup("SLEEP 10 BANNED 00000001", &s));
	EXPECT_EQ(0U, s.nr);
	EXPECT_EQ(-EPROTO, irqb_parse_setup("", &s));
	EXPECT_EQ(-EPROTO, irqb_parse_setup("TYPE 0 NUMBER 0", &s));
	EXPECT_EQ(-EPROTO, irqb_parse_setup("SLEEP 10 IRQ x LOAD 0 BANNED 0", &s));
	/* A reply cut short lacks the banned CPUs that end every one. */
	EXPECT_EQ(-EPROTO, irqb_parse_setup("SLEEP 10 IRQ 12 LOAD 0", &s));
	irq_set_free(&s);
}

TEST(ban_command)
{
	static const unsigned int irqs[] = { 46, 45 };
	struct irq_set s = IRQ_SET_INIT;
	char *cmd;

	cmd = irqb_ban_command(&s);
	EXPECT_STREQ("settings ban irqs NONE", cmd);
	free(cmd);
	set_of(&s, irqs, ARRAY_SIZE(irqs));
	cmd = irqb_ban_command(&s);
	EXPECT_STREQ("settings ban irqs 45 46", cmd);
	free(cmd);
	irq_set_free(&s);
}

TEST(merge_keeps_others_and_drops_stale_own)
{
	/* irqbalance bans 12 by itself, and 40, 41 because nictl asked earlier. */
	static const unsigned int banned_v[] = { 12, 40, 41 }, added_v[] = { 40, 41 };
	/* The device was reloaded: its IRQs are 45, 46 now, and 12 is one of them. */
	static const unsigned int ours_v[] = { 12, 45, 46 };
	struct irq_set banned, added, ours, bans = IRQ_SET_INIT, now_added = IRQ_SET_INIT;

	set_of(&banned, banned_v, ARRAY_SIZE(banned_v));
	set_of(&added, added_v, ARRAY_SIZE(added_v));
	set_of(&ours, ours_v, ARRAY_SIZE(ours_v));
	ASSERT_EQ(0, irqb_merge(&banned, &added, &ours, &bans, &now_added));
	EXPECT_STREQ("12 45 46", str(&bans));
	/* 12 was irqbalance's own ban: nictl must never take it back. */
	EXPECT_STREQ("45 46", str(&now_added));
	irq_set_free(&banned);
	irq_set_free(&added);
	irq_set_free(&ours);
	irq_set_free(&bans);
	irq_set_free(&now_added);
}

/* The fake irqbalance: its bans, and every command it received. */
static struct {
	int listen_fd;
	char dir[64];
	char path[108];		/* sizeof(sockaddr_un.sun_path) */
	struct irq_set bans;
	char cmds[8][256];
	unsigned int nr_cmds;
	bool creds_ok[8];
} fake;

static void fake_setup_reply(int fd)
{
	char reply[512];
	size_t n;
	unsigned int i;

	n = snprintf(reply, sizeof(reply), "SLEEP 10 ");
	for (i = 0; i < fake.bans.nr; i++)
		n += snprintf(reply + n, sizeof(reply) - n, "IRQ %u LOAD 0 DIFF 0 CLASS 5 ",
			      fake.bans.irq[i]);
	snprintf(reply + n, sizeof(reply) - n, "BANNED 00000000");
	send(fd, reply, strlen(reply), 0);
}

/* One connection, handled as irqbalance's sock_handle() does. */
static void fake_serve_one(int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} ctl;
	char *buf = fake.cmds[fake.nr_cmds], *p;
	struct iovec iov = { buf, sizeof(fake.cmds[0]) - 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			      .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *cm;
	ssize_t n = recvmsg(fd, &msg, 0);

	if (n < 0)
		return;
	buf[n] = '\0';
	cm = CMSG_FIRSTHDR(&msg);
	fake.creds_ok[fake.nr_cmds] = cm && cm->cmsg_type == SCM_CREDENTIALS &&
				      ((struct ucred *)CMSG_DATA(cm))->pid == getpid();
	fake.nr_cmds++;
	if (!strcmp(buf, "setup")) {
		fake_setup_reply(fd);
	} else if (!strncmp(buf, "settings ban irqs ", 18)) {
		irq_set_free(&fake.bans);
		for (p = buf + 18; *p && strncmp(p, "NONE", 4); )
			irq_set_add(&fake.bans, strtoul(p, &p, 10));
	}
}

static void *fake_irqbalance(void *arg)
{
	unsigned int i, conns = (unsigned long)arg;
	int fd;

	for (i = 0; i < conns; i++) {
		fd = accept(fake.listen_fd, NULL, NULL);
		if (fd < 0)
			break;
		fake_serve_one(fd);
		close(fd);
	}
	return NULL;
}

FIXTURE(sock) {
	pthread_t thread;
};

FIXTURE_SETUP(sock)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int one = 1;

	memset(&fake, 0, sizeof(fake));
	snprintf(fake.dir, sizeof(fake.dir), "/tmp/nictl-irqb-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(fake.dir));
	ASSERT_EQ(0, setenv("NICTL_IRQBALANCE_DIR", fake.dir, 1));
	snprintf(fake.path, sizeof(fake.path), "%s/irqbalance%d.sock", fake.dir, getpid());
	memcpy(addr.sun_path, fake.path, sizeof(fake.path));
	fake.listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ASSERT_LE(0, fake.listen_fd);
	ASSERT_EQ(0, bind(fake.listen_fd, (struct sockaddr *)&addr, sizeof(addr)));
	ASSERT_EQ(0, setsockopt(fake.listen_fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)));
	ASSERT_EQ(0, listen(fake.listen_fd, 4));
}

FIXTURE_TEARDOWN(sock)
{
	close(fake.listen_fd);
	unlink(fake.path);
	rmdir(fake.dir);
	unsetenv("NICTL_IRQBALANCE_DIR");
	irq_set_free(&fake.bans);
}

/* Run irqbalance_sync() against the fake, which takes @conns connections. */
static int sync_with_fake(struct irqbalance *ib, const struct irq_set *ours, unsigned int conns)
{
	pthread_t t;
	int ret;

	if (pthread_create(&t, NULL, fake_irqbalance, (void *)(unsigned long)conns))
		abort();
	ret = irqbalance_sync(ib, ours);
	pthread_join(t, NULL);
	return ret;
}

TEST_F(sock, bans_ours_and_keeps_its_own)
{
	static const unsigned int own_v[] = { 12 }, first_v[] = { 45, 46 }, then_v[] = { 50 };
	struct irqbalance ib = { IRQ_SET_INIT, 0 };
	struct irq_set first, then;

	set_of(&fake.bans, own_v, ARRAY_SIZE(own_v));
	set_of(&first, first_v, ARRAY_SIZE(first_v));
	set_of(&then, then_v, ARRAY_SIZE(then_v));

	ASSERT_EQ(0, sync_with_fake(&ib, &first, 2));
	ASSERT_EQ(2U, fake.nr_cmds);
	EXPECT_STREQ("setup", fake.cmds[0]);
	EXPECT_STREQ("settings ban irqs 12 45 46", fake.cmds[1]);
	EXPECT_TRUE(fake.creds_ok[0] && fake.creds_ok[1]);
	EXPECT_STREQ("12 45 46", str(&fake.bans));

	/* Unchanged: irqbalance is asked, and told nothing. */
	fake.nr_cmds = 0;
	ASSERT_EQ(0, sync_with_fake(&ib, &first, 1));
	EXPECT_EQ(1U, fake.nr_cmds);

	/* The device came back with other IRQs: ours are swapped, 12 stays. */
	fake.nr_cmds = 0;
	ASSERT_EQ(0, sync_with_fake(&ib, &then, 2));
	ASSERT_EQ(2U, fake.nr_cmds);
	EXPECT_STREQ("settings ban irqs 12 50", fake.cmds[1]);
	irq_set_free(&first);
	irq_set_free(&then);
	irqbalance_free(&ib);
}

TEST_F(sock, nothing_to_ban_clears_only_ours)
{
	static const unsigned int first_v[] = { 45 };
	struct irqbalance ib = { IRQ_SET_INIT, 0 };
	struct irq_set first, none = IRQ_SET_INIT;

	set_of(&first, first_v, ARRAY_SIZE(first_v));
	ASSERT_EQ(0, sync_with_fake(&ib, &first, 2));
	fake.nr_cmds = 0;
	ASSERT_EQ(0, sync_with_fake(&ib, &none, 2));
	EXPECT_STREQ("settings ban irqs NONE", fake.cmds[1]);
	EXPECT_EQ(0U, fake.bans.nr);
	irq_set_free(&first);
	irqbalance_free(&ib);
}

/* A socket whose daemon is gone (a stale file, a dead pid) means no irqbalance. */
TEST(no_irqbalance)
{
	struct irqbalance ib = { IRQ_SET_INIT, 0 };
	struct irq_set none = IRQ_SET_INIT;
	char dir[] = "/tmp/nictl-irqb-XXXXXX";

	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, setenv("NICTL_IRQBALANCE_DIR", dir, 1));
	EXPECT_EQ(0, irqbalance_sync(&ib, &none));
	unsetenv("NICTL_IRQBALANCE_DIR");
	rmdir(dir);
}

TEST_HARNESS_MAIN
