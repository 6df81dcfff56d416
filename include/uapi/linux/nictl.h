/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * nictl: the generic-netlink protocol between the nictl kernel module and
 * its clients. This header is the only definition of the family name, its
 * version, commands, attributes and enums; the module and nictlctl both
 * include it.
 *
 * Conventions:
 *  - Every request is strictly validated, with an extack message that names
 *    the attribute: unknown attributes, wrong types or lengths and unknown
 *    flags get -EINVAL; values outside an attribute's range (ifindex 0, a
 *    CPU bitmap longer than %NICTL_CPUMASK_MAX_BYTES, a queue-cpu CPU no
 *    such bitmap can name) get -ERANGE.
 *  - A CPU set travels as a bitmap in a binary attribute: CPU n is bit
 *    (n % 8) of byte (n / 8). Replies carry exactly DIV_ROUND_UP(nr_cpu_ids, 8)
 *    bytes; requests may be shorter (missing bytes are zero) or longer as
 *    long as no bit beyond the last possible CPU is set.
 *  - The family lives in the initial network namespace and is not
 *    reachable from other namespaces. Its devices are those of every
 *    namespace: a request that names a device looks it up in the initial
 *    namespace, or in the one %NICTL_A_NETNS_FD or %NICTL_A_NETNS_ID
 *    names (%NICTL_CMD_DEV_GET, %NICTL_CMD_BIND, %NICTL_CMD_RESTORE,
 *    %NICTL_CMD_NAPI_GET). Naming a namespace needs CAP_NET_ADMIN in the
 *    initial user namespace, for every command (-EPERM otherwise); both
 *    attributes at once get -EINVAL, an fd that is not open -EBADF, one
 *    that is no network namespace -EINVAL, an id no namespace has
 *    -ENOENT. Every message that describes a device outside the initial
 *    namespace, reply or event, carries its %NICTL_A_NETNS_ID.
 *  - Every reply carries the command of its request (genlmsghdr.cmd).
 */
#ifndef _UAPI_LINUX_NICTL_H
#define _UAPI_LINUX_NICTL_H

/** NICTL_FAMILY_NAME - generic-netlink family name of the module */
#define NICTL_FAMILY_NAME	"nictl"
/** NICTL_FAMILY_VERSION - protocol version carried in genlmsghdr.version */
#define NICTL_FAMILY_VERSION	1

/**
 * NICTL_MCGRP_EVENTS - multicast group of the family that carries
 *	%NICTL_CMD_EVENT notifications
 *
 * Resolve its id with the family (CTRL_ATTR_MCAST_GROUPS) and join it with
 * NETLINK_ADD_MEMBERSHIP. Open to every user, like %NICTL_CMD_DEV_GET, so
 * its events name the requester of a bind or restore by netlink port id
 * only (%NICTL_A_PORTID), never by process or user, and describe only
 * devices of the initial network namespace: what happens to a device of
 * another namespace goes to %NICTL_MCGRP_AUDIT alone, as describing it
 * needs CAP_NET_ADMIN (%NICTL_A_NETNS_FD).
 */
#define NICTL_MCGRP_EVENTS	"events"

/**
 * NICTL_MCGRP_AUDIT - multicast group of the family that carries the
 *	%NICTL_CMD_EVENT notifications of %NICTL_MCGRP_EVENTS and those of
 *	devices in other network namespaces, numbered in a sequence of its
 *	own, plus who asked: %NICTL_A_PID and %NICTL_A_UID in
 *	%NICTL_EVENT_BOUND and %NICTL_EVENT_RESTORED
 *
 * Joining it needs CAP_NET_ADMIN in the initial user namespace (-EPERM
 * otherwise). A listener joins one of the two groups. The group exists only
 * on kernels that can restrict a group to CAP_NET_ADMIN
 * (GENL_MCAST_CAP_NET_ADMIN); elsewhere no event names a process or user.
 */
#define NICTL_MCGRP_AUDIT	"audit"

/**
 * NICTL_CPUMASK_MAX_BYTES - longest CPU bitmap accepted in a request
 *
 * Enough for 8192 CPUs, the largest NR_CPUS of the distribution kernels.
 */
#define NICTL_CPUMASK_MAX_BYTES	1024

/**
 * enum nictl_cmd - commands of the nictl family
 * @NICTL_CMD_UNSPEC: not a command
 * @NICTL_CMD_DEV_GET: describe a network device and its queue IRQs. As a
 *	do request it takes %NICTL_A_IFINDEX or %NICTL_A_IFNAME (-ENODEV when
 *	no such device exists) and optionally %NICTL_A_NETNS_FD or
 *	%NICTL_A_NETNS_ID, the network namespace to look in (the initial one
 *	without); as a dump it returns every device of that namespace that has
 *	a parent bus device. Open to every user, but naming a namespace needs
 *	CAP_NET_ADMIN. Replies carry the device
 *	attributes and one %NICTL_A_IRQ nest per queue IRQ: an IRQ that serves
 *	several queues (one vector for a queue's rx and tx, or for several
 *	rings) appears once, with every queue it serves. In a dump, a device
 *	whose IRQs do not fit one message continues in the next message(s),
 *	which repeat the device attributes (same %NICTL_A_IFINDEX) and carry
 *	the following IRQs; a client appends them. A dump is a read: it
 *	changes no binding. It resumes by ifindex (in the order of the
 *	kernel's ifindex hash before 6.6); when the device list, or the
 *	queue IRQs of a device split over messages, changed between two
 *	parts, the messages from then on carry NLM_F_DUMP_INTR and the
 *	client should dump again. IRQs of
 *	queues beyond the active counts (after ethtool -L) are not reported.
 *	A do request about a stacked device (%NICTL_DEV_F_STACKED: a bond,
 *	team, bridge, VLAN or macvlan) replies with that device's
 *	%NICTL_A_IFINDEX, %NICTL_A_IFNAME, %NICTL_A_DEV_FLAGS, %NICTL_A_KIND
 *	and %NICTL_A_UPPER, and one %NICTL_A_LOWER nest per physical device
 *	beneath it, found recursively: -EOPNOTSUPP when a device beneath it
 *	has no bus device (a veth port), -E2BIG past 64 of them.
 * @NICTL_CMD_BIND: retarget every queue IRQ of a device, all or nothing.
 *	Needs CAP_NET_ADMIN in the initial user namespace (-EPERM otherwise).
 *	Takes a device (%NICTL_A_IFINDEX or %NICTL_A_IFNAME, in the namespace
 *	of %NICTL_A_NETNS_FD or %NICTL_A_NETNS_ID if given), %NICTL_A_FLAGS,
 *	and exactly one of %NICTL_A_CPUS (the CPUs the kernel may choose from)
 *	or one or more %NICTL_A_QUEUE_CPU nests (an explicit placement; queues
 *	not named keep their affinity). The unit of placement is the group of
 *	IRQs linked by the queues they serve: the rx and tx IRQ of a queue, and
 *	every queue an IRQ serves, go to one CPU. The reply, a %NICTL_CMD_BIND
 *	message, carries the attributes of a %NICTL_CMD_DEV_GET reply, and its
 *	IRQ nests also carry %NICTL_A_IRQ_TARGET_CPU. Errors:
 *	-ENODEV unknown device; -ENOENT no queue IRQs (a device whose driver
 *	requests them at open may be down); -EINVAL empty, non-existent or
 *	offline CPU, a CPU off the device's node with
 *	%NICTL_BIND_F_NUMA_STRICT, more queues than physical cores with
 *	%NICTL_BIND_F_SMT_EXCLUSIVE, an unknown queue in a placement, a queue
 *	named twice, two queues that share an IRQ given different CPUs; -EPERM
 *	a managed IRQ; -EBUSY an IRQ held by another device's binding (unless
 *	%NICTL_BIND_F_TAKE_OVER) or shared with another handler (unless
 *	%NICTL_BIND_F_ALLOW_SHARED); any error of the IRQ core while applying,
 *	after every earlier write was rolled back. A stacked device binds
 *	every physical device beneath it in one transaction: each is planned
 *	and checked, under the instance locks of all of them, before the first
 *	write, and one failure puts every write back. Only a CPU set is
 *	taken (-EOPNOTSUPP for a placement: queue numbers are per device).
 *	Devices that share a part of the set take distinct physical cores
 *	before siblings, and %NICTL_BIND_F_SMT_EXCLUSIVE holds across them;
 *	with %NICTL_BIND_F_NUMA_STRICT each device uses the part of the set on
 *	its own node (-EINVAL when that part is empty). A sticky request
 *	keeps, for each device, its own part of the set. The reply has the
 *	shape of a %NICTL_CMD_DEV_GET reply about the stacked device; the
 *	%NICTL_EVENT_BOUND events are one per physical device.
 * @NICTL_CMD_RESTORE: put back the affinities the device's queue IRQs had
 *	before nictl first bound it, and forget the device, its sticky
 *	binding too. Needs CAP_NET_ADMIN. Names the device as
 *	%NICTL_CMD_BIND does. -ENODATA when nictl holds neither
 *	(never bound, or the state was dropped because the device went away;
 *	a sticky binding alone is dropped and nothing else done). The reply, a
 *	%NICTL_CMD_RESTORE message, carries the attributes of a
 *	%NICTL_CMD_DEV_GET reply. A stacked device restores, in one
 *	all-or-nothing apply, every physical device beneath it that nictl
 *	holds; -ENODATA when it holds none of them.
 * @NICTL_CMD_STATS_GET: softirq accounting, a dump of one message per
 *	possible CPU: %NICTL_A_CPU, %NICTL_A_STATS_ENABLED,
 *	%NICTL_A_STATS_START_NS, %NICTL_A_STATS_NOW_NS, one %NICTL_A_SOFTIRQ
 *	nest per &enum nictl_softirq_vec, %NICTL_A_NAPI_UNATTRIBUTED, one
 *	%NICTL_A_POLL nest per &enum nictl_poll_kind, and one %NICTL_A_NAPI nest
 *	(%NICTL_A_NAPI_ID and %NICTL_A_NAPI_TIME_NS only) per NAPI instance
 *	with an id polled on this CPU, in no particular order. Open to every
 *	user. Counters only grow until %NICTL_CMD_STATS_RESET; rates come from
 *	two samples and their %NICTL_A_STATS_NOW_NS.
 * @NICTL_CMD_STATS_SET: switch accounting on or off with
 *	%NICTL_A_STATS_ENABLED. Off unregisters the tracepoint probes, so it
 *	costs nothing and the counters stop; on registers them again and the
 *	counters continue. Needs CAP_NET_ADMIN. Replies with an ack only.
 * @NICTL_CMD_STATS_RESET: zero every counter and restart
 *	%NICTL_A_STATS_START_NS. Needs CAP_NET_ADMIN. Replies with an ack only.
 * @NICTL_CMD_NAPI_GET: the receive work of a device's NAPI instances. The
 *	request names one device like %NICTL_CMD_DEV_GET, in its namespace
 *	too. Each reply message carries the device's %NICTL_A_IFINDEX,
 *	%NICTL_A_IFNAME and, outside the initial namespace,
 *	%NICTL_A_NETNS_ID, then one
 *	%NICTL_A_NAPI nest per NAPI instance with an id, in ascending id order.
 *	A do answers with every instance in one message; a dump (NLM_F_DUMP,
 *	which clients should use) splits them over as many messages as they
 *	need, the first always present, and resumes by id, so an instance that
 *	comes or goes meanwhile neither repeats nor hides another. Open to
 *	every user. Errors: -ENODEV unknown device; -EMSGSIZE for a do whose
 *	instances do not fit one message (extack says to dump).
 * @NICTL_CMD_EVENT: a notification, sent to the multicast groups only (never
 *	a reply; a request gets -EOPNOTSUPP). Every event carries
 *	%NICTL_A_EVENT, %NICTL_A_EVENT_SEQ, %NICTL_A_EVENT_TIME_NS and the
 *	device: %NICTL_A_IFINDEX, %NICTL_A_IFNAME, %NICTL_A_DRIVER,
 *	%NICTL_A_BUS_ADDR (when on PCI), %NICTL_A_PERM_ADDR (when the device
 *	has a hardware address), %NICTL_A_NUMA_NODE, %NICTL_A_RX_QUEUES,
 *	%NICTL_A_TX_QUEUES, %NICTL_A_DEV_FLAGS, %NICTL_A_SOURCE and, for a
 *	device outside the initial network namespace, %NICTL_A_NETNS_ID, as
 *	they are when the event is sent. Events go to %NICTL_MCGRP_EVENTS (of
 *	devices in the initial network namespace) and, where it exists, to
 *	%NICTL_MCGRP_AUDIT (of every device). &enum nictl_event says what else each event
 *	carries. Events are sent only for devices, of any network namespace,
 *	that have a parent bus device (those a %NICTL_CMD_DEV_GET dump
 *	lists), and only while someone listens: they say what changed,
 *	%NICTL_CMD_DEV_GET says what is. A sender holds the module's events
 *	lock from taking its sequence number to the send, with rtnl (device
 *	events, binds, restores) or without (drift), so events arrive in the
 *	order of their sequence numbers; a gap means events were lost.
 * @__NICTL_CMD_MAX: one past the last command
 * @NICTL_CMD_MAX: the last command
 */
enum nictl_cmd {
	NICTL_CMD_UNSPEC,
	NICTL_CMD_DEV_GET,
	NICTL_CMD_BIND,
	NICTL_CMD_RESTORE,
	NICTL_CMD_STATS_GET,
	NICTL_CMD_STATS_SET,
	NICTL_CMD_STATS_RESET,
	NICTL_CMD_NAPI_GET,
	NICTL_CMD_EVENT,

	__NICTL_CMD_MAX,
	NICTL_CMD_MAX = __NICTL_CMD_MAX - 1
};

/**
 * enum nictl_attr - top-level attributes
 * @NICTL_A_UNSPEC: not an attribute
 * @NICTL_A_IFINDEX: u32, interface index of the device
 * @NICTL_A_IFNAME: string, interface name (request: used when no ifindex)
 * @NICTL_A_DRIVER: string, name of the driver bound to the parent device
 * @NICTL_A_BUS_ADDR: string, PCI address of the function (e.g. 0000:80:00.0),
 *	absent when the device is not on PCI
 * @NICTL_A_NUMA_NODE: s32, NUMA node of the device, -1 when unknown
 * @NICTL_A_RX_QUEUES: u32, number of active receive queues
 * @NICTL_A_TX_QUEUES: u32, number of active transmit queues
 * @NICTL_A_DEV_FLAGS: u32, &enum nictl_dev_flags
 * @NICTL_A_IRQ: nest, &enum nictl_irq_attr, one per queue IRQ (each IRQ
 *	once) in the order of its lowest queue, then rx before tx before
 *	combined
 * @NICTL_A_CPUS: binary CPU bitmap, the CPUs a bind may use
 * @NICTL_A_FLAGS: u32, &enum nictl_bind_flags
 * @NICTL_A_QUEUE_CPU: nest (NLA_F_NESTED set), &enum nictl_queue_cpu_attr,
 *	one entry of an explicit placement (repeated)
 * @NICTL_A_SOURCE: u32, &enum nictl_irq_source, how the queue IRQs were found
 * @NICTL_A_CPU: u32, the CPU a %NICTL_CMD_STATS_GET message describes
 * @NICTL_A_STATS_ENABLED: u8, 1 when softirq accounting is on
 * @NICTL_A_STATS_START_NS: u64, CLOCK_MONOTONIC time in ns when the counters
 *	started (module load or the last reset)
 * @NICTL_A_STATS_NOW_NS: u64, CLOCK_MONOTONIC time in ns of this reading
 * @NICTL_A_SOFTIRQ: nest, &enum nictl_softirq_attr, one softirq vector
 * @NICTL_A_NAPI: nest, &enum nictl_napi_attr, one NAPI instance
 * @NICTL_A_NAPI_UNATTRIBUTED: u64, NAPI polls on this CPU that could not be
 *	attributed to an instance because its table was full
 * @NICTL_A_PAD: padding for 64-bit attributes
 * @NICTL_A_EVENT: u32, &enum nictl_event, what a %NICTL_CMD_EVENT reports
 * @NICTL_A_EVENT_SEQ: u64, sequence number of the event in its group. One
 *	counter per multicast group, starting at 1 at load and incremented for
 *	every event the module sends to the group (or fails to allocate), so
 *	a listener that sees a gap has missed events. Listeners that join
 *	later start wherever it is.
 * @NICTL_A_EVENT_TIME_NS: u64, CLOCK_MONOTONIC time in ns when the module
 *	noticed the change
 * @NICTL_A_PERM_ADDR: binary, the permanent hardware (MAC) address,
 *	dev->addr_len bytes, in every message that describes a device; absent
 *	when the device has no hardware address
 * @NICTL_A_OLD_IFNAME: string, the name before a %NICTL_EVENT_RENAMED;
 *	absent when the module did not know the old name
 * @NICTL_A_OLD_RX_QUEUES: u32, active receive queues last seen
 *	(%NICTL_EVENT_QUEUES_CHANGED)
 * @NICTL_A_OLD_TX_QUEUES: u32, active transmit queues last seen
 *	(%NICTL_EVENT_QUEUES_CHANGED)
 * @NICTL_A_OLD_IRQ: nest, &enum nictl_irq_attr with %NICTL_A_IRQ_NUM,
 *	%NICTL_A_IRQ_QUEUE and %NICTL_A_IRQ_KIND only: one queue IRQ last seen
 *	(%NICTL_EVENT_QUEUES_CHANGED), in the order of %NICTL_A_IRQ; at most
 *	%NICTL_EVENT_OLD_IRQS_MAX of them
 * @NICTL_A_PID: u32, thread-group id (in the initial PID namespace) of the
 *	process whose request changed the affinities; in %NICTL_MCGRP_AUDIT
 *	events only
 * @NICTL_A_UID: u32, its uid (in the initial user namespace); in
 *	%NICTL_MCGRP_AUDIT events only
 * @NICTL_A_PORTID: u32, the netlink port id of the socket whose request
 *	changed the affinities (the nlmsg_pid its reply was addressed to), so a
 *	client recognises the events of its own requests
 * @NICTL_A_STICKY_ID: string, the identity a sticky binding
 *	(%NICTL_BIND_F_STICKY) is kept under, which outlives the device's
 *	ifindex, name and IRQ numbers: "pci:" and the PCI function's address
 *	("pci:0000:01:00.0", with "/port" and the port number appended for
 *	port 1 and up of a function with several), or, for a device without
 *	a PCI function, "mac:" and its permanent hardware address. In replies
 *	about a device with a sticky binding, and in the sticky events
 * @NICTL_A_ERRNO: u32, the positive errno a sticky binding was refused
 *	with (%NICTL_EVENT_STICKY_FAILED)
 * @NICTL_A_MESSAGE: string, why, as the extack of a %NICTL_CMD_BIND would
 *	have said (%NICTL_EVENT_STICKY_FAILED)
 * @NICTL_A_POLL: nest, &enum nictl_poll_attr, the NAPI polls of one
 *	&enum nictl_poll_kind on the CPU a %NICTL_CMD_STATS_GET message describes
 * @NICTL_A_UPPER: nest, &enum nictl_link_attr, a device stacked on this
 *	one, directly or through others (the bond or team it is a port of, a
 *	VLAN or macvlan on it or on that bond), each direct upper before the
 *	devices stacked on it; one per such device of the same network
 *	namespace (the uppers sysfs links), at most %NICTL_UPPERS_MAX, in
 *	every message describing a device
 * @NICTL_A_LOWER: nest, one physical device beneath the stacked device a
 *	%NICTL_CMD_DEV_GET, %NICTL_CMD_BIND or %NICTL_CMD_RESTORE request named
 *	(&enum nictl_dev_flags %NICTL_DEV_F_STACKED): it holds the attributes
 *	and %NICTL_A_IRQ nests a %NICTL_CMD_DEV_GET reply about that device
 *	would; one per such device, in ifindex order. A device whose IRQs do
 *	not fit one nest (its length is 16 bits) continues in the nests that
 *	follow, each with all its attributes and the next of its IRQs: a
 *	client joins consecutive nests with one %NICTL_A_IFINDEX
 * @NICTL_A_LINK: nest, &enum nictl_link_attr, the upper device of a
 *	%NICTL_EVENT_LINKED or %NICTL_EVENT_UNLINKED
 * @NICTL_A_KIND: string, the link kind of a stacked device ("bond", "vlan",
 *	"macvlan", ...), when it has one
 * @NICTL_A_NETNS_FD: u32, request: a file descriptor, in the requesting
 *	process, of the network namespace to look the device up in (an open
 *	/run/netns/NAME or /proc/PID/ns/net)
 * @NICTL_A_NETNS_ID: s32, request: the id the initial network namespace
 *	has for the namespace to look the device up in (ip netns list-id);
 *	reply and event: the id of the namespace of a device outside the
 *	initial one (allocated if it had none), absent for the initial one
 * @__NICTL_A_MAX: one past the last attribute
 * @NICTL_A_MAX: the last attribute
 */
enum nictl_attr {
	NICTL_A_UNSPEC,
	NICTL_A_IFINDEX,
	NICTL_A_IFNAME,
	NICTL_A_DRIVER,
	NICTL_A_BUS_ADDR,
	NICTL_A_NUMA_NODE,
	NICTL_A_RX_QUEUES,
	NICTL_A_TX_QUEUES,
	NICTL_A_DEV_FLAGS,
	NICTL_A_IRQ,
	NICTL_A_CPUS,
	NICTL_A_FLAGS,
	NICTL_A_QUEUE_CPU,
	NICTL_A_SOURCE,
	NICTL_A_CPU,
	NICTL_A_STATS_ENABLED,
	NICTL_A_STATS_START_NS,
	NICTL_A_STATS_NOW_NS,
	NICTL_A_SOFTIRQ,
	NICTL_A_NAPI,
	NICTL_A_NAPI_UNATTRIBUTED,
	NICTL_A_PAD,
	NICTL_A_EVENT,
	NICTL_A_EVENT_SEQ,
	NICTL_A_EVENT_TIME_NS,
	NICTL_A_PERM_ADDR,
	NICTL_A_OLD_IFNAME,
	NICTL_A_OLD_RX_QUEUES,
	NICTL_A_OLD_TX_QUEUES,
	NICTL_A_OLD_IRQ,
	NICTL_A_PID,
	NICTL_A_UID,
	NICTL_A_PORTID,
	NICTL_A_STICKY_ID,
	NICTL_A_ERRNO,
	NICTL_A_MESSAGE,
	NICTL_A_POLL,
	NICTL_A_UPPER,
	NICTL_A_LOWER,
	NICTL_A_LINK,
	NICTL_A_KIND,
	NICTL_A_NETNS_FD,
	NICTL_A_NETNS_ID,

	__NICTL_A_MAX,
	NICTL_A_MAX = __NICTL_A_MAX - 1
};

/**
 * enum nictl_irq_attr - attributes of one queue IRQ (inside %NICTL_A_IRQ)
 * @NICTL_A_IRQ_UNSPEC: not an attribute
 * @NICTL_A_IRQ_NUM: u32, Linux IRQ number (as in /proc/interrupts)
 * @NICTL_A_IRQ_NAME: string, name of the IRQ's action
 * @NICTL_A_IRQ_QUEUE: u32, the lowest queue index the IRQ serves
 * @NICTL_A_IRQ_KIND: u32, &enum nictl_queue_kind: rx or tx when the IRQ
 *	serves only that kind, combined otherwise
 * @NICTL_A_IRQ_AFFINITY: binary CPU bitmap, the affinity last set, pending
 *	or not (/proc/irq/N/smp_affinity)
 * @NICTL_A_IRQ_EFFECTIVE: binary CPU bitmap, the effective affinity
 *	(/proc/irq/N/effective_affinity); may be empty while an IRQ is not
 *	started
 * @NICTL_A_IRQ_FLAGS: u32, &enum nictl_irq_flags
 * @NICTL_A_IRQ_NODE: s32, NUMA node of the first effective CPU, -1 if none
 * @NICTL_A_IRQ_TARGET_CPU: u32, the CPU nictl placed this IRQ on (bind
 *	replies, and DEV_GET of a device nictl has bound)
 * @NICTL_A_IRQ_EXPECTED: binary CPU bitmap, the affinity nictl set and
 *	the IRQ no longer has (%NICTL_EVENT_DRIFT)
 * @NICTL_A_IRQ_OLD_AFFINITY: binary CPU bitmap, the affinity before the
 *	change (%NICTL_EVENT_BOUND, %NICTL_EVENT_RESTORED)
 * @NICTL_A_IRQ_QUEUE_REF: nest (NLA_F_NESTED set), &enum nictl_qref_attr,
 *	one per queue the IRQ serves (repeated), in the order of queue, then
 *	kind; in %NICTL_CMD_DEV_GET replies and in events that carry
 *	%NICTL_A_IRQ nests
 * @NICTL_A_IRQ_GROUP: u32, the IRQ's placement group within its device:
 *	IRQs linked by the queues they serve (the rx and tx IRQ of a queue, an
 *	IRQ serving several queues and the IRQs of those) share a group, and
 *	a bind puts a group on one CPU; numbered from 0 in the order of
 *	%NICTL_A_IRQ, so the number of groups is the last one plus one
 * @NICTL_A_IRQ_OWNER: u32, ifindex of the other device whose binding holds
 *	this IRQ (%NICTL_IRQ_F_BOUND is then not set): a bind of this device
 *	that moves the IRQ gets -EBUSY without %NICTL_BIND_F_TAKE_OVER
 * @NICTL_A_IRQ_DRIFTS: u32, for a bound IRQ: how often something else moved
 *	it away from its target since nictl first bound it (each
 *	%NICTL_EVENT_DRIFT counts once; re-binds keep the count)
 * @NICTL_A_IRQ_DRIFT_NS: u64, CLOCK_MONOTONIC time in ns of the last of
 *	them; present when %NICTL_A_IRQ_DRIFTS is not 0
 * @NICTL_A_IRQ_PAD: padding for 64-bit attributes
 * @__NICTL_A_IRQ_MAX: one past the last attribute
 * @NICTL_A_IRQ_MAX: the last attribute
 */
enum nictl_irq_attr {
	NICTL_A_IRQ_UNSPEC,
	NICTL_A_IRQ_NUM,
	NICTL_A_IRQ_NAME,
	NICTL_A_IRQ_QUEUE,
	NICTL_A_IRQ_KIND,
	NICTL_A_IRQ_AFFINITY,
	NICTL_A_IRQ_EFFECTIVE,
	NICTL_A_IRQ_FLAGS,
	NICTL_A_IRQ_NODE,
	NICTL_A_IRQ_TARGET_CPU,
	NICTL_A_IRQ_EXPECTED,
	NICTL_A_IRQ_OLD_AFFINITY,
	NICTL_A_IRQ_QUEUE_REF,
	NICTL_A_IRQ_GROUP,
	NICTL_A_IRQ_OWNER,
	NICTL_A_IRQ_DRIFTS,
	NICTL_A_IRQ_DRIFT_NS,
	NICTL_A_IRQ_PAD,

	__NICTL_A_IRQ_MAX,
	NICTL_A_IRQ_MAX = __NICTL_A_IRQ_MAX - 1
};

/**
 * enum nictl_qref_attr - one queue a queue IRQ serves (inside
 *	%NICTL_A_IRQ_QUEUE_REF)
 * @NICTL_A_QREF_UNSPEC: not an attribute
 * @NICTL_A_QREF_QUEUE: u32, queue index
 * @NICTL_A_QREF_KIND: u32, &enum nictl_queue_kind: rx, tx, or combined
 *	(the queue pair)
 * @__NICTL_A_QREF_MAX: one past the last attribute
 * @NICTL_A_QREF_MAX: the last attribute
 */
enum nictl_qref_attr {
	NICTL_A_QREF_UNSPEC,
	NICTL_A_QREF_QUEUE,
	NICTL_A_QREF_KIND,

	__NICTL_A_QREF_MAX,
	NICTL_A_QREF_MAX = __NICTL_A_QREF_MAX - 1
};

/**
 * enum nictl_queue_cpu_attr - one queue of an explicit placement
 *	(inside %NICTL_A_QUEUE_CPU)
 * @NICTL_A_QUEUE_CPU_UNSPEC: not an attribute
 * @NICTL_A_QUEUE_CPU_QUEUE: u32, queue index
 * @NICTL_A_QUEUE_CPU_CPU: u32, CPU for every IRQ of that queue, and for
 *	every IRQ linked to them by the queues they serve; at most
 *	%NICTL_CPUMASK_MAX_BYTES * 8 - 1 (-ERANGE), and a CPU this machine
 *	has (-EINVAL)
 * @__NICTL_A_QUEUE_CPU_MAX: one past the last attribute
 * @NICTL_A_QUEUE_CPU_MAX: the last attribute
 */
enum nictl_queue_cpu_attr {
	NICTL_A_QUEUE_CPU_UNSPEC,
	NICTL_A_QUEUE_CPU_QUEUE,
	NICTL_A_QUEUE_CPU_CPU,

	__NICTL_A_QUEUE_CPU_MAX,
	NICTL_A_QUEUE_CPU_MAX = __NICTL_A_QUEUE_CPU_MAX - 1
};

/**
 * NICTL_HIST_BUCKETS - buckets of a softirq duration histogram
 *
 * Bucket 0 counts runs shorter than 1 us; bucket b (1..14) runs of
 * [2^(b-1), 2^b) us; bucket 15 runs of 16384 us (about 16 ms) or longer.
 */
#define NICTL_HIST_BUCKETS	16

/**
 * enum nictl_softirq_vec - the softirq vectors nictl accounts
 * @NICTL_SOFTIRQ_NET_RX: NET_RX_SOFTIRQ (receive processing, NAPI polls)
 * @NICTL_SOFTIRQ_NET_TX: NET_TX_SOFTIRQ (deferred transmit)
 * @__NICTL_SOFTIRQ_MAX: one past the last vector
 */
enum nictl_softirq_vec {
	NICTL_SOFTIRQ_NET_RX,
	NICTL_SOFTIRQ_NET_TX,

	__NICTL_SOFTIRQ_MAX
};

/**
 * enum nictl_softirq_attr - one softirq vector on one CPU
 *	(inside %NICTL_A_SOFTIRQ)
 * @NICTL_A_SOFTIRQ_UNSPEC: not an attribute
 * @NICTL_A_SOFTIRQ_VEC: u32, &enum nictl_softirq_vec
 * @NICTL_A_SOFTIRQ_COUNT: u64, runs of the vector's handler counted
 * @NICTL_A_SOFTIRQ_TIME_NS: u64, their total duration in ns
 * @NICTL_A_SOFTIRQ_MAX_NS: u64, the longest run in ns
 * @NICTL_A_SOFTIRQ_HIST: nest, &enum nictl_hist_bucket_attr: one bucket of
 *	the runs by duration, %NICTL_HIST_BUCKETS of them, shortest first;
 *	their counts add up to the count
 * @NICTL_A_SOFTIRQ_PAD: padding for 64-bit attributes
 * @__NICTL_A_SOFTIRQ_MAX: one past the last attribute
 * @NICTL_A_SOFTIRQ_MAX: the last attribute
 */
enum nictl_softirq_attr {
	NICTL_A_SOFTIRQ_UNSPEC,
	NICTL_A_SOFTIRQ_VEC,
	NICTL_A_SOFTIRQ_COUNT,
	NICTL_A_SOFTIRQ_TIME_NS,
	NICTL_A_SOFTIRQ_MAX_NS,
	NICTL_A_SOFTIRQ_HIST,
	NICTL_A_SOFTIRQ_PAD,

	__NICTL_A_SOFTIRQ_MAX,
	NICTL_A_SOFTIRQ_MAX = __NICTL_A_SOFTIRQ_MAX - 1
};

/**
 * enum nictl_hist_bucket_attr - one bucket of a duration histogram
 *	(inside %NICTL_A_SOFTIRQ_HIST)
 * @NICTL_A_HIST_BUCKET_UNSPEC: not an attribute
 * @NICTL_A_HIST_BUCKET_LOW_NS: u32, the shortest duration it counts, in ns
 * @NICTL_A_HIST_BUCKET_HIGH_NS: u32, the duration it counts up to (not
 *	included), in ns; absent in the last bucket, which has no bound
 * @NICTL_A_HIST_BUCKET_COUNT: u64, runs of that duration
 * @NICTL_A_HIST_BUCKET_PAD: padding for 64-bit attributes
 * @__NICTL_A_HIST_BUCKET_MAX: one past the last attribute
 * @NICTL_A_HIST_BUCKET_MAX: the last attribute
 */
enum nictl_hist_bucket_attr {
	NICTL_A_HIST_BUCKET_UNSPEC,
	NICTL_A_HIST_BUCKET_LOW_NS,
	NICTL_A_HIST_BUCKET_HIGH_NS,
	NICTL_A_HIST_BUCKET_COUNT,
	NICTL_A_HIST_BUCKET_PAD,

	__NICTL_A_HIST_BUCKET_MAX,
	NICTL_A_HIST_BUCKET_MAX = __NICTL_A_HIST_BUCKET_MAX - 1
};

/**
 * enum nictl_napi_attr - one NAPI instance of a device (inside %NICTL_A_NAPI)
 * @NICTL_A_NAPI_UNSPEC: not an attribute
 * @NICTL_A_NAPI_ID: u32, the NAPI id (as in the netdev family and SO_INCOMING_NAPI_ID)
 * @NICTL_A_NAPI_QUEUE: u32, the receive queue it serves: from the kernel's
 *	queue -> NAPI link where the driver sets it (6.8+), else by the order in
 *	which the driver registered its NAPIs (right for virtio_net, and for
 *	single-queue devices)
 * @NICTL_A_NAPI_POLLS: u64, polls counted since the counters started
 * @NICTL_A_NAPI_PACKETS: u64, work those polls did (packets received)
 * @NICTL_A_NAPI_CPUS: binary CPU bitmap, the CPUs it was polled on
 * @NICTL_A_NAPI_PAD: padding for 64-bit attributes
 * @NICTL_A_NAPI_TIME_NS: u64, NET_RX softirq time in ns its polls took, as
 *	&enum nictl_poll_attr times them (polls outside NET_RX add nothing);
 *	in %NICTL_CMD_NAPI_GET on all CPUs, in %NICTL_CMD_STATS_GET on that CPU
 * @NICTL_A_NAPI_BUSY_NS: u64, time in ns that busy polling (a task polling
 *	it from a socket call, outside NET_RX) spent on it, as
 *	%NICTL_A_POLL_BUSY_NS times it; on all CPUs or on that CPU as
 *	@NICTL_A_NAPI_TIME_NS
 * @__NICTL_A_NAPI_MAX: one past the last attribute
 * @NICTL_A_NAPI_MAX: the last attribute
 */
enum nictl_napi_attr {
	NICTL_A_NAPI_UNSPEC,
	NICTL_A_NAPI_ID,
	NICTL_A_NAPI_QUEUE,
	NICTL_A_NAPI_POLLS,
	NICTL_A_NAPI_PACKETS,
	NICTL_A_NAPI_CPUS,
	NICTL_A_NAPI_PAD,
	NICTL_A_NAPI_TIME_NS,
	NICTL_A_NAPI_BUSY_NS,

	__NICTL_A_NAPI_MAX,
	NICTL_A_NAPI_MAX = __NICTL_A_NAPI_MAX - 1
};

/**
 * enum nictl_poll_kind - whose NAPI a poll was (%NICTL_A_POLL_KIND)
 * @NICTL_POLL_DEVICE: a network device's NAPI instance, those without an
 *	id (virtio_net's transmit ones) included
 * @NICTL_POLL_BACKLOG: the CPU's backlog NAPI, which processes the packets
 *	queued to the CPU by RPS, RFS and netif_rx() (it has no device)
 * @__NICTL_POLL_MAX: one past the last kind
 */
enum nictl_poll_kind {
	NICTL_POLL_DEVICE,
	NICTL_POLL_BACKLOG,

	__NICTL_POLL_MAX
};

/**
 * enum nictl_poll_attr - one kind of NAPI poll on one CPU (inside %NICTL_A_POLL)
 *
 * A poll's time runs from the end of the poll before it in the same NET_RX
 * run (or from the run's start) to its end, where the napi:napi_poll
 * tracepoint fires: it includes the little bookkeeping of net_rx_action()
 * between polls. It is added to %NICTL_A_POLL_TIME_NS when the NET_RX run
 * ends, with the run's own time, so in any one reply the kinds' times add
 * up to no more than the NET_RX time of %NICTL_A_SOFTIRQ. Polls outside
 * NET_RX (threaded NAPI, busy polling, netpoll, and the backlog threads of
 * PREEMPT_RT or thread_backlog_napi, which also send no RPS IPIs) have no
 * start to time from: they count in %NICTL_A_POLL_UNTIMED instead.
 *
 * Busy polling is the exception: a task that busy-polls a NAPI
 * (SO_BUSY_POLL, net.core.busy_read and busy_poll, epoll's busy poll)
 * polls it in a loop, and each poll of the loop but the first is timed
 * from the end of the one before, less the NET_RX and NET_TX runs in
 * between: %NICTL_A_POLL_BUSY_NS is the CPU time busy polling took,
 * outside NET_RX and not in its time. The first poll of each loop, and any
 * poll after the task was switched out, count in %NICTL_A_POLL_UNTIMED.
 *
 * @NICTL_A_POLL_UNSPEC: not an attribute
 * @NICTL_A_POLL_KIND: u32, &enum nictl_poll_kind
 * @NICTL_A_POLL_POLLS: u64, polls counted, timed or not
 * @NICTL_A_POLL_PACKETS: u64, work those polls did (packets received)
 * @NICTL_A_POLL_TIME_NS: u64, NET_RX time in ns the timed polls took
 * @NICTL_A_POLL_UNTIMED: u64, polls outside NET_RX, not timed
 * @NICTL_A_POLL_PAD: padding for 64-bit attributes
 * @NICTL_A_POLL_BUSY_POLLS: u64, polls of busy-poll loops, timed or not
 * @NICTL_A_POLL_BUSY_NS: u64, time in ns the timed ones took
 * @__NICTL_A_POLL_MAX: one past the last attribute
 * @NICTL_A_POLL_MAX: the last attribute
 */
enum nictl_poll_attr {
	NICTL_A_POLL_UNSPEC,
	NICTL_A_POLL_KIND,
	NICTL_A_POLL_POLLS,
	NICTL_A_POLL_PACKETS,
	NICTL_A_POLL_TIME_NS,
	NICTL_A_POLL_UNTIMED,
	NICTL_A_POLL_PAD,
	NICTL_A_POLL_BUSY_POLLS,
	NICTL_A_POLL_BUSY_NS,

	__NICTL_A_POLL_MAX,
	NICTL_A_POLL_MAX = __NICTL_A_POLL_MAX - 1
};

/**
 * NICTL_UPPERS_MAX - most %NICTL_A_UPPER nests in one message
 */
#define NICTL_UPPERS_MAX	16

/**
 * enum nictl_link_attr - one stacked device (inside %NICTL_A_UPPER and
 *	%NICTL_A_LINK)
 * @NICTL_A_LINK_UNSPEC: not an attribute
 * @NICTL_A_LINK_IFINDEX: u32, its interface index
 * @NICTL_A_LINK_IFNAME: string, its name
 * @NICTL_A_LINK_KIND: string, its link kind ("bond", "vlan", "macvlan",
 *	...), absent when it has none
 * @__NICTL_A_LINK_MAX: one past the last attribute
 * @NICTL_A_LINK_MAX: the last attribute
 */
enum nictl_link_attr {
	NICTL_A_LINK_UNSPEC,
	NICTL_A_LINK_IFINDEX,
	NICTL_A_LINK_IFNAME,
	NICTL_A_LINK_KIND,

	__NICTL_A_LINK_MAX,
	NICTL_A_LINK_MAX = __NICTL_A_LINK_MAX - 1
};

/**
 * enum nictl_queue_kind - what a queue IRQ serves
 * @NICTL_QUEUE_KIND_RX: receive only
 * @NICTL_QUEUE_KIND_TX: transmit only
 * @NICTL_QUEUE_KIND_COMBINED: one vector for the rx and tx queue of a pair
 * @__NICTL_QUEUE_KIND_MAX: one past the last kind
 */
enum nictl_queue_kind {
	NICTL_QUEUE_KIND_RX,
	NICTL_QUEUE_KIND_TX,
	NICTL_QUEUE_KIND_COMBINED,

	__NICTL_QUEUE_KIND_MAX
};

/**
 * enum nictl_irq_source - how a device's queue IRQs were found
 * @NICTL_IRQ_SOURCE_NONE: the device has no queue IRQs
 * @NICTL_IRQ_SOURCE_NAPI: from the kernel's queue -> NAPI -> IRQ links
 * @NICTL_IRQ_SOURCE_MSI: from the parent PCI function's MSI/MSI-X vectors,
 *	classified by IRQ name
 * @NICTL_IRQ_SOURCE_MSI_NAPI: from both: the named vectors, and the links
 *	of the queues no vector is named after
 */
enum nictl_irq_source {
	NICTL_IRQ_SOURCE_NONE,
	NICTL_IRQ_SOURCE_NAPI,
	NICTL_IRQ_SOURCE_MSI,
	NICTL_IRQ_SOURCE_MSI_NAPI,
};

/**
 * enum nictl_irq_flags - state of one queue IRQ
 * @NICTL_IRQ_F_MANAGED: the kernel manages this IRQ's affinity; it cannot
 *	be bound
 * @NICTL_IRQ_F_BOUND: nictl set this IRQ's affinity and can restore it
 * @NICTL_IRQ_F_PENDING: the affinity was accepted but the IRQ moves only at
 *	its next interrupt (x86 without interrupt remapping); until then the
 *	effective affinity still shows the CPU it is leaving
 * @NICTL_IRQ_F_SHARED: other handlers are registered on the same IRQ
 *	(another device's, or another driver's); a bind moves it only with
 *	%NICTL_BIND_F_ALLOW_SHARED
 */
enum nictl_irq_flags {
	NICTL_IRQ_F_MANAGED	= 1U << 0,
	NICTL_IRQ_F_BOUND	= 1U << 1,
	NICTL_IRQ_F_PENDING	= 1U << 2,
	NICTL_IRQ_F_SHARED	= 1U << 3,
};

/**
 * enum nictl_dev_flags - state of a device
 * @NICTL_DEV_F_BOUND: nictl has bound this device and holds the affinities
 *	to restore
 * @NICTL_DEV_F_UP: the interface is administratively up
 * @NICTL_DEV_F_STICKY: the module keeps a sticky binding for this device
 *	(%NICTL_BIND_F_STICKY, under %NICTL_A_STICKY_ID) and applies it again
 *	whenever the device's queue IRQs appear or change
 * @NICTL_DEV_F_STACKED: a device without a bus device of its own, stacked
 *	on others (a bond, team, bridge, VLAN, macvlan, ...): its queue IRQs
 *	are those of the physical devices beneath it, which the reply carries
 *	as %NICTL_A_LOWER nests; a bind or restore of it acts on all of them
 *	as one, all or nothing
 */
enum nictl_dev_flags {
	NICTL_DEV_F_BOUND	= 1U << 0,
	NICTL_DEV_F_UP		= 1U << 1,
	NICTL_DEV_F_STICKY	= 1U << 2,
	NICTL_DEV_F_STACKED	= 1U << 3,
};

/**
 * enum nictl_bind_flags - options of %NICTL_CMD_BIND
 * @NICTL_BIND_F_NUMA_STRICT: refuse any CPU that is not on the device's
 *	NUMA node (no effect when the node is unknown); when that node has no
 *	online CPU (memory only, or its CPUs offline), refuse any CPU that is
 *	not on the nodes with an online CPU nearest to it (node distance)
 * @NICTL_BIND_F_SMT_EXCLUSIVE: refuse a placement that puts two queues of
 *	the device on one physical core (SMT siblings)
 * @NICTL_BIND_F_DRY_RUN: compute and validate the placement and reply with
 *	it, but change nothing
 * @NICTL_BIND_F_TAKE_OVER: move IRQs that another device's binding holds;
 *	they leave that binding (which keeps the rest) and their original
 *	affinity comes with them, for %NICTL_CMD_RESTORE of this device
 * @NICTL_BIND_F_ALLOW_SHARED: move IRQs that other handlers share
 *	(%NICTL_IRQ_F_SHARED); they move for every handler
 * @NICTL_BIND_F_STICKY: after the bind, keep the request (CPU set or
 *	placement, and these flags) under the device's %NICTL_A_STICKY_ID and
 *	apply it again, with the same checks and all or nothing, whenever the
 *	device's queue IRQs appear or change: when it registers again (driver
 *	reload), at open, when its queue counts or queue IRQs change; for a
 *	driver that requests its IRQs at open, already before it does. Each
 *	such apply sends %NICTL_EVENT_STICKY_APPLIED, or
 *	%NICTL_EVENT_STICKY_FAILED and leaves the device as its driver made
 *	it. A bind without the flag drops the device's sticky binding, as
 *	%NICTL_CMD_RESTORE does; unloading the module drops them all. Errors:
 *	-EOPNOTSUPP for a device without an identity (no PCI function and no
 *	permanent address), -EEXIST when another device has the same identity,
 *	-ENOSPC past the module parameter sticky_max; ignored in a dry run
 * @NICTL_BIND_F_ALL: every valid flag
 */
enum nictl_bind_flags {
	NICTL_BIND_F_NUMA_STRICT	= 1U << 0,
	NICTL_BIND_F_SMT_EXCLUSIVE	= 1U << 1,
	NICTL_BIND_F_DRY_RUN		= 1U << 2,
	NICTL_BIND_F_TAKE_OVER		= 1U << 3,
	NICTL_BIND_F_ALLOW_SHARED	= 1U << 4,
	NICTL_BIND_F_STICKY		= 1U << 5,

	NICTL_BIND_F_ALL		= (1U << 6) - 1,
};

/**
 * NICTL_EVENT_OLD_IRQS_MAX - most %NICTL_A_OLD_IRQ entries in one event
 *
 * The module remembers at most this many queue IRQs per device; a change
 * among the others is still detected and reported.
 */
#define NICTL_EVENT_OLD_IRQS_MAX	256

/**
 * enum nictl_event - what a %NICTL_CMD_EVENT reports
 * @NICTL_EVENT_UNSPEC: not an event
 * @NICTL_EVENT_REGISTERED: a device appeared (driver probe or reload, or a
 *	move into a network namespace, whose id it carries unless it is the
 *	initial one)
 * @NICTL_EVENT_UNREGISTERED: a device is going away (driver unbind or
 *	unload, or a move out of its network namespace, which it names as
 *	%NICTL_EVENT_REGISTERED does). Its binding is dropped when it goes
 *	away; a device that moves keeps it, and a %NICTL_CMD_RESTORE in its
 *	new namespace puts its original affinities back
 * @NICTL_EVENT_UP: the device was opened (drivers that request their IRQs
 *	at open have just done so)
 * @NICTL_EVENT_DOWN: the device was closed
 * @NICTL_EVENT_RENAMED: the device has a new %NICTL_A_IFNAME; the old one is
 *	in %NICTL_A_OLD_IFNAME
 * @NICTL_EVENT_QUEUES_CHANGED: the active queue counts or the set of queue
 *	IRQs differ from what the module last saw (ethtool -L, IRQs requested
 *	at open or freed at close). Checked on every device event and by the
 *	periodic check (module parameter watch_period_ms). A change made while
 *	nobody listened is where a new listener starts, not an event to it
 *	(on kernels without genl's join callback, before 6.7, the first
 *	periodic check after the join reports it). Carries
 *	%NICTL_A_OLD_RX_QUEUES, %NICTL_A_OLD_TX_QUEUES, the %NICTL_A_OLD_IRQ
 *	entries, and one %NICTL_A_IRQ nest per queue IRQ now, as in
 *	%NICTL_CMD_DEV_GET
 * @NICTL_EVENT_DRIFT: an IRQ nictl bound no longer has the affinity nictl
 *	set (irqbalance, a write to /proc, the driver). Found by the periodic
 *	check; reported once per affinity found, not every period, and counted
 *	in the IRQ's %NICTL_A_IRQ_DRIFTS. A move still pending
 *	(%NICTL_IRQ_F_PENDING) is not drift, nor, where the core keeps the
 *	device's IRQ affinity (6.15+), the affinity of an IRQ whose NAPI is
 *	disabled: the core sets the kept one when it is enabled, and a drift
 *	that outlasts that is reported then. Carries one %NICTL_A_IRQ
 *	nest: the DEV_GET attributes of the IRQ (%NICTL_A_IRQ_AFFINITY is the
 *	affinity found) plus %NICTL_A_IRQ_EXPECTED
 * @NICTL_EVENT_BOUND: a %NICTL_CMD_BIND changed affinities (dry runs do not
 *	count). Carries %NICTL_A_PORTID (and %NICTL_A_PID and %NICTL_A_UID in
 *	the %NICTL_MCGRP_AUDIT group) and one %NICTL_A_IRQ nest
 *	per IRQ it set: the DEV_GET attributes (%NICTL_A_IRQ_AFFINITY is the
 *	new affinity) plus %NICTL_A_IRQ_OLD_AFFINITY
 * @NICTL_EVENT_RESTORED: a %NICTL_CMD_RESTORE put affinities back. Carries
 *	the same as %NICTL_EVENT_BOUND
 * @NICTL_EVENT_STICKY_APPLIED: the module applied a sticky binding by
 *	itself, because the device's queue IRQs appeared or changed. Carries
 *	%NICTL_A_STICKY_ID and one %NICTL_A_IRQ nest per IRQ it set, as
 *	%NICTL_EVENT_BOUND does, without who asked (nobody did)
 * @NICTL_EVENT_STICKY_FAILED: a sticky binding could not be applied (a CPU
 *	of it went offline, a queue it names is gone, another device has the
 *	same identity, an IRQ core error); nothing was changed. Carries
 *	%NICTL_A_STICKY_ID, %NICTL_A_ERRNO and %NICTL_A_MESSAGE. The binding
 *	is kept and tried again at the device's next change
 * @NICTL_EVENT_LINKED: a device was stacked on this one (it was enslaved
 *	to a bond or team, added to a bridge, a VLAN or macvlan was created on
 *	it). Carries %NICTL_A_LINK, that upper device; %NICTL_A_UPPER lists
 *	the uppers it has now. An upper in another network namespace than this
 *	device (a macvlan created in a container) is named to
 *	%NICTL_MCGRP_AUDIT alone
 * @NICTL_EVENT_UNLINKED: an upper device left this one (released from
 *	the bond, deleted). Carries %NICTL_A_LINK, that upper device; to
 *	%NICTL_MCGRP_AUDIT alone as for %NICTL_EVENT_LINKED
 * @__NICTL_EVENT_MAX: one past the last event
 */
enum nictl_event {
	NICTL_EVENT_UNSPEC,
	NICTL_EVENT_REGISTERED,
	NICTL_EVENT_UNREGISTERED,
	NICTL_EVENT_UP,
	NICTL_EVENT_DOWN,
	NICTL_EVENT_RENAMED,
	NICTL_EVENT_QUEUES_CHANGED,
	NICTL_EVENT_DRIFT,
	NICTL_EVENT_BOUND,
	NICTL_EVENT_RESTORED,
	NICTL_EVENT_STICKY_APPLIED,
	NICTL_EVENT_STICKY_FAILED,
	NICTL_EVENT_LINKED,
	NICTL_EVENT_UNLINKED,

	__NICTL_EVENT_MAX
};

#endif /* _UAPI_LINUX_NICTL_H */
