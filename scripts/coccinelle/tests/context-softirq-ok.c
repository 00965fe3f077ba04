// SPDX-License-Identifier: GPL-2.0
// Must leave alone: the softirq slots in a tasklet, a timer and a *_SOFT
// hrtimer, and a helper of unknown context.
#include <linux/highmem.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/timer.h>

struct dev {
	struct page *page;
	struct tasklet_struct tasklet;
	struct timer_list timer;
	struct hrtimer soft;
	u32 sum;
};

static void dev_tasklet(struct tasklet_struct *t)
{
	struct dev *d = from_tasklet(d, t, tasklet);
	u32 *p;

	p = kmap_atomic(d->page, KM_SOFTIRQ0);
	d->sum = p[0];
	kunmap_atomic(p, KM_SOFTIRQ0);
}

static void dev_timer(struct timer_list *t)
{
	struct dev *d = from_timer(d, t, timer);
	u32 *p = kmap_atomic(d->page, KM_SKB_DATA_SOFTIRQ);

	d->sum = p[0];
	kunmap_atomic(p, KM_SKB_DATA_SOFTIRQ);
}

/* Called from elsewhere: its context is not known here. */
u32 dev_peek(struct page *page)
{
	u32 *p = kmap_atomic(page, KM_SOFTIRQ1);
	u32 v = p[0];

	kunmap_atomic(p, KM_SOFTIRQ1);
	return v;
}

/* A *_SOFT hrtimer runs in a softirq: the softirq slots are its own. */
static enum hrtimer_restart dev_soft_tick(struct hrtimer *t)
{
	struct dev *d = container_of(t, struct dev, soft);
	u32 *p = kmap_atomic(d->page, KM_SOFTIRQ0);

	d->sum = p[0];
	kunmap_atomic(p, KM_SOFTIRQ0);
	return HRTIMER_NORESTART;
}

static void dev_start(struct dev *d)
{
	struct hrtimer *t = &d->soft;

	hrtimer_init(t, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_SOFT);
	t->function = dev_soft_tick;
	tasklet_setup(&d->tasklet, dev_tasklet);
	timer_setup(&d->timer, dev_timer, 0);
}

/*
 * Called from a softirq and from a task (crypto's idiom): a GFP mask that
 * sleeps only on one branch does not make the function process context.
 */
int dev_hash_chunk(struct dev *d, bool may_sleep)
{
	u8 *tmp = kmalloc(64, may_sleep ? GFP_KERNEL : GFP_ATOMIC);
	u32 *p;

	if (!tmp)
		return -ENOMEM;
	p = kmap_atomic(d->page, KM_SOFTIRQ0);
	tmp[0] = p[0];
	kunmap_atomic(p, KM_SOFTIRQ0);
	kfree(tmp);
	return 0;
}
