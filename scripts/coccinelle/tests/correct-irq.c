// SPDX-License-Identifier: GPL-2.0
// Correct 2.6 usage: an interrupt handler with KM_IRQ0.
#include <linux/highmem.h>
#include <linux/interrupt.h>

struct dev {
	struct page *ring;
	u32 status;
};

static irqreturn_t dev_interrupt(int irq, void *data)
{
	struct dev *d = data;
	u32 *ring = kmap_atomic(d->ring, KM_IRQ0);

	d->status = ring[0];
	ring[0] = 0;
	kunmap_atomic(ring, KM_IRQ0);
	return IRQ_HANDLED;
}

int dev_open(struct dev *d, int irq)
{
	return request_irq(irq, dev_interrupt, IRQF_SHARED, "dev", d);
}
