/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KMAP_TYPES_H
#define _LINUX_KMAP_TYPES_H

/*
 * The typed atomic kmap slots, one list for every architecture. Where an
 * architecture has them (it selects ARCH_HAS_KMAP_ATOMIC_SLOTS; x86-32),
 * with CONFIG_KMAP_ATOMIC_SLOTS each CPU owns one page of kernel address
 * space per slot; the caller names the slot, so kmap_atomic(page, type),
 * with its context's slot, never fails and never waits. Elsewhere the
 * names only let portable code compile, and kmap_atomic(page, type) maps
 * like kmap_atomic(page).
 *
 * Two users of one slot on one CPU at once would overwrite each other's
 * mapping, which is why each slot belongs to one context:
 *
 *   slot                 context it is for
 *   KM_BOUNCE_READ       block bounce buffers, local interrupts disabled
 *   KM_SKB_SUNRPC_DATA   sunrpc socket data, softirq or bottom halves off
 *   KM_SKB_DATA_SOFTIRQ  skb data copies, softirq or bottom halves off
 *                        (or interrupts off, as for KM_SOFTIRQ*)
 *   KM_USER0, KM_USER1   process context (system calls): not in interrupts
 *   KM_BIO_SRC_IRQ       bio source pages, local interrupts disabled
 *   KM_BIO_DST_IRQ       bio destination pages, local interrupts disabled
 *   KM_PTE0, KM_PTE1     page-table pages, process context
 *   KM_IRQ0, KM_IRQ1     hard interrupt handlers, local interrupts disabled
 *   KM_SOFTIRQ0/1        softirqs and tasklets, or a task with bottom halves
 *                        or interrupts off; not hard interrupts
 *   KM_SYNC_ICACHE       (2.6.33) cache maintenance where an architecture
 *   KM_SYNC_DCACHE       needs it; x86 never did: process context
 *   KM_UML_USERCOPY      (2.6.33) UML's user copies: process context
 *   KM_IRQ_PTE           (2.6.33) page-table pages in a hard interrupt,
 *                        local interrupts disabled
 *   KM_NMI, KM_NMI_PTE   (2.6.33) NMI handlers (perf's user copy, page-table
 *                        walks) only
 *   KM_KDB               (2.6.35) the kernel debugger, entered from int3,
 *                        #DB (NMI context since 5.8) or an NMI
 *
 * Driver code uses KM_USER*, KM_IRQ* and KM_SOFTIRQ* (and KM_NMI in an NMI
 * handler); the others are for the subsystems named. The order is that of
 * 2.6.33-2.6.37's <asm-generic/kmap_types.h>, which had all 20 from 2.6.35
 * on (KM_KDB came with kdb). See
 * Documentation/mm/kmap-atomic.rst.
 */
enum km_type {
	KM_BOUNCE_READ,
	KM_SKB_SUNRPC_DATA,
	KM_SKB_DATA_SOFTIRQ,
	KM_USER0,
	KM_USER1,
	KM_BIO_SRC_IRQ,
	KM_BIO_DST_IRQ,
	KM_PTE0,
	KM_PTE1,
	KM_IRQ0,
	KM_IRQ1,
	KM_SOFTIRQ0,
	KM_SOFTIRQ1,
	KM_SYNC_ICACHE,
	KM_SYNC_DCACHE,
	KM_UML_USERCOPY,
	KM_IRQ_PTE,
	KM_NMI,
	KM_NMI_PTE,
	KM_KDB,
	KM_TYPE_NR
};

/*
 * The kinds of misuse reported, the kmap_atomic_report trace event's
 * kind. Every kernel with the slots reports what would corrupt or crash
 * (a collision, a type that is no slot, an unmap that does not match) and
 * running out of spares; CONFIG_DEBUG_KMAP_ATOMIC adds the context, leak
 * and fault checks, and counts each kind (<linux/kmap_atomic_debug.h>).
 */
enum kmap_atomic_report {
	KMAP_REPORT_COLLISION,		/* a map into a slot already held */
	KMAP_REPORT_CONTEXT,		/* a slot used from the wrong context, NMI included */
	KMAP_REPORT_WRONG_ADDRESS,	/* unmap of an address the slot does not map */
	KMAP_REPORT_NOT_HELD,		/* unmap of a slot nobody holds, or of nothing */
	KMAP_REPORT_OTHER_CONTEXT,	/* unmap from another context than the map */
	KMAP_REPORT_INVALID_TYPE,	/* a type that is no slot */
	KMAP_REPORT_LEAK,		/* a slot still held when its context ends */
	KMAP_REPORT_NO_SPARE,		/* a misuse with every spare in use */
	KMAP_REPORT_FAULT,		/* a kernel fault on a typed slot's address */
	KMAP_REPORT_NR
};

/*
 * Each CPU also has spare slots, after the KM_TYPE_NR named ones: a map
 * into a slot that is in use already (a collision), or with a type that is
 * no slot, is reported and given a spare, so that nobody's data is lost.
 * The last KM_NMI_SPARES are kept for NMIs. Twelve make a CPU's block 32
 * pages with the 20 named slots (64 with the debug flavor's guard pages),
 * which divides a page table, as KM_FIXMAP_BEGIN() needs: fewer would save
 * no address space.
 */
#define KM_SPARE_SLOTS		12
#define KM_NMI_SPARES		1

#ifdef CONFIG_KMAP_ATOMIC_SLOTS
#include <linux/cache.h>
#include <linux/threads.h>

/*
 * Where the slots are: the architecture puts KM_FIXMAP_PAGES fixmap pages
 * from FIX_KMAP_ATOMIC_BEGIN (KM_FIXMAP_BEGIN() of its first free index)
 * into its enum fixed_addresses. Slot 'idx' (an enum km_type, or a spare
 * after KM_TYPE_NR) of CPU 'cpu' is fixmap index FIX_KMAP_ATOMIC_BEGIN +
 * cpu * KM_SLOTS_PER_CPU + idx * KM_SLOT_STRIDE + KM_SLOT_STRIDE - 1
 * (kmap_atomic_slot_addr()). The macros need pte_t where they are used.
 */

/*
 * Each CPU writes only its own slots' ptes. Its block of ptes fills whole
 * cache lines (64 bytes, or L1_CACHE_BYTES where that is larger), and the
 * range starts on a line, so no two CPUs' ptes share a line.
 */
#define KM_PTE_LINE_BYTES	(L1_CACHE_BYTES > 64 ? L1_CACHE_BYTES : 64)
#define KM_PTES_PER_LINE	(KM_PTE_LINE_BYTES / sizeof(pte_t))

/*
 * With CONFIG_DEBUG_KMAP_ATOMIC each slot's page has a page that is never
 * mapped above it (and the next slot's below), so that running off either
 * end of a mapped page faults instead of landing in another slot.
 */
#ifdef CONFIG_DEBUG_KMAP_ATOMIC
#define KM_SLOT_STRIDE		2
#else
#define KM_SLOT_STRIDE		1
#endif

/* The fixmap pages of one CPU: its slots, their guards, padding to a line. */
#define KM_SLOTS_PER_CPU						\
	(((KM_TYPE_NR + KM_SPARE_SLOTS) * KM_SLOT_STRIDE +		\
	  KM_PTES_PER_LINE - 1) / KM_PTES_PER_LINE * KM_PTES_PER_LINE)

/* The fixmap pages the slots take: KM_SLOTS_PER_CPU per possible CPU. */
#define KM_FIXMAP_PAGES		(KM_SLOTS_PER_CPU * NR_CPUS)

/*
 * The first slot's fixmap index, rounded up from @free, the first free
 * index. Where FIXADDR_TOP is the last page of a page table (fixmap index
 * 0 is its last pte, as on x86), an index that is a multiple of
 * KM_SLOTS_PER_CPU (which divides PTRS_PER_PTE) starts each CPU's block
 * on a cache line and in one page table.
 */
#define KM_FIXMAP_BEGIN(free)						\
	(((free) + KM_SLOTS_PER_CPU - 1) / KM_SLOTS_PER_CPU * KM_SLOTS_PER_CPU)
#endif /* CONFIG_KMAP_ATOMIC_SLOTS */

#endif /* _LINUX_KMAP_TYPES_H */
