// SPDX-License-Identifier: GPL-2.0
/*
 * nictl: classify a NIC's MSI/MSI-X vectors by IRQ name.
 *
 * Each table entry is one name pattern, written in a tiny language that
 * mirrors the drivers' format strings:
 *
 *   %p   dev_name() of the netdev's parent (id->parent)
 *   %i   the interface name (id->ifname)
 *   %d   the parent's driver name (id->driver)
 *   %b   the PCI address of the function (id->bus_addr)
 *   %q   the queue number: decimal digits, no sign, no leading zero, at
 *        most UINT_MAX; the run of digits is taken whole
 *   %*   any non-empty run of characters (at most one per pattern)
 *   %%   a literal '%'
 *
 * Every other character matches itself, case included, and a pattern must
 * match the whole name. The entries are tried in order; the first one that
 * matches decides, whether it says "queue" or "not a queue". Driver entries
 * come first, the generic entries (for every driver) last.
 *
 * Matching is one pass over the name for a pattern without %*, and one
 * pass per possible end of the %* run otherwise (names are shorter than
 * NICTL_CLASSIFY_NAME_MAX), without recursion or allocation.
 *
 * The citations name the kernels whose sources were read: 5.10 (Debian
 * 5.10.223), 6.1 (6.1.192), 6.12 (6.12.117) and 7.2 (7.2.13); a format
 * cited without kernels is the same in all four. docs/irq-names.md has the
 * table of every driver's names per kernel.
 */
#include "classify.h"

/**
 * enum nictl_verdict - what a matching table entry says about the vector
 * @NICTL_NOT_QUEUE: a control / misc vector, or one that serves no single
 *	queue of this netdev
 * @NICTL_Q_RX: receive queue %q
 * @NICTL_Q_TX: transmit queue %q
 * @NICTL_Q_COMBINED: queue pair %q
 * @NICTL_Q_BY_NAME: queue %q whose kind the %* run tells (generic rule)
 * @NICTL_Q_TX_AFTER_RX: transmit queue %q - R, where R is the device's
 *	active receive queue count: the vector numbers of the tx queues
 *	follow those of the rx queues
 */
enum nictl_verdict {
	NICTL_NOT_QUEUE,
	NICTL_Q_RX,
	NICTL_Q_TX,
	NICTL_Q_COMBINED,
	NICTL_Q_BY_NAME,
	NICTL_Q_TX_AFTER_RX,
};

/**
 * struct nictl_irq_rule - one table entry
 * @drivers: NULL-terminated list of the drivers it applies to; NULL for
 *	every driver
 * @pattern: the name pattern; NULL ends the table
 * @verdict: what a match means
 */
struct nictl_irq_rule {
	const char * const *drivers;
	const char *pattern;
	enum nictl_verdict verdict;
};

static const char * const nictl_virtio_drivers[] = { "virtio_net", NULL };

/* The Intel drivers share their naming scheme (and often code history). */
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

/* File names are relative to drivers/ (virtio) or drivers/net/ethernet/. */
static const struct nictl_irq_rule nictl_irq_rules[] = {
	/*
	 * virtio_net: the vectors carry the name of the virtio device, not of
	 * the netdev, so renaming the netdev changes none of them.
	 * virtio_net.c:virtnet_find_vqs names the virtqueues "input.%u",
	 * "output.%u" and "control"; virtio_pci_common.c requests each
	 * per-vq vector as "%s-%s", dev_name(&vdev->dev), vq name, in
	 * vp_find_vqs_msix (5.10, 6.1) or vp_find_one_vq_msix (6.12, 7.2).
	 */
	{ nictl_virtio_drivers, "%p-input.%q",		NICTL_Q_RX },
	{ nictl_virtio_drivers, "%p-output.%q",		NICTL_Q_TX },
	/* virtio_pci_common.c:vp_request_msix_vectors: config change vector */
	{ nictl_virtio_drivers, "%p-config",		NICTL_NOT_QUEUE },
	/* virtio_net.c:virtnet_find_vqs: the control virtqueue */
	{ nictl_virtio_drivers, "%p-control",		NICTL_NOT_QUEUE },
	/* virtio_pci_common.c:vp_request_msix_vectors: one vector shared by
	 * every virtqueue when there are too few for one per queue
	 */
	{ nictl_virtio_drivers, "%p-virtqueues",	NICTL_NOT_QUEUE },
	/* virtio_pci_common.c:vp_find_vqs_intx: INTx, everything shared */
	{ nictl_virtio_drivers, "%p",			NICTL_NOT_QUEUE },

	/*
	 * i40e, ice, iavf: "%s-%s-%d" with basename "<driver>-<ifname>"
	 * (i40e_main.c:i40e_vsi_request_irq_msix, basename from
	 * i40e_vsi_open; ice_main.c:ice_vsi_req_irq_msix, basename from
	 * ice_vsi_open) and "iavf-%s-TxRx-%d" (5.10; "%u" from 6.1) with the
	 * ifname (iavf_main.c:iavf_request_traffic_irqs). The number counts
	 * the vectors that have rings. Written at open into buffers of 30
	 * characters or more: never cut.
	 */
	{ nictl_intel_drivers, "%d-%i-TxRx-%q",		NICTL_Q_COMBINED },
	{ nictl_intel_drivers, "%d-%i-rx-%q",		NICTL_Q_RX },
	{ nictl_intel_drivers, "%d-%i-tx-%q",		NICTL_Q_TX },
	/*
	 * "%s-TxRx-%u", "%s-rx-%u", "%s-tx-%u" with the ifname:
	 * ixgbe_main.c:ixgbe_request_msix_irqs, igb_main.c:igb_request_msix
	 * (the ring's queue_index), igc_main.c:igc_request_msix,
	 * ixgbevf_main.c:ixgbevf_request_msix_irqs,
	 * fm10k_pci.c:fm10k_qv_request_irq; buffers of IFNAMSIZ + 9, never
	 * cut. igbvf/netdev.c:igbvf_request_msix "%s-tx-0"/"%s-rx-0" and
	 * e1000e/netdev.c:e1000_request_msix "%.14s-rx-0"/"%.14s-tx-0", both
	 * only for ifnames shorter than IFNAMSIZ - 5 (so the precision never
	 * cuts): with 11 characters or more, both vectors are named plain
	 * "<ifname>" like the misc one, and are no queue by the next entries.
	 */
	{ nictl_intel_drivers, "%i-TxRx-%q",		NICTL_Q_COMBINED },
	{ nictl_intel_drivers, "%i-rx-%q",		NICTL_Q_RX },
	{ nictl_intel_drivers, "%i-tx-%q",		NICTL_Q_TX },
	/*
	 * The "other" vector (link, mailbox, ...) and MSI / INTx: plain
	 * netdev->name. ixgbe_main.c:ixgbe_request_msix_irqs,
	 * igb_main.c:igb_request_msix, igc_main.c:igc_request_msix,
	 * igbvf/netdev.c:igbvf_request_msix,
	 * ixgbevf_main.c:ixgbevf_request_msix_irqs, fm10k_pci.c:
	 * fm10k_mbx_request_irq_pf/_vf, e1000e/netdev.c:e1000_request_msix
	 * and e1000_request_irq.
	 */
	{ nictl_intel_drivers, "%i",			NICTL_NOT_QUEUE },
	/* igb_main.c:igb_request_msix, igc_main.c:igc_request_msix: a
	 * q_vector with no ring
	 */
	{ nictl_intel_drivers, "%i-unused",		NICTL_NOT_QUEUE },
	/*
	 * Per-function vectors "<driver>-<bdf>:<what>":
	 * i40e_main.c:i40e_probe ":misc"; ice_main.c:ice_req_irq_msix_misc
	 * ":misc", and ":ll_ts" (6.12, 7.2); iavf_main.c:iavf_request_misc_irq
	 * "iavf-%s:mbx". The flow-director VSI (i40e_main.c:i40e_vsi_open,
	 * ":fdir") and the ice control VSI (ice_main.c:ice_vsi_open_ctrl,
	 * ":ctrl") pass that name as the basename of their queue vectors,
	 * which thus end in "-TxRx-0": queues, but not of the netdev.
	 */
	{ nictl_intel_drivers, "%d-%b:misc",		NICTL_NOT_QUEUE },
	{ nictl_intel_drivers, "%d-%b:ll_ts",		NICTL_NOT_QUEUE },
	{ nictl_intel_drivers, "%d-%b:mbx",		NICTL_NOT_QUEUE },
	{ nictl_intel_drivers, "%d-%b:fdir",		NICTL_NOT_QUEUE },
	{ nictl_intel_drivers, "%d-%b:fdir-%*",		NICTL_NOT_QUEUE },
	{ nictl_intel_drivers, "%d-%b:ctrl",		NICTL_NOT_QUEUE },
	{ nictl_intel_drivers, "%d-%b:ctrl-%*",		NICTL_NOT_QUEUE },
	{ nictl_intel_drivers, "%d-%b:%*",		NICTL_NOT_QUEUE },

	/*
	 * idpf (6.12, 7.2; not in 5.10 or 6.1): idpf_txrx.c:
	 * idpf_vport_intr_req_irq, kasprintf "%s-%s-%s-%d" with the driver,
	 * the vport's ifname, "TxRx", "Rx" or "Tx" (capitalised, unlike the
	 * other Intel drivers) and the vport's vector index, at open.
	 */
	{ nictl_idpf_drivers, "%d-%i-TxRx-%q",		NICTL_Q_COMBINED },
	{ nictl_idpf_drivers, "%d-%i-Rx-%q",		NICTL_Q_RX },
	{ nictl_idpf_drivers, "%d-%i-Tx-%q",		NICTL_Q_TX },
	/* idpf_lib.c:idpf_mb_intr_req_irq: "%s-%s-%d", driver, "Mailbox", 0 */
	{ nictl_idpf_drivers, "%d-Mailbox-%q",		NICTL_NOT_QUEUE },

	/*
	 * mlx5_core: the vectors belong to the PCI function, not to a netdev,
	 * and are named with pci_name(), "%s@pci:%s", when requested (5.10,
	 * 6.1: at probe; 6.12, 7.2: each completion vector on first use,
	 * eq.c:comp_irq_request_pci). Completion vector N is "mlx5_comp<N>",
	 * which channel N's queues use (en_main.c:mlx5e_open_channel):
	 * pci_irq.c:irq_set_name from request_irqs (5.10) or mlx5_irq_alloc
	 * (6.1, 6.12, 7.2). Its MSI-X index differs (5.10, 6.12, 7.2: N + 1;
	 * 6.1: N), the name does not.
	 */
	{ nictl_mlx5_drivers, "mlx5_comp%q@pci:%b",	NICTL_Q_COMBINED },
	/* pci_irq.c:irq_set_name: the async EQ (commands, page requests,
	 * port and health events): "mlx5_async" in 5.10, "mlx5_async%d"
	 * with its MSI-X index after (6.1: the last; 6.12, 7.2: 0)
	 */
	{ nictl_mlx5_drivers, "mlx5_async@pci:%b",	NICTL_NOT_QUEUE },
	{ nictl_mlx5_drivers, "mlx5_async%q@pci:%b",	NICTL_NOT_QUEUE },
	/* pci_irq.c:irq_set_name (6.1, 6.12, 7.2): a function with a single
	 * vector, shared by the async EQ and every completion EQ: moving it
	 * moves control traffic too, and it is no one queue's
	 */
	{ nictl_mlx5_drivers, "mlx5_combined%q@pci:%b",	NICTL_NOT_QUEUE },
	/* pci_irq.c:irq_sf_set_name (6.1, 6.12, 7.2), pools "mlx5_sf_ctrl"
	 * and "mlx5_sf_comp": vectors shared by the function's subfunctions
	 * (netdevs of their own, whose driver "mlx5_core.sf" no entry
	 * names); the number is a pool index, not a queue
	 */
	{ nictl_mlx5_drivers, "mlx5_sf_%*",		NICTL_NOT_QUEUE },

	/*
	 * bnxt_en: bnxt.c:bnxt_setup_msix (6.12: lines 10904-10916), at open,
	 * "%s-%s-%d" with the ifname, "TxRx" (shared rings), "rx" or "tx",
	 * and the completion ring index i over all cp_nr_rings: "rx" for
	 * i < rx_nr_rings, "tx" after them, so tx queue = i - rx_nr_rings,
	 * and rx_nr_rings is what the netdev has as real_num_rx_queues.
	 * 5.10 and 6.1 cut the names to 17 characters (name[IFNAMSIZ + 2]; 6.12
	 * and 7.2: 32): nictl_qirqs_drop_contested() drops what that confuses.
	 */
	{ nictl_bnxt_drivers, "%i-TxRx-%q",		NICTL_Q_COMBINED },
	{ nictl_bnxt_drivers, "%i-rx-%q",		NICTL_Q_RX },
	{ nictl_bnxt_drivers, "%i-tx-%q",		NICTL_Q_TX_AFTER_RX },

	/* ena: ena_netdev.c:ena_setup_io_intr, "%s-Tx-Rx-%d" at open; the
	 * XDP queues' vectors follow the io queues' (nictl drops them as
	 * beyond the active queues)
	 */
	{ nictl_ena_drivers, "%i-Tx-Rx-%q",		NICTL_Q_COMBINED },
	/* ena_netdev.c:ena_setup_mgmnt_intr, "ena-mgmnt@pci:%s" at probe */
	{ nictl_ena_drivers, "ena-mgmnt@pci:%b",	NICTL_NOT_QUEUE },

	/*
	 * gve: gve_main.c:gve_alloc_notify_blocks, at probe: "%s-mgmnt" and
	 * "%s-ntfy-block.%d" with dev->name (5.10, 6.1: before
	 * register_netdev, so the template "eth%d" itself, the ifname only
	 * after a reset), then "gve-mgmnt@pci:%s" and "gve-ntfy-blk%d@pci:%s"
	 * (6.12, 7.2). Block N is tx queue N below num_ntfy_blks / 2 and rx
	 * queue N - num_ntfy_blks / 2 above (gve.h:gve_tx_idx_to_ntfy,
	 * gve_rx_idx_to_ntfy), a split the name does not tell: no name is a
	 * queue.
	 */
	{ nictl_gve_drivers, "%*",			NICTL_NOT_QUEUE },

	/*
	 * mana (6.1 on; not in 5.10): gdma_main.c:mana_gd_setup_irqs
	 * "mana_hwc@pci:%s", "mana_q%d@pci:%s" (6.1, 6.12), gdma_main.c:
	 * mana_gd_get_gic "mana_msi%d@pci:%s" (7.2), at probe or on demand.
	 * In 6.1 and 6.12 the function's EQ i serves queue i of every vPort
	 * (netdev) (mana_en.c:mana_create_eq); in 7.2 each vPort has EQs of
	 * its own, on vectors numbered by MSI-X index. No name says which
	 * netdev, nor (7.2) which queue: no name is a queue.
	 */
	{ nictl_mana_drivers, "%*",			NICTL_NOT_QUEUE },

	/*
	 * Generic, every driver: "<ifname>-N" and "<ifname>-<middle>-N", the
	 * kind told by the middle (nictl_verdict_by_name()). Never a name
	 * that does not start with the ifname and a '-'.
	 */
	{ NULL, "%i-%q",				NICTL_Q_COMBINED },
	{ NULL, "%i-%*-%q",				NICTL_Q_BY_NAME },

	{ NULL, NULL, NICTL_NOT_QUEUE }
};

/*
 * Words that mark a control vector in the middle of a generic
 * "<ifname>-<middle>-N" name, matched without regard to case.
 */
static const char * const nictl_control_words[] = {
	"async", "config", "ctrl", "err", "fdir", "link", "mbx", "mgmnt",
	"mgmt", "misc", "other", "unused", NULL
};

/**
 * struct nictl_match - what a successful match captured
 * @star: start of the %* run, or NULL
 * @star_len: its length
 * @queue: the %q value
 * @has_queue: a %q was matched
 */
struct nictl_match {
	const char *star;
	size_t star_len;
	unsigned int queue;
	bool has_queue;
};

static char nictl_ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static bool nictl_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Whether @word occurs in the @len characters at @s, ignoring case. */
static bool nictl_contains_word(const char *s, size_t len, const char *word)
{
	size_t wlen = strlen(word);
	size_t i, j;

	for (i = 0; i + wlen <= len; i++) {
		for (j = 0; j < wlen; j++)
			if (nictl_ascii_lower(s[i + j]) != word[j])
				break;
		if (j == wlen)
			return true;
	}
	return false;
}

/*
 * The kind of a generic "<ifname>-<middle>-N" vector: rx if the middle
 * says rx (in any case) and not tx, tx if it says tx and not rx, a pair
 * otherwise. Not a queue when the middle names a control vector, holds a
 * ':' (an interface name cannot, a bus address does) or has an empty
 * '-'-separated part ("eth0-rx--1" is not rx queue 1).
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

/* The identity string a %p, %i, %d or %b stands for (NULL if none). */
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

/* Parse the %q digits at s[*pos..len); see the pattern language above. */
static bool nictl_match_queue(const char *s, size_t len, size_t *pos,
			      unsigned int *queue)
{
	unsigned int v = 0;
	size_t i = *pos;

	if (i >= len || !nictl_is_digit(s[i]))
		return false;
	if (s[i] == '0' && i + 1 < len && nictl_is_digit(s[i + 1]))
		return false;
	for (; i < len && nictl_is_digit(s[i]); i++) {
		unsigned int d = (unsigned int)(s[i] - '0');

		if (v > (UINT_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*queue = v;
	*pos = i;
	return true;
}

/*
 * Match the pattern token at *@pat against s[*pos..len) and advance both.
 * %* is not handled here: nictl_match() splits the pattern around it, and
 * a second %* makes the pattern fail, as does any malformed token.
 */
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

/* Match the pattern from *@pat to its end against s[pos..len) exactly. */
static bool nictl_match_rest(const struct nictl_irq_ident *id, const char *pat,
			     const char *s, size_t len, size_t pos,
			     struct nictl_match *m)
{
	while (*pat)
		if (!nictl_match_token(id, &pat, s, len, &pos, m))
			return false;
	return pos == len;
}

/* Whether @pattern matches all of @s (@len characters); fills @m. */
static bool nictl_match(const struct nictl_irq_ident *id, const char *pattern,
			const char *s, size_t len, struct nictl_match *m)
{
	const char *pat = pattern;
	size_t pos = 0, end;

	/* Up to the %*, if any: deterministic. */
	while (*pat && !(pat[0] == '%' && pat[1] == '*'))
		if (!nictl_match_token(id, &pat, s, len, &pos, m))
			return false;
	if (!*pat)
		return pos == len;

	/* The %* run: try each end, shortest first, against the rest. */
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

/* Whether @driver is one of @drivers (NULL: every driver). */
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

		/* The first matching rule decides. */
		if (verdict == NICTL_Q_BY_NAME)
			verdict = m.star ? nictl_verdict_by_name(m.star, m.star_len)
					 : NICTL_NOT_QUEUE;
		if (verdict == NICTL_Q_TX_AFTER_RX) {
			/* A tx vector numbered among the rx ones is not ours to guess. */
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
