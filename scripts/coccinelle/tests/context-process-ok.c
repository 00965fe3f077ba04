// SPDX-License-Identifier: GPL-2.0
// Must leave alone: softirq slots in process context with bottom halves
// off (2.6's networking code did this), and the user slots.
#include <linux/highmem.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

struct dev {
	struct page *page;
	struct work_struct work;
	struct mutex lock;	/* serialises readers */
	spinlock_t rx_lock;	/* taken by the rx softirq too */
	rwlock_t rw;
	u32 sum;
};

static void dev_work(struct work_struct *w)
{
	struct dev *d = container_of(w, struct dev, work);
	u32 *p;

	local_bh_disable();
	p = kmap_atomic(d->page, KM_SOFTIRQ0);
	d->sum = p[0];
	kunmap_atomic(p, KM_SOFTIRQ0);
	local_bh_enable();
}

static u32 dev_read(struct dev *d)
{
	u32 *p, v;

	mutex_lock(&d->lock);
	spin_lock_bh(&d->rx_lock);
	p = kmap_atomic(d->page, KM_SKB_DATA_SOFTIRQ);
	v = p[0];
	kunmap_atomic(p, KM_SKB_DATA_SOFTIRQ);
	spin_unlock_bh(&d->rx_lock);
	p = kmap_atomic(d->page, KM_USER0);
	v += p[1];
	kunmap_atomic(p, KM_USER0);
	mutex_unlock(&d->lock);
	return v;
}

/* Interrupts off keep bottom halves off too. */
static int dev_thread(void *data)
{
	struct dev *d = data;
	u32 *p;

	write_lock_irq(&d->rw);
	p = kmap_atomic(d->page, KM_SOFTIRQ1);
	d->sum = p[0];
	kunmap_atomic(p, KM_SOFTIRQ1);
	write_unlock_irq(&d->rw);
	return 0;
}

/* Bottom halves on again between two sections, off again for the map. */
static int dev_bh_thread(void *data)
{
	struct dev *d = data;
	u32 *p;

	spin_lock_bh(&d->rx_lock);
	d->sum++;
	spin_unlock_bh(&d->rx_lock);
	cond_resched();
	spin_lock_bh(&d->rx_lock);
	p = kmap_atomic(d->page, KM_SOFTIRQ0);
	d->sum = p[0];
	kunmap_atomic(p, KM_SOFTIRQ0);
	spin_unlock_bh(&d->rx_lock);
	return 0;
}

/* An inner bottom-half section ends inside an outer one: still off. */
static int dev_nested_thread(void *data)
{
	struct dev *d = data;
	u32 *p;

	local_bh_disable();
	spin_lock_bh(&d->rx_lock);
	d->sum++;
	spin_unlock_bh(&d->rx_lock);
	p = kmap_atomic(d->page, KM_SOFTIRQ0);
	d->sum = p[0];
	kunmap_atomic(p, KM_SOFTIRQ0);
	local_bh_enable();
	return 0;
}

static int dev_rcu_bh_thread(void *data)
{
	struct dev *d = data;
	u32 *p;

	rcu_read_lock_bh();
	spin_lock_bh(&d->rx_lock);
	d->sum++;
	spin_unlock_bh(&d->rx_lock);
	p = kmap_atomic(d->page, KM_SKB_DATA_SOFTIRQ);
	d->sum = p[0];
	kunmap_atomic(p, KM_SKB_DATA_SOFTIRQ);
	rcu_read_unlock_bh();
	return 0;
}

/* Two inner sections in turn, and one in a loop, inside an outer one. */
static int dev_two_inner_thread(void *data)
{
	struct dev *d = data;
	u32 *p;
	int i;

	local_bh_disable();
	spin_lock_bh(&d->rx_lock);
	d->sum++;
	spin_unlock_bh(&d->rx_lock);
	for (i = 0; i < 4; i++) {
		spin_lock_bh(&d->rx_lock);
		d->sum++;
		spin_unlock_bh(&d->rx_lock);
	}
	p = kmap_atomic(d->page, KM_SOFTIRQ0);
	d->sum = p[0];
	kunmap_atomic(p, KM_SOFTIRQ0);
	local_bh_enable();
	return 0;
}

static void dev_start(struct dev *d)
{
	INIT_WORK(&d->work, dev_work);
	kthread_run(dev_thread, d, "dev");
	kthread_run(dev_bh_thread, d, "dev_bh");
	kthread_run(dev_nested_thread, d, "dev_nested");
	kthread_run(dev_rcu_bh_thread, d, "dev_rcu_bh");
	kthread_run(dev_two_inner_thread, d, "dev_two_inner");
}
