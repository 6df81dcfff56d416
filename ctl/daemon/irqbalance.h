/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Telling a running irqbalance to leave the IRQs nictl binds alone, over
 * its control socket (/run/irqbalance/irqbalance<PID>.sock, the one
 * irqbalance-ui uses): "setup" reads its bans, "settings ban irqs N..."
 * replaces them. The directory is $NICTL_IRQBALANCE_DIR when set (tests).
 */
#ifndef NICTLCTL_IRQBALANCE_H
#define NICTLCTL_IRQBALANCE_H

#include <stdbool.h>
#include <sys/types.h>

/* A set of IRQ numbers, kept sorted. */
struct irq_set {
	unsigned int *irq;
	unsigned int nr;
};

#define IRQ_SET_INIT	{ NULL, 0 }

int irq_set_add(struct irq_set *s, unsigned int irq);
bool irq_set_has(const struct irq_set *s, unsigned int irq);
void irq_set_free(struct irq_set *s);

int irqb_parse_setup(const char *reply, struct irq_set *banned);
char *irqb_ban_command(const struct irq_set *bans);
int irqb_merge(const struct irq_set *banned, const struct irq_set *added,
	       const struct irq_set *ours, struct irq_set *bans, struct irq_set *now_added);

/* What the daemon remembers between calls. */
struct irqbalance {
	struct irq_set added;	/* the bans nictl added, not irqbalance's own */
	pid_t warned;		/* the irqbalance already warned about, 0 none */
};

pid_t irqbalance_pid(void);
int irqbalance_bans(pid_t pid, struct irq_set *banned);
int irqbalance_sync(struct irqbalance *ib, const struct irq_set *ours);
void irqbalance_free(struct irqbalance *ib);

#endif /* NICTLCTL_IRQBALANCE_H */
