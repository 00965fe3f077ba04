// SPDX-License-Identifier: GPL-2.0
/*
 * 2.6.33's NMI users of the typed slots, as out-of-tree profilers still
 * carry them: perf's copy_from_user_nmi(), which copied user memory a page
 * at a time through KM_NMI in an NMI and KM_IRQ0 elsewhere, and a walk to
 * a user pte the way 2.6.33's pte_offset_map() mapped a page-table page:
 * KM_NMI_PTE in an NMI, KM_IRQ_PTE in a hard interrupt. The copy is as
 * 2.6.33 wrote it but for its name, copy_from_user_nmi_2633(), since x86's
 * own copy_from_user_nmi() has the name now; 2.6.33's
 * __get_user_pages_fast() is a shim over today's get_user_pages_fast_only()
 * with page faults disabled around it, which 6.1 wants outside a task (its
 * access_ok() warns otherwise; 6.1's perf_virt_to_phys() does the same).
 *
 * The page-table page is highmem only with CONFIG_HIGHPTE (Debian's
 * configuration); elsewhere it is lowmem, which KM_*_PTE map with no slot,
 * and the load's line says which it was.
 *
 * At load (a system call, so there is a user address space: insmod's),
 * two pages of user memory are filled, then copied back across their
 * boundary from real NMIs (an NMI IPI to this CPU) and from a hard
 * interrupt, ROUNDS times each. Loading fails with -EIO, and says why, if
 * a copy or a pte is wrong or a correct map drew a misuse report.
 *
 *   make modules M=samples/kmap_atomic
 *   make run MODULES=samples/kmap_atomic/kmap_atomic_nmi.ko
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/pgtable.h>
#include <linux/uaccess.h>
#include <asm/apic.h>
#include <asm/nmi.h>

#define ROUNDS		200
#define COPY_LEN	300	/* from 100 bytes before the page boundary on */

/* 2.6.33's name and signature, on today's lockless page-table walk. */
static int __get_user_pages_fast(unsigned long start, int nr_pages, int write,
				 struct page **pages)
{
	int ret;

	pagefault_disable();
	ret = get_user_pages_fast_only(start, nr_pages, write ? FOLL_WRITE : 0, pages);
	pagefault_enable();
	return max(ret, 0);	/* 2.6's gave the count pinned, never an error */
}

/* 2.6.33's copy_from_user_nmi(): how many bytes it could copy. */
static unsigned long copy_from_user_nmi_2633(void *to, const void __user *from, unsigned long n)
{
	unsigned long offset, addr = (unsigned long)from;
	int type = in_nmi() ? KM_NMI : KM_IRQ0;
	unsigned long size, len = 0;
	struct page *page;
	void *map;
	int ret;

	do {
		ret = __get_user_pages_fast(addr, 1, 0, &page);
		if (!ret)
			break;
		offset = addr & (PAGE_SIZE - 1);
		size = min(PAGE_SIZE - offset, n - len);

		map = kmap_atomic(page, type);
		memcpy(to, map + offset, size);
		kunmap_atomic(map, type);
		put_page(page);

		len += size;
		to += size;
		addr += size;
	} while (len < n);
	return len;
}

/* 2.6.33's pte_offset_map() in an interrupt or NMI: the pte of @addr. */
static pte_t user_pte_nmi(struct mm_struct *mm, unsigned long addr)
{
	int type = in_nmi() ? KM_NMI_PTE : KM_IRQ_PTE;
	pgd_t *pgd = pgd_offset(mm, addr);
	p4d_t *p4d = p4d_offset(pgd, addr);
	pud_t *pud = pud_offset(p4d, addr);
	pmd_t *pmd = pmd_offset(pud, addr);
	pte_t *ptes, pte;

	if (pmd_none(*pmd) || pmd_leaf(*pmd))
		return __pte(0);
	ptes = kmap_atomic(pmd_page(*pmd), type);
	pte = ptes[pte_index(addr)];
	kunmap_atomic(ptes, type);
	return pte;
}

struct nmi_copy {
	const u8 __user *from;
	struct mm_struct *mm;
	unsigned long pfn[2];		/* of the two user pages */
	unsigned int cpu;
	unsigned int rounds, short_copies, bad_bytes, bad_ptes, wrong_context;
	bool high_ptes;			/* the page-table page is highmem */
	bool want_nmi;
	u8 buf[COPY_LEN];
	struct irq_work irq;
};

static u8 byte_at(unsigned int i)
{
	return (i * 7 + (i >> 8) + 1) & 0xff;
}

/* One round, in an NMI or a hard interrupt: copy, check, look up the ptes. */
static void nmi_copy_round(struct nmi_copy *c)
{
	unsigned int i, start = PAGE_SIZE - 100;

	c->wrong_context += c->want_nmi ? !in_nmi() : in_nmi() || !in_hardirq();
	/* The copy walks the interrupted task's page tables: insmod's. */
	if (current->mm != c->mm) {
		c->wrong_context++;
		return;
	}
	if (copy_from_user_nmi_2633(c->buf, c->from + start, COPY_LEN) != COPY_LEN)
		c->short_copies++;
	for (i = 0; i < COPY_LEN; i++)
		c->bad_bytes += c->buf[i] != byte_at(start + i);
	for (i = 0; i < 2; i++)
		c->bad_ptes += pte_pfn(user_pte_nmi(c->mm, (unsigned long)c->from +
						    i * PAGE_SIZE)) != c->pfn[i];
	c->rounds++;
}

static struct nmi_copy *nmi_pending;
/* Our IPIs not yet seen: each is claimed, any other NMI left alone. */
static atomic_t nmi_sent;

static int nmi_copy_handler(unsigned int cmd, struct pt_regs *regs)
{
	struct nmi_copy *c;

	if (!atomic_add_unless(&nmi_sent, -1, 0))
		return NMI_DONE;	/* not ours: perf's, the watchdog's */
	c = READ_ONCE(nmi_pending);
	if (c && c->cpu == smp_processor_id()) {
		WRITE_ONCE(nmi_pending, NULL);
		nmi_copy_round(c);
	}
	return NMI_HANDLED;
}

static void irq_copy(struct irq_work *work)
{
	nmi_copy_round(container_of(work, struct nmi_copy, irq));
}

/* @c->rounds NMIs to this CPU, each copying once. */
static void copy_in_nmis(struct nmi_copy *c)
{
	unsigned int i, us;

	c->want_nmi = true;
	for (i = 0; i < ROUNDS; i++) {
		preempt_disable();
		c->cpu = smp_processor_id();
		WRITE_ONCE(nmi_pending, c);
		atomic_inc(&nmi_sent);
		apic->send_IPI_mask(cpumask_of(c->cpu), NMI_VECTOR);
		for (us = 0; us < USEC_PER_SEC && READ_ONCE(nmi_pending); us++)
			udelay(1);
		WRITE_ONCE(nmi_pending, NULL);
		preempt_enable();
	}
}

static void copy_in_irqs(struct nmi_copy *c)
{
	unsigned int i;

	c->want_nmi = false;
	/* In a hard interrupt even on PREEMPT_RT, not in a kthread. */
	c->irq = IRQ_WORK_INIT_HARD(irq_copy);
	for (i = 0; i < ROUNDS; i++) {
		irq_work_queue(&c->irq);
		irq_work_sync(&c->irq);
	}
}

static int check(struct nmi_copy *c, const char *where, unsigned long reports)
{
	reports = kmap_atomic_reports() - reports;
	if (c->rounds == ROUNDS && !c->short_copies && !c->bad_bytes && !c->bad_ptes &&
	    !c->wrong_context && !reports)
		return 0;
	pr_err("%s: %u of %u rounds ran (%u outside the context), %u short copies, %u wrong bytes, %u wrong ptes, %lu misuse reports\n",
	       where, c->rounds, ROUNDS, c->wrong_context, c->short_copies, c->bad_bytes,
	       c->bad_ptes, reports);
	return -EIO;
}

/* Two pages of insmod's memory, filled; their page frames in @c->pfn. */
static int user_pages(struct nmi_copy *c, bool *high)
{
	unsigned long uaddr;
	struct page *page;
	unsigned int i;
	u8 *fill;
	int ret = 0;

	uaddr = vm_mmap(NULL, 0, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, 0);
	if (IS_ERR_VALUE(uaddr))
		return uaddr;
	c->from = (const u8 __user *)uaddr;
	c->mm = current->mm;
	fill = kmalloc(2 * PAGE_SIZE, GFP_KERNEL);
	if (!fill)
		return -ENOMEM;
	for (i = 0; i < 2 * PAGE_SIZE; i++)
		fill[i] = byte_at(i);
	if (copy_to_user((void __user *)uaddr, fill, 2 * PAGE_SIZE))
		ret = -EFAULT;
	kfree(fill);
	*high = true;
	for (i = 0; !ret && i < 2; i++) {
		if (get_user_pages_fast(uaddr + i * PAGE_SIZE, 1, 0, &page) != 1) {
			ret = -EFAULT;
			break;
		}
		c->pfn[i] = page_to_pfn(page);
		*high &= PageHighMem(page);
		put_page(page);
	}
	if (!ret) {
		pmd_t *pmd = pmd_off(c->mm, uaddr);

		c->high_ptes = !pmd_none(*pmd) && PageHighMem(pmd_page(*pmd));
	}
	return ret;
}

static int __init kmap_atomic_nmi_init(void)
{
	struct nmi_copy *c = kzalloc(sizeof(*c), GFP_KERNEL);
	unsigned long reports;
	bool high;
	int ret;

	if (!c)
		return -ENOMEM;
	ret = user_pages(c, &high);
	if (ret)
		goto out;
	ret = register_nmi_handler(NMI_LOCAL, nmi_copy_handler, 0, "kmap_atomic_nmi");
	if (ret)
		goto out;
	reports = kmap_atomic_reports();
	copy_in_nmis(c);
	unregister_nmi_handler(NMI_LOCAL, "kmap_atomic_nmi");
	ret = check(c, "KM_NMI and KM_NMI_PTE in NMIs", reports);
	if (ret)
		goto out;

	memset(c->buf, 0, sizeof(c->buf));
	c->rounds = 0;
	reports = kmap_atomic_reports();
	copy_in_irqs(c);
	ret = check(c, "KM_IRQ0 and KM_IRQ_PTE in hard interrupts", reports);
	if (ret)
		goto out;
	pr_info("%u bytes across two %s user pages copied by 2.6.33's copy_from_user_nmi() and their ptes read from a %s page table, %u times in NMIs (KM_NMI, KM_NMI_PTE) and %u in hard interrupts (KM_IRQ0, KM_IRQ_PTE), no report: ok\n",
		COPY_LEN, high ? "highmem" : "lowmem", c->high_ptes ? "highmem" : "lowmem",
		ROUNDS, ROUNDS);
out:
	if (c->from)
		vm_munmap((unsigned long)c->from, 2 * PAGE_SIZE);
	kfree(c);
	return ret;
}

static void __exit kmap_atomic_nmi_exit(void)
{
}

module_init(kmap_atomic_nmi_init);
module_exit(kmap_atomic_nmi_exit);
MODULE_DESCRIPTION("Typed atomic kmaps from NMIs: 2.6.33's copy_from_user_nmi() and pte walk");
MODULE_LICENSE("GPL");
