// SPDX-License-Identifier: GPL-2.0
// Must catch: functions named like ones irqs-on-ok.c calls with interrupts
// off (dev_ack(), from its hard-irq handler) or that assert them off
// (dev_fill_locked()): another file's static functions of the same name
// are other functions, and these are called with interrupts on.
#include <linux/highmem.h>

struct dev {
	struct page *page;
	u32 sum;
};

static void dev_ack(struct dev *d)
{
	u32 *p = kmap_atomic(d->page, KM_IRQ0);	// EXPECT: irqs-on

	p[1] = 0;
	kunmap_atomic(p, KM_IRQ0);
}

static void dev_fill_locked(struct dev *d)
{
	u32 *p;

	p = kmap_atomic(d->page, KM_IRQ1);	// EXPECT: irqs-on
	p[0] = d->sum;
	kunmap_atomic(p, KM_IRQ1);
}

void dev_kick(struct dev *d)
{
	dev_ack(d);
	dev_fill_locked(d);
}
