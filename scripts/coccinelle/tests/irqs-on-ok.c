// SPDX-License-Identifier: GPL-2.0
// Must leave alone: the interrupt slots under local_irq_save(),
// spin_lock_irqsave(), spin_lock_irq(), every other call that turns
// interrupts off, in a helper that asserts interrupts off, and in a helper
// a hard-irq handler calls.
#include <linux/highmem.h>
#include <linux/interrupt.h>
#include <linux/spinlock.h>

struct dev {
	struct page *page, *bounce;
	spinlock_t lock;
	raw_spinlock_t raw;
	rwlock_t rw;
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

/* Every call that turns interrupts off counts, each on its own. */
static void dev_fill_write_lock_irq(struct dev *d)
{
	unsigned long flags = 0;
	u32 *p;

	write_lock_irq(&d->rw);
	p = kmap_atomic(d->page, KM_IRQ0);
	p[0] = d->sum + flags;
	kunmap_atomic(p, KM_IRQ0);
	write_unlock_irq(&d->rw);
}

static void dev_fill_read_lock_irq(struct dev *d)
{
	unsigned long flags = 0;
	u32 *p;

	read_lock_irq(&d->rw);
	p = kmap_atomic(d->page, KM_IRQ0);
	p[0] = d->sum + flags;
	kunmap_atomic(p, KM_IRQ0);
	read_unlock_irq(&d->rw);
}

static void dev_fill_read_lock_irqsave(struct dev *d)
{
	unsigned long flags = 0;
	u32 *p;

	read_lock_irqsave(&d->rw, flags);
	p = kmap_atomic(d->page, KM_IRQ0);
	p[0] = d->sum + flags;
	kunmap_atomic(p, KM_IRQ0);
	read_unlock_irqrestore(&d->rw, flags);
}

static void dev_fill_write_lock_irqsave(struct dev *d)
{
	unsigned long flags = 0;
	u32 *p;

	write_lock_irqsave(&d->rw, flags);
	p = kmap_atomic(d->page, KM_IRQ0);
	p[0] = d->sum + flags;
	kunmap_atomic(p, KM_IRQ0);
	write_unlock_irqrestore(&d->rw, flags);
}

static void dev_fill_spin_lock_irqsave_nested(struct dev *d)
{
	unsigned long flags = 0;
	u32 *p;

	spin_lock_irqsave_nested(&d->lock, flags, 1);
	p = kmap_atomic(d->page, KM_IRQ0);
	p[0] = d->sum + flags;
	kunmap_atomic(p, KM_IRQ0);
	spin_unlock_irqrestore(&d->lock, flags);
}

static void dev_fill_raw_spin_lock_irqsave(struct dev *d)
{
	unsigned long flags = 0;
	u32 *p;

	raw_spin_lock_irqsave(&d->raw, flags);
	p = kmap_atomic(d->page, KM_IRQ0);
	p[0] = d->sum + flags;
	kunmap_atomic(p, KM_IRQ0);
	raw_spin_unlock_irqrestore(&d->raw, flags);
}

static void dev_fill_raw_spin_lock_irqsave_nested(struct dev *d)
{
	unsigned long flags = 0;
	u32 *p;

	raw_spin_lock_irqsave_nested(&d->raw, flags, 1);
	p = kmap_atomic(d->page, KM_IRQ0);
	p[0] = d->sum + flags;
	kunmap_atomic(p, KM_IRQ0);
	raw_spin_unlock_irqrestore(&d->raw, flags);
}

static void dev_fill_raw_local_irq_save(struct dev *d)
{
	unsigned long flags = 0;
	u32 *p;

	raw_local_irq_save(flags);
	p = kmap_atomic(d->page, KM_IRQ0);
	p[0] = d->sum + flags;
	kunmap_atomic(p, KM_IRQ0);
	raw_local_irq_restore(flags);
}

static void dev_fill_raw_local_irq_disable(struct dev *d)
{
	unsigned long flags = 0;
	u32 *p;

	raw_local_irq_disable();
	p = kmap_atomic(d->page, KM_IRQ0);
	p[0] = d->sum + flags;
	kunmap_atomic(p, KM_IRQ0);
	raw_local_irq_enable();
}

static void dev_fill_trylock(struct dev *d)
{
	unsigned long flags;
	u32 *p;

	if (!spin_trylock_irqsave(&d->lock, flags))
		return;
	p = kmap_atomic(d->page, KM_BIO_SRC_IRQ);
	p[0] = d->sum;
	kunmap_atomic(p, KM_BIO_SRC_IRQ);
	spin_unlock_irqrestore(&d->lock, flags);
}

/* WARN_ON*(!irqs_disabled()) says its callers turn interrupts off. */
static void dev_fill_warned(struct dev *d)
{
	u32 *p;

	WARN_ON_ONCE(!irqs_disabled());
	p = kmap_atomic(d->page, KM_IRQ1);
	p[0] = d->sum;
	kunmap_atomic(p, KM_IRQ1);
}

/* A hard-irq handler's helper: the restore leaves interrupts off. */
static void dev_ack_locked(struct dev *d)
{
	unsigned long flags;
	u32 *p;

	spin_lock_irqsave(&d->lock, flags);
	d->sum++;
	spin_unlock_irqrestore(&d->lock, flags);
	p = kmap_atomic(d->page, KM_IRQ1);
	p[1] = d->sum;
	kunmap_atomic(p, KM_IRQ1);
}

static irqreturn_t dev_irq(int irq, void *data)
{
	dev_ack(data);
	dev_ack_locked(data);
	return IRQ_HANDLED;
}

static int dev_probe(struct dev *d, int irq)
{
	return request_irq(irq, dev_irq, 0, "dev", d);
}
