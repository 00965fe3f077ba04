/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between mm/highmem.c and the code in mm/kmap_atomic/: what a lowmem and
 * a kmap_local address are (which the code built without the slots needs
 * too), typed maps on kmap_local's stack, the hooks an architecture may
 * override, and slots by index (with the slots only).
 */
#ifndef _MM_KMAP_ATOMIC_H
#define _MM_KMAP_ATOMIC_H

/* First: the architecture's hooks (<asm/highmem.h>) before the defaults. */
#include <linux/highmem.h>
#include <linux/kmap_atomic_debug.h>
#include <linux/mm.h>
#include <linux/preempt.h>

/* The kernel's direct map: a lowmem page's address, which uses no slot. */
static inline bool kmap_atomic_is_lowmem(unsigned long vaddr)
{
	return vaddr >= PAGE_OFFSET && vaddr < (unsigned long)high_memory;
}

#ifdef CONFIG_KMAP_LOCAL
/* kmap_local's fixmap range, every CPU's (kmap_local_page(), kmap_atomic(page)). */
static inline bool kmap_atomic_is_local(unsigned long vaddr)
{
	return vaddr >= __fix_to_virt(FIX_KMAP_END) && vaddr <= __fix_to_virt(FIX_KMAP_BEGIN);
}
#endif

/*
 * The interrupt level this CPU runs at: 0 in a task, else the softirq,
 * hard interrupt and NMI nesting (an #MC or #DB in an NMI is a level of
 * its own). PREEMPT_RT counts a softirq run from local_bh_enable() in the
 * task, not in the preempt count.
 */
static inline unsigned int kmap_atomic_level(void)
{
	unsigned int level = preempt_count() & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET);

	if (IS_ENABLED(CONFIG_PREEMPT_RT) && in_serving_softirq())
		level |= SOFTIRQ_OFFSET;
	return level;
}

#ifdef CONFIG_KMAP_ATOMIC_ANY_ORDER
/*
 * What ARCH_HAS_KMAP_ATOMIC_SLOTS promises: typed maps write their ptes
 * with kmap_local's hooks around them (mm/highmem.c has the same
 * defaults), except that a slot is claimed with cmpxchg_local(), and
 * kmap_local's stack is at its default index.
 */
#ifndef arch_kmap_local_post_map
#define arch_kmap_local_post_map(vaddr, pteval)	do { } while (0)
#endif
#ifndef arch_kmap_local_pre_unmap
#define arch_kmap_local_pre_unmap(vaddr)	do { } while (0)
#endif
#ifndef arch_kmap_local_post_unmap
#error "typed atomic kmaps need arch_kmap_local_post_unmap(), the flush after an unmap"
#endif
#ifdef arch_kmap_local_set_pte
#error "typed atomic kmaps claim a none pte with cmpxchg_local(), not arch_kmap_local_set_pte()"
#endif
#ifdef arch_kmap_local_map_idx
#error "typed atomic kmaps find kmap_local's entries at the default kmap_local_calc_idx()"
#endif

/* mm/kmap_atomic/any_order.c: typed maps on kmap_local's stack. */
int kmap_atomic_local_entry(unsigned long vaddr);
unsigned long kmap_atomic_local_top(void);
void kmap_atomic_release_buried(unsigned long vaddr);

/*
 * For kunmap_local_indexed() (mm/highmem.c): a typed map on kmap_local's
 * stack released out of order waits there until it is the top. The count
 * is exported for the KUnit suites.
 */
DECLARE_PER_CPU(unsigned int, kmap_atomic_released);
void __kmap_atomic_pop_released(void);

static inline void kmap_atomic_pop_released(void)
{
	if (unlikely(this_cpu_read(kmap_atomic_released)))
		__kmap_atomic_pop_released();
}

/*
 * The pte that marks an entry released out of order at interrupt level
 * @level (kmap_atomic_level() >> SOFTIRQ_SHIFT): never none, never
 * present, never equal to a mapping's pte, since a context switch writes
 * it back as it is. The default, a frame number with no protection bits,
 * is not present where a pgprot of 0 maps nothing; an architecture where
 * it maps defines its own.
 */
#ifndef arch_kmap_atomic_released_pte
#define arch_kmap_atomic_released_pte(level)	pfn_pte((level) + 1, __pgprot(0))
#endif

/*
 * A pte bit, meaningless in a kernel mapping, that tags a typed map's
 * kmap_local entry (every typed map without the slots), so that a
 * kmap_local_page() of the same page at the same place is never taken for
 * it. There is no safe default: the
 * architecture names one of its software bits.
 */
#ifndef arch_kmap_atomic_fallback_tag
#error "typed atomic kmaps on kmap_local need arch_kmap_atomic_fallback_tag, a software pte bit"
#endif

/*
 * kmap_local's entries the typed maps of a kernel without the slots may
 * take: kmap_local_idx_push() BUG()s when the index reaches KM_MAX_IDX,
 * and every softirq, hard interrupt and NMI that comes on the task pushes
 * its own maps on the same stack. Typed maps leave it half: KM_LOCAL_RESERVE
 * maps, each KM_LOCAL_INCR entries.
 */
#define KM_LOCAL_INCR		(IS_ENABLED(CONFIG_DEBUG_KMAP_LOCAL) ? 2 : 1)
#define KM_LOCAL_RESERVE	(KM_MAX_IDX / KM_LOCAL_INCR / 2)
#else
static inline void kmap_atomic_pop_released(void) { }
#endif

#ifdef CONFIG_KMAP_ATOMIC_SLOTS
/* Where in the typed-slot range an address is; see kmap_atomic_slot_of(). */
struct kmap_atomic_where {
	unsigned int cpu;
	unsigned int idx;	/* slot: enum km_type, or a spare after KM_TYPE_NR */
	bool guard;		/* the guard page above slot @idx, or padding */
};

/*
 * Is @vaddr in the typed slots' fixmap range? Fill in @w: the CPU, and the
 * slot whose page (or guard page, with CONFIG_DEBUG_KMAP_ATOMIC) it is in.
 * Padding after a CPU's last slot counts as a guard of no slot
 * (idx >= KM_TYPE_NR + KM_SPARE_SLOTS).
 */
static inline bool kmap_atomic_slot_of(unsigned long vaddr, struct kmap_atomic_where *w)
{
	unsigned int i;

	if (!is_kmap_atomic_slot_addr(vaddr))
		return false;
	i = (__fix_to_virt(FIX_KMAP_ATOMIC_BEGIN) + PAGE_SIZE - 1 - vaddr) >> PAGE_SHIFT;
	w->cpu = i / KM_SLOTS_PER_CPU;
	i %= KM_SLOTS_PER_CPU;
	w->idx = i / KM_SLOT_STRIDE;
	w->guard = i % KM_SLOT_STRIDE != KM_SLOT_STRIDE - 1 ||
		   w->idx >= KM_TYPE_NR + KM_SPARE_SLOTS;
	return true;
}

const char *kmap_atomic_report_name(enum kmap_atomic_report kind);
void kmap_atomic_count_kind(enum kmap_atomic_report kind);
__printf(6, 7)
void kmap_atomic_report(enum kmap_atomic_report kind, unsigned int type, unsigned long pfn,
			unsigned long addr, unsigned long ip, const char *fmt, ...);

/* Who holds a slot, by the logs: for the reports, here and in debug.c. */
unsigned long kmap_atomic_slot_holder(unsigned int cpu, unsigned int slot, unsigned int *type,
				      unsigned int *level);
bool kmap_atomic_slot_held(unsigned int slot);
const char *kmap_atomic_slot_label(unsigned int slot);

/* For the KUnit suite: is kmap_prot's pte template checked and in use? */
bool kmap_atomic_template_in_use(void);

#ifdef CONFIG_DEBUG_KMAP_ATOMIC
/* mm/kmap_atomic/debug.c: the context rules, counts and unmap history. */
void kmap_atomic_debug_map(unsigned int type, unsigned long pfn, struct page *page,
			   unsigned long ip);
void kmap_atomic_debug_collided(unsigned int type);
void kmap_atomic_debug_unmapped(unsigned int slot, unsigned long ip);
#else
static inline void kmap_atomic_debug_map(unsigned int type, unsigned long pfn,
					 struct page *page, unsigned long ip) { }
static inline void kmap_atomic_debug_collided(unsigned int type) { }
static inline void kmap_atomic_debug_unmapped(unsigned int slot, unsigned long ip) { }
#endif
#endif /* CONFIG_KMAP_ATOMIC_SLOTS */

/*
 * mm/kmap_atomic/report.c: count a misuse at call site @ip; whether to
 * print it (the first report of each call site); or count one that
 * prints its own way.
 */
bool kmap_atomic_report_site(unsigned long ip);
bool kmap_atomic_site_first(unsigned long key);
void kmap_atomic_report_count(void);

#endif /* _MM_KMAP_ATOMIC_H */
