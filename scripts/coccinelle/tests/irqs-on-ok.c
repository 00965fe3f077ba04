// SPDX-License-Identifier: GPL-2.0
// Must leave alone: the interrupt slots under local_irq_save(),
// spin_lock_irqsave(), spin_lock_irq(), in a helper that asserts
// interrupts off, and in a helper a hard-irq handler calls.
#include <linux/highmem.h>
#include <linux/interrupt.h>
#include <linux/spinlock.h>

struct dev {
	struct page *page, *bounce;
	spinlock_t lock;
	u32 sum;
};

static void dev_poll(struct dev *d)
{
	unsigned long flags;
	u32 *p;

	local_irq_save(flags);
	p = kmap_atomic(d->page, KM_IRQ0);
	d->sum = p[0];
	kunmap_atomic(p, KM_IRQ0);
	local_irq_restore(flags);
}

static void dev_fill(struct dev *d)
{
	unsigned long flags;
	u32 *p;

	spin_lock_irqsave(&d->lock, flags);
	p = kmap_atomic(d->page, KM_BIO_DST_IRQ);
	p[0] = d->sum;
	kunmap_atomic(p, KM_BIO_DST_IRQ);
	spin_unlock_irqrestore(&d->lock, flags);

	spin_lock_irq(&d->lock);
	p = kmap_atomic(d->bounce, KM_BOUNCE_READ);
	p[0] = d->sum;
	kunmap_atomic(p, KM_BOUNCE_READ);
	spin_unlock_irq(&d->lock);
}

/* Its callers disable interrupts. */
static void dev_fill_locked(struct dev *d)
{
	u32 *p;

	lockdep_assert_irqs_disabled();
	p = kmap_atomic(d->page, KM_IRQ1);
	p[0] = d->sum;
	kunmap_atomic(p, KM_IRQ1);
}

static void dev_ack(struct dev *d)
{
	u32 *p = kmap_atomic(d->page, KM_IRQ0);

	p[1] = 0;
	kunmap_atomic(p, KM_IRQ0);
}

static irqreturn_t dev_irq(int irq, void *data)
{
	dev_ack(data);
	return IRQ_HANDLED;
}

static int dev_probe(struct dev *d, int irq)
{
	return request_irq(irq, dev_irq, 0, "dev", d);
}
