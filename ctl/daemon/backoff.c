// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon's backoff against whoever fights it over a device's IRQs. A
 * foreign change that comes within BACKOFF_FIGHT_WINDOW_MS of the daemon's
 * last re-apply answering such a change means its re-apply was undone at
 * once: the next answer waits BACKOFF_FIRST_MS, then twice as long each
 * time the fight goes on, up to BACKOFF_MAX_MS. A change after a quiet
 * spell is answered at once again.
 */
#include <errno.h>
#include <stdlib.h>

#include "daemon/backoff.h"

static struct backoff_dev *find(const struct backoff *b, dev_key key)
{
	unsigned int i;

	for (i = 0; i < b->nr; i++)
		if (b->devs[i].key == key)
			return &b->devs[i];
	return NULL;
}

/*
 * A foreign change of @key at @now: *@delay_ms is how long to wait
 * before re-applying its rule (0: at once); *@started is true when this
 * change begins a fight. 0 or -ENOMEM.
 */
int backoff_change(struct backoff *b, dev_key key, long long now,
		   unsigned int *delay_ms, bool *started)
{
	struct backoff_dev *d = find(b, key), *grown;

	if (!d) {
		grown = realloc(b->devs, (b->nr + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		b->devs = grown;
		d = &b->devs[b->nr++];
		*d = (struct backoff_dev){ .key = key };
	}
	*started = false;
	if (!d->applied || now - d->applied_ms >= BACKOFF_FIGHT_WINDOW_MS) {
		d->delay_ms = 0;
	} else if (!d->delay_ms) {
		d->delay_ms = BACKOFF_FIRST_MS;
		*started = true;
	} else if (!d->answering) {
		/* Not while an answer waits: one undone re-apply, one doubling. */
		d->delay_ms = d->delay_ms > BACKOFF_MAX_MS / 2 ? BACKOFF_MAX_MS : 2 * d->delay_ms;
	}
	d->answering = true;
	*delay_ms = d->delay_ms;
	return 0;
}

/* The daemon applied @key's rule at @now. */
void backoff_applied(struct backoff *b, dev_key key, long long now)
{
	struct backoff_dev *d = find(b, key);

	if (!d || !d->answering)
		return;
	d->answering = false;
	d->applied = true;
	d->applied_ms = now;
}

/* Whether the last foreign change of @key was part of a fight. */
bool backoff_fighting(const struct backoff *b, dev_key key)
{
	const struct backoff_dev *d = find(b, key);

	return d && d->delay_ms;
}

/* The device went away: a new one under its key starts calm. */
void backoff_forget(struct backoff *b, dev_key key)
{
	struct backoff_dev *d = find(b, key);

	if (d)
		*d = b->devs[--b->nr];
}

void backoff_free(struct backoff *b)
{
	free(b->devs);
	b->devs = NULL;
	b->nr = 0;
}
