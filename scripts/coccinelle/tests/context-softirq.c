// SPDX-License-Identifier: GPL-2.0
// Must catch: process slots in a tasklet, a timer and a *_SOFT hrtimer.
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

	p = kmap_atomic(d->page, KM_USER0);	// EXPECT: context-softirq
	d->sum = p[0];
	kunmap_atomic(p, KM_USER0);
}

static void dev_old_tasklet(unsigned long data)
{
	struct dev *d = (struct dev *)data;
	u32 *p = kmap_atomic(d->page, KM_PTE1);	// EXPECT: context-softirq

	d->sum = p[0];
	kunmap_atomic(p, KM_PTE1);
}

static void dev_timer(struct timer_list *t)
{
	struct dev *d = from_timer(d, t, timer);
	u32 *p;

	p = kmap_atomic(d->page, KM_USER1);	// EXPECT: context-softirq
	d->sum = p[0];
	kunmap_atomic(p, KM_USER1);
}

/* HRTIMER_MODE_REL_SOFT: it runs in a softirq, not a hard interrupt. */
static enum hrtimer_restart dev_soft_tick(struct hrtimer *t)
{
	struct dev *d = container_of(t, struct dev, soft);
	u32 *p;

	p = kmap_atomic(d->page, KM_USER0);	// EXPECT: context-softirq
	d->sum = p[0];
	kunmap_atomic(p, KM_USER0);
	return HRTIMER_NORESTART;
}

static void dev_start(struct dev *d, struct tasklet_struct *old)
{
	hrtimer_init(&d->soft, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	d->soft.function = dev_soft_tick;
	tasklet_setup(&d->tasklet, dev_tasklet);
	tasklet_init(old, dev_old_tasklet, (unsigned long)d);
	timer_setup(&d->timer, dev_timer, 0);
}

/* A NAPI poll function and file-scope tasklets and timers: softirqs too. */
static struct dev the_dev;

static int dev_poll(struct napi_struct *napi, int budget)
{
	u32 *p = kmap_atomic(the_dev.page, KM_USER0);	// EXPECT: context-softirq

	the_dev.sum = p[0];
	kunmap_atomic(p, KM_USER0);
	return 0;
}

static void dev_static_tasklet(struct tasklet_struct *t)
{
	u32 *p = kmap_atomic(the_dev.page, KM_USER1);	// EXPECT: context-softirq

	the_dev.sum = p[0];
	kunmap_atomic(p, KM_USER1);
}

static void dev_static_timer(struct timer_list *t)
{
	u32 *p = kmap_atomic(the_dev.page, KM_PTE0);	// EXPECT: context-softirq

	the_dev.sum = p[0];
	kunmap_atomic(p, KM_PTE0);
}

static DECLARE_TASKLET(dev_static, dev_static_tasklet);
static DEFINE_TIMER(dev_static_tmr, dev_static_timer);

static void dev_net_setup(struct net_device *nd, struct napi_struct *napi)
{
	netif_napi_add(nd, napi, dev_poll);
}
