// SPDX-License-Identifier: GPL-2.0
/*
 * Typed atomic kmaps: each CPU owns KM_TYPE_NR fixmap pages, one per
 * enum km_type slot. The caller names the slot and runs with preemption
 * off, so a map is one pte write and one TLB flush of one address on this
 * CPU: no lock, no search, no shared state.
 *
 * The one-argument kmap_atomic() is kmap_local's and is not touched here;
 * the two kinds of mapping use separate fixmap ranges and can be held
 * together.
 */
#include <linux/export.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <asm/kmap_atomic.h>

#include "kmap_atomic.h"

static const struct {
	const char *name;
	enum km_context context;
} kmap_atomic_slots[KM_TYPE_NR] = {
	[KM_BOUNCE_READ] = { "KM_BOUNCE_READ", KM_CTX_IRQ },
	[KM_SKB_SUNRPC_DATA] = { "KM_SKB_SUNRPC_DATA", KM_CTX_SOFTIRQ },
	[KM_SKB_DATA_SOFTIRQ] = { "KM_SKB_DATA_SOFTIRQ", KM_CTX_SOFTIRQ },
	[KM_USER0] = { "KM_USER0", KM_CTX_TASK },
	[KM_USER1] = { "KM_USER1", KM_CTX_TASK },
	[KM_BIO_SRC_IRQ] = { "KM_BIO_SRC_IRQ", KM_CTX_IRQ },
	[KM_BIO_DST_IRQ] = { "KM_BIO_DST_IRQ", KM_CTX_IRQ },
	[KM_PTE0] = { "KM_PTE0", KM_CTX_TASK },
	[KM_PTE1] = { "KM_PTE1", KM_CTX_TASK },
	[KM_IRQ0] = { "KM_IRQ0", KM_CTX_IRQ },
	[KM_IRQ1] = { "KM_IRQ1", KM_CTX_IRQ },
	[KM_SOFTIRQ0] = { "KM_SOFTIRQ0", KM_CTX_SOFTIRQ },
	[KM_SOFTIRQ1] = { "KM_SOFTIRQ1", KM_CTX_SOFTIRQ },
};

/*
 * Each slot's pte, looked up on its first use. The fixmap page tables
 * exist from paging_init() on, but nothing keeps this range inside one pte
 * page, so the ptes are not assumed to be contiguous.
 */
static DEFINE_PER_CPU(pte_t *, kmap_atomic_ptes[KM_SLOTS_PER_CPU]);

/**
 * kmap_atomic_slot_name - the name of a slot, for reports
 * @type: the slot
 *
 * Return: "KM_USER0" and so on, or "KM_<invalid>" for a bad @type.
 */
const char *kmap_atomic_slot_name(enum km_type type)
{
	if ((unsigned int)type >= KM_TYPE_NR)
		return "KM_<invalid>";
	return kmap_atomic_slots[type].name;
}
EXPORT_SYMBOL(kmap_atomic_slot_name);

/**
 * kmap_atomic_slot_context - the context a slot is reserved for
 * @type: the slot; must be below KM_TYPE_NR
 *
 * Return: KM_CTX_TASK, KM_CTX_SOFTIRQ or KM_CTX_IRQ (see <asm/kmap_types.h>).
 */
enum km_context kmap_atomic_slot_context(enum km_type type)
{
	return kmap_atomic_slots[type].context;
}
EXPORT_SYMBOL(kmap_atomic_slot_context);

static pte_t *kmap_atomic_slot_pte(unsigned int idx, unsigned long vaddr)
{
	pte_t *ptep = this_cpu_read(kmap_atomic_ptes[idx]);

	if (unlikely(!ptep)) {
		ptep = virt_to_kpte(vaddr);
		this_cpu_write(kmap_atomic_ptes[idx], ptep);
	}
	return ptep;
}

/* Map @pfn in slot @idx of this CPU; preemption is off. */
static __always_inline unsigned long map_idx(unsigned int idx, unsigned long pfn,
					     pgprot_t prot)
{
	unsigned long vaddr = kmap_atomic_slot_addr(smp_processor_id(), idx);

	set_pte(kmap_atomic_slot_pte(idx, vaddr), arch_kmap_atomic_pte(pfn, prot));
	/*
	 * Unmap leaves the pte in place, so this CPU's TLB may still hold the
	 * slot's previous page: drop that one address, here only. No other
	 * CPU ever uses this CPU's slots.
	 */
	arch_kmap_atomic_flush(vaddr);
	return vaddr;
}

/* For the debug checks, which also map the spare slots. */
unsigned long kmap_atomic_map_idx(unsigned int idx, unsigned long pfn, pgprot_t prot)
{
	return map_idx(idx, pfn, prot);
}

/* Unmap slot @idx of this CPU for real, so that a stale pointer faults. */
void kmap_atomic_clear_idx(unsigned int idx)
{
	unsigned long vaddr = kmap_atomic_slot_addr(smp_processor_id(), idx);

	pte_clear(&init_mm, vaddr, kmap_atomic_slot_pte(idx, vaddr));
	arch_kmap_atomic_flush(vaddr);
}

/**
 * __kmap_atomic_slot - map a page frame in this CPU's slot @type
 * @pfn: the page frame
 * @type: the slot
 * @prot: the protection of the mapping
 *
 * The out-of-line half of kmap_atomic(page, type) for highmem pages and of
 * kmap_atomic_pfn(pfn, type). The caller has disabled preemption and page
 * faults; use those, not this.
 *
 * Return: the slot's virtual address, now mapping @pfn.
 */
void *__kmap_atomic_slot(unsigned long pfn, enum km_type type, pgprot_t prot)
{
	return (void *)map_idx(type, pfn, prot);
}
EXPORT_SYMBOL(__kmap_atomic_slot);

/**
 * kmap_atomic_to_page - the page behind an address from a kmap
 * @addr: an address inside a page mapped by kmap_atomic(page, type),
 *	kmap_atomic(page), kmap_local_page() or kmap(), or a lowmem address
 *
 * Reads the kernel's pte for the fixmap and kmap() ranges, so it is right
 * for any CPU's slot and any kmap_local slot, and uses virt_to_page()
 * elsewhere. Safe in any context.
 *
 * Return: the page, or NULL if @addr is in a kmap range but maps no page.
 */
struct page *kmap_atomic_to_page(void *addr)
{
	unsigned long vaddr = (unsigned long)addr;
	pte_t pte;

	if (!is_kmap_addr(addr) && (vaddr < FIXADDR_START || vaddr >= FIXADDR_TOP))
		return virt_to_page(addr);

	pte = ptep_get(virt_to_kpte(vaddr));
	if (!pte_present(pte) || !pfn_valid(pte_pfn(pte)))
		return NULL;
	return pte_page(pte);
}
EXPORT_SYMBOL(kmap_atomic_to_page);
