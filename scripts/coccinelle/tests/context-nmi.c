// SPDX-License-Identifier: GPL-2.0
// Must catch: any typed slot in an NMI handler; must leave alone:
// kmap_local_page() there, and a helper whose context is not known.
#include <linux/highmem.h>
#include <linux/interrupt.h>
#include <asm/nmi.h>

struct dev {
	struct page *page;
	u32 sum;
};

static struct dev the_dev;

static int dev_nmi(unsigned int cmd, struct pt_regs *regs)
{
	u32 *p = kmap_atomic(the_dev.page, KM_IRQ0);	// EXPECT: context-nmi

	the_dev.sum = p[0];
	kunmap_atomic(p, KM_IRQ0);
	return NMI_HANDLED;
}

static irqreturn_t dev_pseudo_nmi(int irq, void *data)
{
	struct dev *d = data;
	u32 *p;

	p = kmap_atomic(d->page, KM_USER0);	// EXPECT: context-nmi
	d->sum = p[0];
	kunmap_atomic(p, KM_USER0);
	return IRQ_HANDLED;
}

static int dev_nmi_local(unsigned int cmd, struct pt_regs *regs)
{
	u32 *p = kmap_local_page(the_dev.page);

	the_dev.sum = p[0];
	kunmap_local(p);
	return NMI_HANDLED;
}

static int dev_setup(struct dev *d, int irq)
{
	register_nmi_handler(NMI_LOCAL, dev_nmi, 0, "dev");
	register_nmi_handler(NMI_UNKNOWN, dev_nmi_local, 0, "dev_local");
	return request_nmi(irq, dev_pseudo_nmi, 0, "dev", d);
}
