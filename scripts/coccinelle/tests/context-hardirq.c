// SPDX-License-Identifier: GPL-2.0
// Must catch: process and softirq slots in hard-irq handlers.
#include <linux/highmem.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>

struct dev {
	struct page *page;
	struct irq_work work;
	struct hrtimer timer;
	u32 sum;
};

static irqreturn_t dev_irq(int irq, void *data)
{
	struct dev *d = data;
	u32 *p = kmap_atomic(d->page, KM_USER0);	// EXPECT: context-hardirq

	d->sum = p[0];
	kunmap_atomic(p, KM_USER0);
	return IRQ_HANDLED;
}

static irqreturn_t dev_quick_check(int irq, void *data)
{
	struct dev *d = data;
	u32 *p;

	p = kmap_atomic(d->page, KM_SOFTIRQ0);	// EXPECT: context-hardirq
	d->sum = p[0];
	kunmap_atomic(p, KM_SOFTIRQ0);
	return IRQ_WAKE_THREAD;
}

static irqreturn_t dev_thread(int irq, void *data)
{
	struct dev *d = data;
	u32 *p = kmap_atomic(d->page, KM_USER0);

	d->sum = p[0];
	kunmap_atomic(p, KM_USER0);
	return IRQ_HANDLED;
}

static void dev_work(struct irq_work *work)
{
	struct dev *d = container_of(work, struct dev, work);
	u32 *p;

	p = kmap_atomic_prot(d->page, KM_PTE0, PAGE_KERNEL_RO);	// EXPECT: context-hardirq
	d->sum = p[0];
	kunmap_atomic(p, KM_PTE0);
}

static enum hrtimer_restart dev_tick(struct hrtimer *t)
{
	struct dev *d = container_of(t, struct dev, timer);
	u32 *p;

	p = kmap_atomic(d->page, KM_USER1);	// EXPECT: context-hardirq
	d->sum = p[0];
	kunmap_atomic(p, KM_USER1);
	return HRTIMER_NORESTART;
}

static int dev_probe(struct device *dev, struct dev *d, int irq)
{
	init_irq_work(&d->work, dev_work);
	hrtimer_init(&d->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	d->timer.function = dev_tick;
	if (devm_request_irq(dev, irq, dev_irq, 0, "dev", d))
		return -EBUSY;
	return request_threaded_irq(irq + 1, dev_quick_check, dev_thread, 0, "dev", d);
}
