// SPDX-License-Identifier: GPL-2.0
/*
 * nictl: classify a NIC's MSI/MSI-X vectors by IRQ name.
 *
 * Each table entry is a name pattern mirroring a driver's format string:
 *
 *   %p   dev_name() of the netdev's parent (id->parent)
 *   %i   the interface name (id->ifname)
 *   %d   the parent's driver name (id->driver)
 *   %b   the PCI address of the function (id->bus_addr)
 *   %q   the queue number: decimal digits taken whole, no sign, no leading
 *        zero, at most UINT_MAX
 *   %*   any non-empty run of characters (at most one per pattern)
 *   %%   a literal '%'
 *
 * Other characters match themselves, case included. A pattern must match the whole name, in
 * one pass (one per end of the %* run). The first matching entry decides; generic ones last.
 *
 * Citations: file:function under drivers/net/ethernet/ (virtio: drivers/), alike in 5.10, 6.1,
 * 6.12 and 7.2 unless kernels are named; every name per kernel is in docs/irq-names.md.
 */
#include "classify.h"

/**
 * enum nictl_verdict - what a matching table entry says about the vector
 * @NICTL_NOT_QUEUE: a control / misc vector, or one that serves no single queue of this netdev
 * @NICTL_Q_RX: receive queue %q
 * @NICTL_Q_TX: transmit queue %q
 * @NICTL_Q_COMBINED: queue pair %q
 * @NICTL_Q_BY_NAME: queue %q whose kind the %* run tells (generic rule)
 * @NICTL_Q_TX_AFTER_RX: transmit queue %q - R, R the active rx queue count
 */
enum nictl_verdict {
	NICTL_NOT_QUEUE,
	NICTL_Q_RX,
	NICTL_Q_TX,
	NICTL_Q_COMBINED,
	NICTL_Q_BY_NAME,
	NICTL_Q_TX_AFTER_RX,
};

/* One entry: drivers NULL-terminated (NULL: all); a NULL pattern ends. */
struct nictl_irq_rule {
	const char * const *drivers;
	const char *pattern;
	enum nictl_verdict verdict;
};

static const char * const nictl_virtio_drivers[] = { "virtio_net", NULL };

/* The Intel drivers share their naming scheme. */
static const char * const nictl_intel_drivers[] = {
	"e1000e", "fm10k", "i40e", "iavf", "ice",
	"igb", "igbvf", "igc", "ixgbe", "ixgbevf", NULL
};

static const char * const nictl_idpf_drivers[] = { "idpf", NULL };
static const char * const nictl_mlx5_drivers[] = { "mlx5_core", NULL };
static const char * const nictl_bnxt_drivers[] = { "bnxt_en", NULL };
static const char * const nictl_ena_drivers[] = { "ena", NULL };
static const char * const nictl_gve_drivers[] = { "gve", NULL };
static const char * const nictl_mana_drivers[] = { "mana", NULL };

static const struct nictl_irq_rule nictl_irq_rules[] = {
	/*
	 * virtio_net: named after the virtio device, not the netdev (renames change nothing).
	 * virtio_pci_common.c names a vector "<vdev>-<vq>" (vq names from
	 * virtio_net.c:virtnet_find_vqs), "<vdev>-config", "<vdev>-virtqueues" or "<vdev>" (INTx).
	 */
	{ nictl_virtio_drivers, "%p-input.%q",		NICTL_Q_RX },
	{ nictl_virtio_drivers, "%p-output.%q",		NICTL_Q_TX },
	{ nictl_virtio_drivers, "%p-config",		NICTL_NOT_QUEUE },
	{ nictl_virtio_drivers, "%p-control",		NICTL_NOT_QUEUE },
	{ nictl_virtio_drivers, "%p-virtqueues",	NICTL_NOT_QUEUE },
	{ nictl_virtio_drivers, "%p",			NICTL_NOT_QUEUE },

	/*
	 * i40e_main.c:i40e_vsi_request_irq_msix, ice_main.c:ice_vsi_req_irq_msix,
	 * iavf_main.c:iavf_request_traffic_irqs: at open, 30+ byte buffers, never cut
	 */
	{ nictl_intel_drivers, "%d-%i-TxRx-%q",		NICTL_Q_COMBINED },
	{ nictl_intel_drivers, "%d-%i-rx-%q",		NICTL_Q_RX },
	{ nictl_intel_drivers, "%d-%i-tx-%q",		NICTL_Q_TX },
	/*
	 * ixgbe_request_msix_irqs, igb_request_msix, igc_request_msix, ixgbevf_request_msix_irqs,
	 * fm10k_qv_request_irq: IFNAMSIZ + 9 byte buffers, never cut. igbvf_request_msix and
	 * e1000e's e1000_request_msix ("%.14s") add "-rx-0"/"-tx-0" only to ifnames under 11
	 * characters (never cut); else plain "<ifname>", no queue.
	 */
	{ nictl_intel_drivers, "%i-TxRx-%q",		NICTL_Q_COMBINED },
	{ nictl_intel_drivers, "%i-rx-%q",		NICTL_Q_RX },
	{ nictl_intel_drivers, "%i-tx-%q",		NICTL_Q_TX },
	/* The "other" vector (link, mailbox) and MSI / INTx: netdev->name */
	{ nictl_intel_drivers, "%i",			NICTL_NOT_QUEUE },
	/* igb, igc: a q_vector with no ring */
	{ nictl_intel_drivers, "%i-unused",		NICTL_NOT_QUEUE },
	/*
	 * "<driver>-<bdf>:<what>" (i40e_probe, ice_req_irq_msix_misc, iavf_request_misc_irq).
	 * i40e's flow director (i40e_vsi_open) and ice's control VSI (ice_vsi_open_ctrl) name
	 * queue vectors "...:fdir-TxRx-0", "...:ctrl-TxRx-0": not the netdev's queues.
	 */
	{ nictl_intel_drivers, "%d-%b:misc",		NICTL_NOT_QUEUE },
	{ nictl_intel_drivers, "%d-%b:ll_ts",		NICTL_NOT_QUEUE },
	{ nictl_intel_drivers, "%d-%b:mbx",		NICTL_NOT_QUEUE },
	{ nictl_intel_drivers, "%d-%b:fdir",		NICTL_NOT_QUEUE },
	{ nictl_intel_drivers, "%d-%b:fdir-%*",		NICTL_NOT_QUEUE },
	{ nictl_intel_drivers, "%d-%b:ctrl",		NICTL_NOT_QUEUE },
	{ nictl_intel_drivers, "%d-%b:ctrl-%*",		NICTL_NOT_QUEUE },
	{ nictl_intel_drivers, "%d-%b:%*",		NICTL_NOT_QUEUE },

	/* idpf (6.12+): idpf_txrx.c:idpf_vport_intr_req_irq, idpf_lib.c:idpf_mb_intr_req_irq */
	{ nictl_idpf_drivers, "%d-%i-TxRx-%q",		NICTL_Q_COMBINED },
	{ nictl_idpf_drivers, "%d-%i-Rx-%q",		NICTL_Q_RX },
	{ nictl_idpf_drivers, "%d-%i-Tx-%q",		NICTL_Q_TX },
	{ nictl_idpf_drivers, "%d-Mailbox-%q",		NICTL_NOT_QUEUE },

	/*
	 * mlx5_core: vectors of the PCI function, not of a netdev, named by pci_irq.c:irq_set_name
	 * when requested: at probe (5.10, 6.1), on first use (6.12+, eq.c:comp_irq_request_pci).
	 * "mlx5_comp<N>" is completion vector N whatever its MSI-X index (N + 1; N in 6.1).
	 */
	{ nictl_mlx5_drivers, "mlx5_comp%q@pci:%b",	NICTL_Q_COMBINED },
	/* The async EQ (commands, events); with its MSI-X index from 6.1 */
	{ nictl_mlx5_drivers, "mlx5_async@pci:%b",	NICTL_NOT_QUEUE },
	{ nictl_mlx5_drivers, "mlx5_async%q@pci:%b",	NICTL_NOT_QUEUE },
	/* 6.1+: a lone vector, shared by the async and every completion EQ */
	{ nictl_mlx5_drivers, "mlx5_combined%q@pci:%b",	NICTL_NOT_QUEUE },
	/* 6.1+, irq_sf_set_name: pools shared by subfunctions ("mlx5_core.sf"); N: a pool index */
	{ nictl_mlx5_drivers, "mlx5_sf_%*",		NICTL_NOT_QUEUE },

	/*
	 * bnxt.c:bnxt_setup_msix, at open: N is the completion ring, the rx rings (rx_nr_rings ==
	 * real_num_rx_queues) first. 5.10 and 6.1 cut names to 17 characters (name[IFNAMSIZ + 2]),
	 * which nictl_qirqs_drop_contested() copes with.
	 */
	{ nictl_bnxt_drivers, "%i-TxRx-%q",		NICTL_Q_COMBINED },
	{ nictl_bnxt_drivers, "%i-rx-%q",		NICTL_Q_RX },
	{ nictl_bnxt_drivers, "%i-tx-%q",		NICTL_Q_TX_AFTER_RX },

	/*
	 * ena_netdev.c:ena_setup_io_intr (XDP queues' vectors follow, beyond
	 * the active queues), ena_setup_mgmnt_intr
	 */
	{ nictl_ena_drivers, "%i-Tx-Rx-%q",		NICTL_Q_COMBINED },
	{ nictl_ena_drivers, "ena-mgmnt@pci:%b",	NICTL_NOT_QUEUE },

	/*
	 * gve_main.c:gve_alloc_notify_blocks: block N is tx queue N below num_ntfy_blks / 2,
	 * else rx queue N - num_ntfy_blks / 2 (gve.h:gve_tx_idx_to_ntfy), which no name tells.
	 */
	{ nictl_gve_drivers, "%*",			NICTL_NOT_QUEUE },

	/*
	 * mana (6.1+): gdma_main.c:mana_gd_setup_irqs, mana_gd_get_gic (7.2). In 6.1 and 6.12 EQ N
	 * serves queue N of every vPort (mana_en.c:mana_create_eq); in 7.2 N is an MSI-X index. No
	 * name says which netdev, nor (7.2) which queue: none is a queue.
	 */
	{ nictl_mana_drivers, "%*",			NICTL_NOT_QUEUE },

	/* Generic: the kind told by the middle (nictl_verdict_by_name()) */
	{ NULL, "%i-%q",				NICTL_Q_COMBINED },
	{ NULL, "%i-%*-%q",				NICTL_Q_BY_NAME },

	{ NULL, NULL, NICTL_NOT_QUEUE }
};

/* Words that mark a control vector in a generic name's middle, any case. */
static const char * const nictl_control_words[] = {
	"async", "config", "ctrl", "err", "fdir", "link", "mbx", "mgmnt",
	"mgmt", "misc", "other", "unused", NULL
};

/* What a match captured: the %* run (star NULL if none) and the %q value. */
struct nictl_match {
	const char *star;
	size_t star_len;
	unsigned int queue;
	bool has_queue;
};

/* Whether @word (lower case) occurs in s[0..len), ignoring case. */
static bool nictl_contains_word(const char *s, size_t len, const char *word)
{
	size_t wlen = strlen(word);
	size_t i, j;

	for (i = 0; i + wlen <= len; i++) {
		for (j = 0; j < wlen; j++)
			if (tolower((unsigned char)s[i + j]) != word[j])
				break;
		if (j == wlen)
			return true;
	}
	return false;
}

/*
 * Kind of a generic "<ifname>-<middle>-N" vector: rx or tx if the middle says only one of them,
 * else a pair. No queue if the middle names a control vector, holds a ':' (a bus address; no
 * ifname can) or has an empty '-'-separated part ("eth0-rx--1" is not rx queue 1).
 */
static enum nictl_verdict nictl_verdict_by_name(const char *s, size_t len)
{
	unsigned int i;
	bool rx, tx;

	if (!len || s[0] == '-' || s[len - 1] == '-' ||
	    nictl_contains_word(s, len, "--") ||
	    nictl_contains_word(s, len, ":"))
		return NICTL_NOT_QUEUE;
	for (i = 0; nictl_control_words[i]; i++)
		if (nictl_contains_word(s, len, nictl_control_words[i]))
			return NICTL_NOT_QUEUE;

	rx = nictl_contains_word(s, len, "rx");
	tx = nictl_contains_word(s, len, "tx");
	if (rx && !tx)
		return NICTL_Q_RX;
	if (tx && !rx)
		return NICTL_Q_TX;
	return NICTL_Q_COMBINED;
}

static const char *nictl_ident_field(const struct nictl_irq_ident *id, char c)
{
	switch (c) {
	case 'p':
		return id->parent;
	case 'i':
		return id->ifname;
	case 'd':
		return id->driver;
	case 'b':
		return id->bus_addr;
	default:
		return NULL;
	}
}

/* %q at s[*pos..len): see the pattern language above. */
static bool nictl_match_queue(const char *s, size_t len, size_t *pos,
			      unsigned int *queue)
{
	unsigned int v = 0;
	size_t i = *pos;

	if (i >= len || !isdigit((unsigned char)s[i]))
		return false;
	if (s[i] == '0' && i + 1 < len && isdigit((unsigned char)s[i + 1]))
		return false;
	for (; i < len && isdigit((unsigned char)s[i]); i++) {
		unsigned int d = (unsigned int)(s[i] - '0');

		if (v > (UINT_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*queue = v;
	*pos = i;
	return true;
}

/* Match a token of *@pat at s[*pos..len), advancing both; a %* or malformed token fails. */
static bool nictl_match_token(const struct nictl_irq_ident *id,
			      const char **pat, const char *s, size_t len,
			      size_t *pos, struct nictl_match *m)
{
	const char *p = *pat;
	const char *field;
	size_t flen;

	if (*p != '%') {
		if (*pos >= len || s[*pos] != *p)
			return false;
		(*pos)++;
		*pat = p + 1;
		return true;
	}

	p++;
	switch (*p) {
	case '%':
		if (*pos >= len || s[*pos] != '%')
			return false;
		(*pos)++;
		*pat = p + 1;
		return true;
	case 'q':
		if (m->has_queue || !nictl_match_queue(s, len, pos, &m->queue))
			return false;
		m->has_queue = true;
		*pat = p + 1;
		return true;
	default:
		break;
	}

	field = nictl_ident_field(id, *p);
	if (!field)
		return false;
	flen = strnlen(field, NICTL_CLASSIFY_NAME_MAX);
	if (!flen || flen == NICTL_CLASSIFY_NAME_MAX)
		return false;
	if (len - *pos < flen || memcmp(s + *pos, field, flen))
		return false;
	*pos += flen;
	*pat = p + 1;
	return true;
}

static bool nictl_match_rest(const struct nictl_irq_ident *id, const char *pat,
			     const char *s, size_t len, size_t pos,
			     struct nictl_match *m)
{
	while (*pat)
		if (!nictl_match_token(id, &pat, s, len, &pos, m))
			return false;
	return pos == len;
}

static bool nictl_match(const struct nictl_irq_ident *id, const char *pattern,
			const char *s, size_t len, struct nictl_match *m)
{
	const char *pat = pattern;
	size_t pos = 0, end;

	while (*pat && !(pat[0] == '%' && pat[1] == '*'))
		if (!nictl_match_token(id, &pat, s, len, &pos, m))
			return false;
	if (!*pat)
		return pos == len;

	/* The %* run: try each end, shortest first. */
	pat += 2;
	for (end = pos + 1; end <= len; end++) {
		struct nictl_match tail = *m;

		if (nictl_match_rest(id, pat, s, len, end, &tail)) {
			*m = tail;
			m->star = s + pos;
			m->star_len = end - pos;
			return true;
		}
	}
	return false;
}

static bool nictl_driver_in(const char * const *drivers, const char *driver)
{
	const char * const *d;

	if (!drivers)
		return true;
	if (!driver)
		return false;
	for (d = drivers; *d; d++)
		if (!strcmp(*d, driver))
			return true;
	return false;
}

bool nictl_classify_irq(const struct nictl_irq_ident *id, const char *name,
			enum nictl_queue_kind *kind, unsigned int *queue)
{
	const struct nictl_irq_rule *rule;
	size_t len;

	if (!id || !name)
		return false;
	len = strnlen(name, NICTL_CLASSIFY_NAME_MAX);
	if (!len || len == NICTL_CLASSIFY_NAME_MAX)
		return false;

	for (rule = nictl_irq_rules; rule->pattern; rule++) {
		struct nictl_match m = { NULL, 0, 0, false };
		enum nictl_verdict verdict = rule->verdict;
		enum nictl_queue_kind k;

		if (!nictl_driver_in(rule->drivers, id->driver) ||
		    !nictl_match(id, rule->pattern, name, len, &m))
			continue;

		if (verdict == NICTL_Q_BY_NAME)
			verdict = m.star ? nictl_verdict_by_name(m.star, m.star_len)
					 : NICTL_NOT_QUEUE;
		if (verdict == NICTL_Q_TX_AFTER_RX) {
			/* A tx number among the rx ones: not ours to guess. */
			if (!m.has_queue || m.queue < id->rx_queues)
				return false;
			m.queue -= id->rx_queues;
			verdict = NICTL_Q_TX;
		}
		switch (verdict) {
		case NICTL_Q_RX:
			k = NICTL_QUEUE_KIND_RX;
			break;
		case NICTL_Q_TX:
			k = NICTL_QUEUE_KIND_TX;
			break;
		case NICTL_Q_COMBINED:
			k = NICTL_QUEUE_KIND_COMBINED;
			break;
		case NICTL_NOT_QUEUE:
		case NICTL_Q_BY_NAME:
		case NICTL_Q_TX_AFTER_RX:
		default:
			return false;
		}
		if (!m.has_queue)
			return false;
		if (kind)
			*kind = k;
		if (queue)
			*queue = m.queue;
		return true;
	}
	return false;
}
