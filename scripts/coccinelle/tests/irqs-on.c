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
