// SPDX-License-Identifier: GPL-2.0
// Must leave alone: the slots 2.6.33 added, used as 2.6 used them:
// KM_NMI and KM_NMI_PTE in an NMI handler (perf's copy_from_user_nmi()
// picked KM_NMI by in_nmi()) and in a helper whose caller may be one,
// KM_IRQ_PTE in a hard-irq handler, KM_KDB where kdb read memory (in the
// debugger, which its helpers do not say), and KM_SYNC_ICACHE and
// KM_UML_USERCOPY in process context.
#include <linux/highmem.h>
#include <linux/interrupt.h>
#include <linux/delay.h>
#include <linux/uaccess.h>
#include <asm/nmi.h>

struct dev {
	struct page *page, *pt;
	u32 sum;
};

static struct dev the_dev;

static unsigned long copy_from_page_nmi(void *to, struct page *page, unsigned long n)
{
	int type = in_nmi() ? KM_NMI : KM_IRQ0;
	void *map = kmap_atomic(page, type);

	memcpy(to, map, n);
	kunmap_atomic(map, type);
	return n;
}

static int dev_nmi(unsigned int cmd, struct pt_regs *regs)
{
	u32 *p = kmap_atomic(the_dev.page, KM_NMI);
	u32 *pte = kmap_atomic(the_dev.pt, KM_NMI_PTE);

	the_dev.sum = p[0] + pte[0];
	kunmap_atomic(pte, KM_NMI_PTE);
	kunmap_atomic(p, KM_NMI);
	copy_from_page_nmi(&the_dev.sum, the_dev.page, sizeof(the_dev.sum));
	return NMI_HANDLED;
}

static irqreturn_t dev_irq(int irq, void *data)
{
	struct dev *d = data;
	u32 *pte = kmap_atomic(d->pt, KM_IRQ_PTE);

	d->sum = pte[0];
	kunmap_atomic(pte, KM_IRQ_PTE);
	return IRQ_HANDLED;
}

/* A helper an NMI handler elsewhere calls: its context is not known here. */
u32 dev_sample_pte(struct page *pt)
{
	u32 *p = kmap_atomic(pt, KM_NMI_PTE);
	u32 v = p[0];

	kunmap_atomic(p, KM_NMI_PTE);
	return v;
}

/* 2.6.35's kdb_getphys(), called by the debugger with interrupts off. */
static int kdb_getphys(void *res, unsigned long addr, size_t size)
{
	struct page *page = pfn_to_page(addr >> PAGE_SHIFT);
	void *vaddr = kmap_atomic(page, KM_KDB);

	memcpy(res, vaddr + (addr & (PAGE_SIZE - 1)), size);
	kunmap_atomic(vaddr, KM_KDB);
	return 0;
}

static long dev_ioctl(struct dev *d, void __user *arg)
{
	u32 *p, *q;

	msleep(20);	/* process context, as the check knows it */
	p = kmap_atomic(d->page, KM_SYNC_ICACHE);
	q = kmap_atomic(d->pt, KM_UML_USERCOPY);

	d->sum = p[0] + q[0];
	kunmap_atomic(q, KM_UML_USERCOPY);
	kunmap_atomic(p, KM_SYNC_ICACHE);
	return 0;
}

static int dev_setup(struct dev *d, int irq)
{
	register_nmi_handler(NMI_LOCAL, dev_nmi, 0, "dev");
	return request_irq(irq, dev_irq, 0, "dev", d);
}
