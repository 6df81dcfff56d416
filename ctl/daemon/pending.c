// SPDX-License-Identifier: GPL-2.0
/*
 * The retry schedule. A device is due at once after an event; when it has
 * no queue IRQs yet (e1000e requests them at open, a driver may still be
 * probing) it is retried after 20 ms, 40 ms, ... up to 1 s apart, until the
 * wait the configuration allows has passed. Repeated events for one device
 * make one entry, so a burst of them costs one apply.
 */
#include <errno.h>
#include <stdlib.h>

#include "daemon/pending.h"

#define FIRST_DELAY_MS	20
#define MAX_DELAY_MS	1000

static struct pending_dev *find(struct pending *p, dev_key key)
{
	unsigned int i;

	for (i = 0; i < p->nr; i++)
		if (p->devs[i].key == key)
			return &p->devs[i];
	return NULL;
}

/* Make @key due now, allowed to wait @wait_ms for its IRQs; -ENOMEM. */
int pending_add(struct pending *p, dev_key key, long long now, unsigned int wait_ms)
{
	struct pending_dev *d = find(p, key), *grown;

	if (!d) {
		grown = realloc(p->devs, (p->nr + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		p->devs = grown;
		d = &p->devs[p->nr++];
	}
	*d = (struct pending_dev){ key, now, now + wait_ms, FIRST_DELAY_MS };
	return 0;
}

void pending_del(struct pending *p, dev_key key)
{
	struct pending_dev *d = find(p, key);

	if (d)
		*d = p->devs[--p->nr];
}

/* Take one device that is due at @now into @out; false when none is. */
bool pending_pop(struct pending *p, long long now, struct pending_dev *out)
{
	unsigned int i;

	for (i = 0; i < p->nr; i++) {
		if (p->devs[i].due_ms > now)
			continue;
		*out = p->devs[i];
		p->devs[i] = p->devs[--p->nr];
		return true;
	}
	return false;
}

/* Schedule popped @dev once more; false (and dropped) after its deadline. */
bool pending_retry(struct pending *p, const struct pending_dev *dev, long long now)
{
	struct pending_dev *d;

	if (now >= dev->deadline_ms || find(p, dev->key))
		return now < dev->deadline_ms;
	if (pending_add(p, dev->key, now, 0))
		return false;
	d = find(p, dev->key);
	d->due_ms = now + dev->delay_ms;
	d->deadline_ms = dev->deadline_ms;
	d->delay_ms = dev->delay_ms * 2 < MAX_DELAY_MS ? dev->delay_ms * 2 : MAX_DELAY_MS;
	return true;
}

/* Milliseconds until the next device is due, -1 when none waits. */
int pending_timeout(const struct pending *p, long long now)
{
	long long next = -1;
	unsigned int i;

	for (i = 0; i < p->nr; i++)
		if (next < 0 || p->devs[i].due_ms < next)
			next = p->devs[i].due_ms;
	if (next < 0)
		return -1;
	return next <= now ? 0 : (int)(next - now);
}

void pending_free(struct pending *p)
{
	free(p->devs);
	p->devs = NULL;
	p->nr = 0;
}
