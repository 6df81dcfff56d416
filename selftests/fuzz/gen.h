/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzzer's messages to the nictl family, built from a PRNG and what the
 * fuzzer knows of the machine (struct fuzz_ctx) only: no socket and no
 * reply goes into them, so one seed gives the same bytes on every run, and
 * a host test can check them.
 *
 * A message is a valid request of a command (built from the uapi header),
 * that request mutated (attributes dropped, repeated, added, resized,
 * retyped, nested or flattened, lengths and headers corrupted), or random.
 */
#ifndef NICTL_FUZZ_GEN_H
#define NICTL_FUZZ_GEN_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpus.h"
#include "nl.h"
#include "prng.h"

/* No message is longer: the limit of the test client's requests. */
#define FUZZ_MSG_MAX	NL_REQ_SIZE
#define FUZZ_MAX_DEVS	32
/* Messages one datagram of a batch carries at most. */
#define FUZZ_BATCH_MAX	6

/* The machine as the fuzzer sees it. */
struct fuzz_ctx {
	uint16_t family;
	unsigned int nr_cpu_ids;
	struct cpus online;
	unsigned int n_devs;
	struct {
		uint32_t ifindex;
		char name[IFNAMSIZ];
	} dev[FUZZ_MAX_DEVS];
};

enum fuzz_kind {
	FUZZ_VALID,
	FUZZ_MUTATED,
	FUZZ_RANDOM,
	__FUZZ_KIND_MAX
};

struct fuzz_msg {
	enum fuzz_kind kind;
	/* What the kernel must do: end it with an error, ack or NLMSG_DONE. */
	bool expect_end;
	size_t len;
	uint8_t buf[FUZZ_MSG_MAX];
};

/*
 * Messages sent in one datagram, which the kernel reads one after the other
 * (netlink_rcv_skb()): every message but the last is framed exactly and
 * padded to netlink's alignment, so each is read as itself; only the last
 * may be cut short or claim a length of its own, as a lone message may.
 */
struct fuzz_batch {
	unsigned int n;
	struct fuzz_msg msg[FUZZ_BATCH_MAX];
	size_t len;
	uint8_t buf[FUZZ_BATCH_MAX * FUZZ_MSG_MAX];
};

/* The genl command of @m (0 when it is too short to carry one). */
uint8_t fuzz_msg_cmd(const struct fuzz_msg *m);
/* Whether the kernel treats @m as a request (flags, and a length it accepts). */
bool fuzz_msg_is_request(const struct fuzz_msg *m);
/* Whether @m is a request for a dump, which a socket runs one at a time. */
bool fuzz_msg_is_dump(const struct fuzz_msg *m);

/* A valid request of @cmd (any value: unknown ones get a device). */
void fuzz_gen_valid(struct prng *r, const struct fuzz_ctx *ctx, uint8_t cmd, uint32_t seq,
		    struct fuzz_msg *m);
/* One message of any kind, with sequence number @seq. */
void fuzz_gen(struct prng *r, const struct fuzz_ctx *ctx, uint32_t seq, struct fuzz_msg *m);
/*
 * A batch of 2 to FUZZ_BATCH_MAX messages of any kind, numbered from @seq;
 * it ends early at a message that is not framed exactly and comes too often
 * in a row to be drawn again, which the PRNG makes all but impossible.
 */
void fuzz_gen_batch(struct prng *r, const struct fuzz_ctx *ctx, uint32_t seq,
		    struct fuzz_batch *b);

#endif /* NICTL_FUZZ_GEN_H */
