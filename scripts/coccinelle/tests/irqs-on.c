// SPDX-License-Identifier: GPL-2.0
// Must catch: the interrupt slots with interrupts on.
#include <linux/bio.h>
#include <linux/highmem.h>
#include <linux/spinlock.h>

struct dev {
	struct page *page;
	spinlock_t lock;
	u32 sum;
};

static void dev_copy_bvec(struct bio_vec *bv, void *buf)
{
	char *src = kmap_atomic(bv->bv_page, KM_BIO_SRC_IRQ);	// EXPECT: irqs-on

	memcpy(buf, src + bv->bv_offset, bv->bv_len);
	kunmap_atomic(src, KM_BIO_SRC_IRQ);
}

static void dev_poll(struct dev *d)
{
	unsigned long flags;
	u32 *p;

	p = kmap_atomic(d->page, KM_IRQ0);	// EXPECT: irqs-on
	d->sum = p[0];
	kunmap_atomic(p, KM_IRQ0);
	spin_lock_irqsave(&d->lock, flags);
	d->sum++;
	spin_unlock_irqrestore(&d->lock, flags);
}

/* Interrupts off on one path only. */
static void dev_bounce(struct dev *d, bool locked)
{
	u32 *p;

	if (locked)
		local_irq_disable();
	p = kmap_atomic(d->page, KM_BOUNCE_READ);	// EXPECT: irqs-on
	d->sum = p[0];
	kunmap_atomic(p, KM_BOUNCE_READ);
	if (locked)
		local_irq_enable();
}

/* Interrupts back on before the map. */
static void dev_after_unlock(struct dev *d)
{
	unsigned long flags;
	u32 *p;

	spin_lock_irqsave(&d->lock, flags);
	d->sum++;
	spin_unlock_irqrestore(&d->lock, flags);
	p = kmap_atomic(d->page, KM_IRQ0);	// EXPECT: irqs-on
	p[0] = d->sum;
	kunmap_atomic(p, KM_IRQ0);
}

static void dev_after_enable(struct dev *d)
{
	u32 *p;

	local_irq_disable();
	d->sum++;
	local_irq_enable();
	p = kmap_atomic(d->page, KM_BIO_DST_IRQ);	// EXPECT: irqs-on
	p[0] = d->sum;
	kunmap_atomic(p, KM_BIO_DST_IRQ);
}

/* irqs_disabled() in a test is no promise about the path that maps. */
static void dev_maybe(struct dev *d)
{
	u32 *p;

	if (irqs_disabled())
		d->sum = 0;
	p = kmap_atomic(d->page, KM_IRQ1);	// EXPECT: irqs-on
	p[0] = d->sum;
	kunmap_atomic(p, KM_IRQ1);
}
