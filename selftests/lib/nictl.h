/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The nictl family on top of nl.h: typed requests and a reply parser that
 * checks every attribute's type and length, so a malformed reply fails the
 * test that received it.
 */
#ifndef NICTL_TEST_NICTL_H
#define NICTL_TEST_NICTL_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/nictl.h>

#include "cpus.h"
#include "nl.h"

/*
 * Room for every device of the test guests (igb0 has the most queue IRQs,
 * 8; nictl_big reads the big guest's 128 through nictlctl); a reply beyond
 * it fails to parse, loudly. bench/bind-rtt.c builds with room for more.
 */
#ifndef NICTL_MAX_IRQS
#define NICTL_MAX_IRQS	16
#endif
/* Queues one IRQ of the test guests can serve (the test hook makes it 2). */
#define NICTL_MAX_QREFS	8
#define NICTL_MAX_DEVS	8

#define ATTR_BIT(type)	(1ULL << (type))

struct nictl_irq {
	uint64_t present;	/* ATTR_BIT() of every nictl_irq_attr seen */
	uint32_t num;
	char name[64];
	uint32_t queue;
	uint32_t kind;
	struct cpus affinity;
	size_t affinity_len;	/* bytes on the wire */
	struct cpus effective;
	size_t effective_len;
	uint32_t flags;
	int32_t node;
	uint32_t target_cpu;
	/* Events only: NICTL_A_IRQ_EXPECTED and NICTL_A_IRQ_OLD_AFFINITY. */
	struct cpus expected;
	struct cpus old_affinity;
	uint32_t group;
	uint32_t owner;		/* NICTL_A_IRQ_OWNER */
	uint32_t drifts;
	uint64_t drift_ns;
	/* The NICTL_A_IRQ_QUEUE_REF nests, in order. */
	unsigned int n_queues;
	struct nictl_qref_seen {
		uint32_t queue;
		uint32_t kind;
	} queues[NICTL_MAX_QREFS];
};

/* Uppers and lowers one test message may name; more fail to parse. */
#define NICTL_MAX_LINKS	4

/* A NICTL_A_LOWER nest: a physical device beneath a stacked one, in short. */
struct nictl_lower {
	uint32_t ifindex;
	char ifname[IFNAMSIZ];
	uint32_t dev_flags;
	int32_t numa_node;
	unsigned int n_irqs;
	uint32_t irq[NICTL_MAX_IRQS];
	uint32_t target_cpu[NICTL_MAX_IRQS];	/* UINT32_MAX: none */
};

struct nictl_dev {
	uint64_t present;	/* ATTR_BIT() of every nictl_attr seen */
	uint8_t cmd;		/* genlmsghdr of the reply */
	uint8_t version;
	uint32_t ifindex;
	char ifname[IFNAMSIZ];
	char driver[64];
	char bus_addr[64];
	uint8_t perm_addr[32];
	size_t perm_addr_len;
	int32_t numa_node;
	uint32_t rx_queues;
	uint32_t tx_queues;
	uint32_t dev_flags;
	uint32_t source;
	char sticky_id[100];
	int32_t netns_id;	/* present only outside the initial network namespace */
	unsigned int n_irqs;
	struct nictl_irq irqs[NICTL_MAX_IRQS];
	char kind[IFNAMSIZ];	/* NICTL_A_KIND */
	/* The NICTL_A_UPPER nests' names, in order. */
	unsigned int n_uppers;
	char uppers[NICTL_MAX_LINKS][IFNAMSIZ];
	/* The NICTL_A_LOWER nests of a reply about a stacked device, in order. */
	unsigned int n_lowers;
	struct nictl_lower lowers[NICTL_MAX_LINKS];
	unsigned int n_lower_parts;	/* LOWER nests: more when a device continues */
};

/* One softirq vector of a CPU (NICTL_A_SOFTIRQ). */
struct nictl_softirq {
	uint64_t present;	/* ATTR_BIT() of every nictl_softirq_attr seen */
	uint32_t vec;
	uint64_t count;
	uint64_t time_ns;
	uint64_t max_ns;
	uint64_t hist[NICTL_HIST_BUCKETS];
	unsigned int n_hist;	/* NICTL_A_SOFTIRQ_HIST nests seen */
};

/* One kind of NAPI poll on a CPU (NICTL_A_POLL). */
struct nictl_poll {
	uint64_t present;	/* ATTR_BIT() of every nictl_poll_attr seen */
	uint32_t kind;
	uint64_t polls;
	uint64_t packets;
	uint64_t time_ns;
	uint64_t untimed;
	uint64_t busy_polls;
	uint64_t busy_ns;
};

/* The times of one NAPI instance on a CPU (NICTL_A_NAPI in STATS_GET). */
struct nictl_napi_time {
	uint64_t present;	/* ATTR_BIT() of every nictl_napi_attr seen */
	uint32_t id;
	uint64_t time_ns;
	uint64_t busy_ns;
};

/* A CPU's NAPI table holds this many instances (NICTL_NAPI_SLOTS in kmod/stats.h). */
#define NICTL_MAX_NAPI_TIMES	64

/* One message of a STATS_GET dump: one CPU. */
struct nictl_cpu_stats {
	uint64_t present;	/* ATTR_BIT() of every nictl_attr seen */
	uint32_t cpu;
	uint8_t enabled;
	uint64_t start_ns;
	uint64_t now_ns;
	uint64_t napi_unattributed;
	/* Indexed by enum nictl_softirq_vec; each nest may come once. */
	struct nictl_softirq vec[__NICTL_SOFTIRQ_MAX];
	/* Indexed by enum nictl_poll_kind; each nest may come once. */
	struct nictl_poll poll[__NICTL_POLL_MAX];
	unsigned int n_napi_times;
	struct nictl_napi_time napi_time[NICTL_MAX_NAPI_TIMES];
};

/* Room for every possible CPU of the test guests; more fails to parse. */
#define NICTL_MAX_CPUS	64

/* A STATS_GET dump: one entry per message, in the order received. */
struct nictl_stats {
	unsigned int n;
	struct nictl_cpu_stats cpu[NICTL_MAX_CPUS];
};

/* One NAPI instance of a NAPI_GET reply (NICTL_A_NAPI). */
struct nictl_napi {
	uint64_t present;	/* ATTR_BIT() of every nictl_napi_attr seen */
	uint32_t id;
	uint32_t queue;
	uint64_t polls;
	uint64_t packets;
	uint64_t time_ns;
	uint64_t busy_ns;
	struct cpus cpus;
	size_t cpus_len;	/* bytes on the wire */
};

/* Room for the NAPIs of every device of the test guests. */
#define NICTL_MAX_NAPIS	16

/* A NAPI_GET reply. */
struct nictl_napis {
	uint64_t present;	/* ATTR_BIT() of every nictl_attr seen */
	uint8_t cmd;		/* genlmsghdr of the reply */
	uint32_t ifindex;
	char ifname[IFNAMSIZ];
	unsigned int n;
	struct nictl_napi napi[NICTL_MAX_NAPIS];
};

/* A device reply list, as a dump returns it. */
struct nictl_devs {
	unsigned int n;
	struct nictl_dev dev[NICTL_MAX_DEVS];
};

/* One entry of an explicit placement. */
struct nictl_place {
	uint32_t queue;
	uint32_t cpu;
};

/* What a BIND request carries; a NULL @cpus leaves NICTL_A_CPUS out. */
struct nictl_bind_args {
	const char *ifname;
	uint32_t flags;
	const struct cpus *cpus;
	unsigned int n_place;
	const struct nictl_place *place;
};

/*
 * Parse @attr, a top-level attribute of a message describing a device, into
 * @dev: MNL_CB_OK, or MNL_CB_ERROR when it is malformed, repeated or not a
 * device attribute.
 */
int nictl_dev_attr(const struct nlattr *attr, struct nictl_dev *dev);
/* Parse one NICTL_A_UPPER- or NICTL_A_LINK-shaped nest: its ifname, 0 or -EPROTO. */
int nictl_parse_link(const struct nlattr *attr, char *ifname);
/* Parse one NICTL_A_IRQ-shaped nest into @irq (zeroed first): 0 or -EPROTO. */
int nictl_parse_irq(const struct nlattr *attr, struct nictl_irq *irq);
/* Parse one DEV_GET-shaped message: -EPROTO on any malformed attribute. */
int nictl_parse_dev(const struct nlmsghdr *nlh, struct nictl_dev *dev);
/* nl_reply_cb that parses into a struct nictl_dev (the last message wins). */
int nictl_dev_cb(const struct nlmsghdr *nlh, void *data);
/*
 * nl_reply_cb that collects a dump into a struct nictl_devs (n = 0 first),
 * joining a device that continues over several messages.
 */
int nictl_devs_cb(const struct nlmsghdr *nlh, void *data);

/* nl_reply_cb that collects a STATS_GET dump into a struct nictl_stats (n = 0 first). */
int nictl_stats_cb(const struct nlmsghdr *nlh, void *data);
/* nl_reply_cb that parses a NAPI_GET reply into a struct nictl_napis. */
int nictl_napis_cb(const struct nlmsghdr *nlh, void *data);

/* Start a nictl request in @buf with the next sequence number of @c. */
struct nlmsghdr *nictl_msg(struct nl_client *c, void *buf, uint8_t cmd, uint16_t flags);
/* Put @s as a bitmap of exactly cpus_nbytes(@s) bytes. */
struct nlattr *nictl_put_cpus(struct nlmsghdr *nlh, uint16_t type, const struct cpus *s);
struct nlmsghdr *nictl_bind_msg(struct nl_client *c, void *buf, const struct nictl_bind_args *a);

/* The transactions; each returns 0 or -errno and fills @res (see nl.h). */
int nictl_dev_get(struct nl_client *c, const char *ifname, struct nictl_dev *dev,
		  struct nl_result *res);
/* DEV_GET of @ifname in the network namespace of @netns_fd (NICTL_A_NETNS_FD). */
int nictl_dev_get_in(struct nl_client *c, const char *ifname, int netns_fd,
		     struct nictl_dev *dev, struct nl_result *res);
int nictl_dev_get_index(struct nl_client *c, uint32_t ifindex, struct nictl_dev *dev,
			struct nl_result *res);
int nictl_dev_dump(struct nl_client *c, struct nictl_devs *devs, struct nl_result *res);
int nictl_bind(struct nl_client *c, const struct nictl_bind_args *a, struct nictl_dev *reply,
	       struct nl_result *res);
int nictl_restore(struct nl_client *c, const char *ifname, struct nictl_dev *reply,
		  struct nl_result *res);

/* The accounting; STATS_SET and STATS_RESET must be answered by an ack alone. */
int nictl_stats_get(struct nl_client *c, struct nictl_stats *stats, struct nl_result *res);
int nictl_stats_set(struct nl_client *c, bool on, struct nl_result *res);
int nictl_stats_reset(struct nl_client *c, struct nl_result *res);
int nictl_napi_get(struct nl_client *c, const char *ifname, struct nictl_napis *napis,
		   struct nl_result *res);
/*
 * The same as a dump: every message's NAPIs in @napis, the number of
 * messages in @msgs; each message must name the same device.
 */
int nictl_napi_dump(struct nl_client *c, const char *ifname, struct nictl_napis *napis,
		    unsigned int *msgs, struct nl_result *res);

/* The IRQ of @dev numbered @num, or NULL. */
const struct nictl_irq *nictl_dev_irq(const struct nictl_dev *dev, uint32_t num);
/* The reply entry for @ifname in @devs, or NULL. */
const struct nictl_dev *nictl_devs_find(const struct nictl_devs *devs, const char *ifname);
/* Open a client of the nictl family (-ENOENT: module not loaded). */
int nictl_open(struct nl_client *c);
/* Run @op(@nl) in a child with its own client; it exits 0 when @op returned 0. Its pid. */
pid_t nictl_fork_op(int (*op)(struct nl_client *nl));
/* STATS_RESET, printing why it failed: an op for nictl_fork_op(). */
int nictl_op_reset(struct nl_client *nl);

#endif /* NICTL_TEST_NICTL_H */
