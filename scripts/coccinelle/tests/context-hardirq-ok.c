// SPDX-License-Identifier: GPL-2.0
// Must leave alone: the interrupt slots in hard-irq handlers, and the
// process slots in a threaded irq's thread function.
#include <linux/highmem.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>

struct dev {
	struct page *page, *bounce;
	struct irq_work work;
	u32 sum;
};

static irqreturn_t dev_irq(int irq, void *data)
{
	struct dev *d = data;
	u32 *p = kmap_atomic(d->page, KM_IRQ0);
	u32 *b;

	b = kmap_atomic(d->bounce, KM_BOUNCE_READ);
	b[0] = p[0];
	kunmap_atomic(b, KM_BOUNCE_READ);
	kunmap_atomic(p, KM_IRQ0);
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

	p = kmap_atomic(d->page, KM_IRQ1);
	d->sum = p[0];
	kunmap_atomic(p, KM_IRQ1);
}

static int dev_probe(struct dev *d, int irq)
{
	init_irq_work(&d->work, dev_work);
	return request_threaded_irq(irq, dev_irq, dev_thread, 0, "dev", d);
}
