// SPDX-License-Identifier: GPL-2.0
// Must catch: the slots 2.6.33 added, outside their contexts: KM_NMI and
// KM_KDB in a hard-irq handler, KM_SYNC_ICACHE and KM_NMI_PTE in a tasklet,
// KM_IRQ_PTE with interrupts on, KM_USER0 in an NMI handler, KM_NMI and
// KM_KDB in a work item.
#include <linux/highmem.h>
#include <linux/interrupt.h>
#include <linux/workqueue.h>
#include <asm/nmi.h>

struct dev {
	struct page *page;
	struct tasklet_struct tasklet;
	struct work_struct work;
	u32 sum;
};

static struct dev the_dev;

static irqreturn_t dev_irq(int irq, void *data)
{
	struct dev *d = data;
	u32 *p = kmap_atomic(d->page, KM_NMI);	// EXPECT: context-hardirq
	u32 *k = kmap_atomic(d->page, KM_KDB);	// EXPECT: context-hardirq

	d->sum = p[0] + k[0];
	kunmap_atomic(k, KM_KDB);
	kunmap_atomic(p, KM_NMI);
	return IRQ_HANDLED;
}

static void dev_tasklet(struct tasklet_struct *t)
{
	struct dev *d = from_tasklet(d, t, tasklet);
	u32 *p = kmap_atomic(d->page, KM_SYNC_ICACHE);	// EXPECT: context-softirq
	u32 *q = kmap_atomic(d->page, KM_NMI_PTE);	// EXPECT: context-softirq

	d->sum = p[0] + q[0];
	kunmap_atomic(q, KM_NMI_PTE);
	kunmap_atomic(p, KM_SYNC_ICACHE);
}

static u32 dev_peek_pte(struct page *pt)
{
	u32 *p = kmap_atomic(pt, KM_IRQ_PTE);	// EXPECT: irqs-on
	u32 v = p[0];

	kunmap_atomic(p, KM_IRQ_PTE);
	return v;
}

static int dev_nmi(unsigned int cmd, struct pt_regs *regs)
{
	u32 *p = kmap_atomic(the_dev.page, KM_USER0);	// EXPECT: context-nmi

	the_dev.sum = p[0];
	kunmap_atomic(p, KM_USER0);
	return NMI_HANDLED;
}

static void dev_work(struct work_struct *w)
{
	struct dev *d = container_of(w, struct dev, work);
	u32 *p = kmap_atomic(d->page, KM_NMI);	// EXPECT: context-process
	u32 *k = kmap_atomic(d->page, KM_KDB);	// EXPECT: context-process

	d->sum = p[0] + k[0];
	kunmap_atomic(k, KM_KDB);
	kunmap_atomic(p, KM_NMI);
}

static int dev_setup(struct dev *d, int irq)
{
	INIT_WORK(&d->work, dev_work);
	tasklet_setup(&d->tasklet, dev_tasklet);
	register_nmi_handler(NMI_LOCAL, dev_nmi, 0, "dev");
	return request_irq(irq, dev_irq, 0, "dev", d);
}
