// SPDX-License-Identifier: GPL-2.0
// Must catch: softirq slots in process context with bottom halves on.
#include <linux/highmem.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

struct dev {
	struct page *page;
	struct work_struct work;
	struct mutex lock;	/* serialises readers */
	spinlock_t rx_lock;	/* taken by the rx softirq too */
	u32 sum;
};

static void dev_work(struct work_struct *w)
{
	struct dev *d = container_of(w, struct dev, work);
	u32 *p;

	p = kmap_atomic(d->page, KM_SOFTIRQ0);	// EXPECT: context-process
	d->sum = p[0];
	kunmap_atomic(p, KM_SOFTIRQ0);
}

static int dev_thread(void *data)
{
	struct dev *d = data;
	u32 *p = kmap_atomic(d->page, KM_SKB_SUNRPC_DATA);	// EXPECT: context-process

	d->sum = p[0];
	kunmap_atomic(p, KM_SKB_SUNRPC_DATA);
	return 0;
}

/* It takes a mutex: it runs in process context. */
static u32 dev_read(struct dev *d)
{
	u32 *p, v;

	mutex_lock(&d->lock);
	p = kmap_atomic(d->page, KM_SOFTIRQ1);	// EXPECT: context-process
	v = p[0];
	kunmap_atomic(p, KM_SOFTIRQ1);
	mutex_unlock(&d->lock);
	return v;
}

/* They sleep (the list kmap_atomic_sleep.cocci uses): process context. */
static void dev_grow(struct dev *d, void **buf)
{
	u32 *p;

	*buf = kzalloc(PAGE_SIZE, GFP_KERNEL | __GFP_NOWARN);
	p = kmap_atomic(d->page, KM_SOFTIRQ0);	// EXPECT: context-process
	d->sum = p[0];
	kunmap_atomic(p, KM_SOFTIRQ0);
}

static void dev_yield(struct dev *d)
{
	u32 *p;

	cond_resched();
	p = kmap_atomic(d->page, KM_SKB_DATA_SOFTIRQ);	// EXPECT: context-process
	d->sum = p[0];
	kunmap_atomic(p, KM_SKB_DATA_SOFTIRQ);
}

static void dev_wait(struct dev *d, wait_queue_head_t *wq)
{
	u32 *p;

	wait_event_interruptible(*wq, d->sum);
	p = kmap_atomic(d->page, KM_SOFTIRQ1);	// EXPECT: context-process
	d->sum = p[0];
	kunmap_atomic(p, KM_SOFTIRQ1);
}

/* The outer section closed too before the map. */
static int dev_closed_thread(void *data)
{
	struct dev *d = data;
	u32 *p;

	local_bh_disable();
	spin_lock_bh(&d->rx_lock);
	spin_unlock_bh(&d->rx_lock);
	local_bh_enable();
	p = kmap_atomic(d->page, KM_SOFTIRQ1);	// EXPECT: context-process
	d->sum = p[0];
	kunmap_atomic(p, KM_SOFTIRQ1);
	return 0;
}

static void dev_start(struct dev *d)
{
	INIT_WORK(&d->work, dev_work);
	kthread_run(dev_thread, d, "dev");
	kthread_run(dev_bh_thread, d, "dev_bh");
	kthread_run(dev_closed_thread, d, "dev_closed");
}

/* Bottom halves turned back on before the map. */
static int dev_bh_thread(void *data)
{
	struct dev *d = data;
	u32 *p;

	local_bh_disable();
	d->sum++;
	local_bh_enable();
	p = kmap_atomic(d->page, KM_SOFTIRQ0);	// EXPECT: context-process
	d->sum = p[0];
	kunmap_atomic(p, KM_SOFTIRQ0);
	return 0;
}
