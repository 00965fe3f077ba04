// SPDX-License-Identifier: GPL-2.0
// Correct 2.6 usage: a tasklet with KM_SOFTIRQ0.
#include <linux/highmem.h>
#include <linux/interrupt.h>

struct dev {
	struct page *rx;
	struct tasklet_struct rx_tasklet;
	u32 csum;
};

static void dev_rx(unsigned long data)
{
	struct dev *d = (struct dev *)data;
	u32 *p;
	int i;

	p = kmap_atomic(d->rx, KM_SOFTIRQ0);
	for (i = 0; i < PAGE_SIZE / 4; i++)
		d->csum += p[i];
	kunmap_atomic(p, KM_SOFTIRQ0);
}

void dev_setup(struct dev *d)
{
	tasklet_init(&d->rx_tasklet, dev_rx, (unsigned long)d);
}
