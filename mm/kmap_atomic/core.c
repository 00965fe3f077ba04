// SPDX-License-Identifier: GPL-2.0
/*
 * Typed atomic kmaps: each CPU owns KM_SLOTS_PER_CPU fixmap pages, one per
 * enum km_type slot, KM_SPARE_SLOTS spares, and padding to whole cache
 * lines of ptes (<linux/kmap_types.h>). The caller names the slot
 * and runs with preemption off, so a map is one pte written into a none
 * pte, and an unmap clears that pte and flushes the one address on this
 * CPU: no lock, no search, no shared state. The map needs no flush: the
 * unmap left no translation of the slot behind, and a TLB does not cache a
 * not-present pte.
 *
 * What would corrupt or crash is caught here, in every kernel, and the
 * kernel carries on: a map into a slot whose pte is not none (a collision)
 * or with a type that is no slot is given a spare slot of its own, and
 * with every spare in use a kmap_local entry (NULL in an NMI, or with
 * kmap_local's stack half full). One
 * record per CPU of what is held (struct kmap_atomic_held) decides what
 * an unmap stands for: a map of this context, released with its counts
 * (as every 2.6 unmap gave them back), or none, and then nothing changes.
 * What a context leaves held is reclaimed when it ends, or by the next
 * map of its slot. Each misuse is reported through WARN, once per call
 * site. CONFIG_DEBUG_KMAP_ATOMIC checks more (debug.c) and
 * takes the place of the map and unmap paths, on the same records.
 *
 * The one-argument kmap_atomic() is kmap_local's and is not touched here;
 * the two kinds of mapping use separate fixmap ranges and can be held
 * together.
 */
#include <linux/bug.h>
#include <linux/export.h>
#include <linux/jump_label.h>
#include <linux/kmap_atomic_debug.h>
#include <linux/kprobes.h>
#include <linux/memblock.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/pfn.h>
#include <linux/sched.h>

#include "kmap_atomic.h"

#define CREATE_TRACE_POINTS
#include <trace/events/kmap_atomic.h>

/* The lowmem map tests kmap_atomic_map's key inline, in any module. */
EXPORT_TRACEPOINT_SYMBOL(kmap_atomic_map);
EXPORT_TRACEPOINT_SYMBOL_GPL(kmap_atomic_unmap);
EXPORT_TRACEPOINT_SYMBOL_GPL(kmap_atomic_report);

/*
 * No two CPUs' ptes in one cache line, and each CPU's in one page table:
 * whole lines per CPU, blocks that divide a page table, aligned ones
 * (FIXADDR_TOP is the last page of a page table).
 */
static_assert(KM_SLOTS_PER_CPU * sizeof(pte_t) % KM_PTE_LINE_BYTES == 0);
static_assert(PTRS_PER_PTE % KM_SLOTS_PER_CPU == 0);
static_assert(FIX_KMAP_ATOMIC_BEGIN % KM_SLOTS_PER_CPU == 0);

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
	[KM_SYNC_ICACHE] = { "KM_SYNC_ICACHE", KM_CTX_TASK },
	[KM_SYNC_DCACHE] = { "KM_SYNC_DCACHE", KM_CTX_TASK },
	[KM_UML_USERCOPY] = { "KM_UML_USERCOPY", KM_CTX_TASK },
	[KM_IRQ_PTE] = { "KM_IRQ_PTE", KM_CTX_IRQ },
	[KM_NMI] = { "KM_NMI", KM_CTX_NMI },
	[KM_NMI_PTE] = { "KM_NMI_PTE", KM_CTX_NMI },
	[KM_KDB] = { "KM_KDB", KM_CTX_DEBUGGER },
};

/*
 * What a CPU holds, one record per named slot, per spare and per kmap_local
 * fallback: whose counts its map raised (the task, and the interrupt
 * level, since an interrupt's counts land on the task it interrupted),
 * where in them (the task's typed_depth() right after the map, kept equal
 * to the map's place in that stack as other maps are released: see
 * release()), and the type it was mapped for. Every unmap, every reuse of
 * a map left behind and every reclaim at a context's end goes through
 * release(). A free record has no task.
 */
struct kmap_atomic_held {
	struct task_struct *task;	/* compared, never followed; NULL: free */
	unsigned int level;		/* kmap_atomic_level() */
	int depth;			/* typed_depth() after the map, or KM_LEFT */
	unsigned int type;		/* KM_TYPE_NR for a type that is no slot */
	/* A fallback's kmap_local address and its pte there. */
	unsigned long vaddr;
	pteval_t pte;
};

struct kmap_atomic_cpu {
	/*
	 * Each slot's pte and address: one load each on the fast path. The
	 * ptes are looked up on first use (the fixmap page tables exist from
	 * paging_init() on), and for every possible CPU, with the addresses,
	 * by kmap_atomic_fast_init().
	 */
	pte_t *ptes[KM_SLOTS_USED];
	unsigned long addrs[KM_SLOTS_USED];
	struct kmap_atomic_held held[KM_HELD_NR];
};

static DEFINE_PER_CPU(struct kmap_atomic_cpu, kmap_atomic_cpu);

/*
 * The fast paths read the slots' ptes and addresses without a check once
 * kmap_atomic_fast_init() has filled them in for every possible CPU: it
 * turns kmap_atomic_slots_ready on. Until then, early in boot, the maps
 * and unmaps take the slow paths, which look them up.
 */
static DEFINE_STATIC_KEY_FALSE_RO(kmap_atomic_slots_ready);

/*
 * kmap_prot's pte for page frame 0, computed at boot by pfn_pte() itself:
 * a map with kmap_prot ORs in the frame instead of calling pfn_pte() (its
 * L1TF inversion test and __supported_pte_mask). Used only once
 * kmap_atomic_fast_init() has checked it against pfn_pte() for low, high
 * and above-4 GiB frames, with the slots ready: that turns
 * kmap_atomic_template_ok on.
 */
static pteval_t kmap_atomic_template __ro_after_init;
static DEFINE_STATIC_KEY_FALSE_RO(kmap_atomic_template_ok);

/*
 * The depth of a map left behind: 2.6's rule gave its count back for a
 * lowmem unmap below it. It is no place in the count stack: no lowmem
 * pointer stands for it, its own unmap gives nothing back, and the end of
 * its context (or its slot's next map) reclaims it.
 */
#define KM_LEFT		INT_MIN

#ifndef CONFIG_DEBUG_KMAP_ATOMIC
/* A task that died of an oops is being reclaimed on this CPU. */
static DEFINE_PER_CPU(bool, kmap_atomic_reclaiming_dead);
#endif

/*
 * What gates the context-end reclaim: this CPU's spares, fallbacks, maps
 * left behind, and
 * maps made in an interrupt (named slots, and lowmem maps, which have no
 * record but are counted per interrupt class in kmap_atomic_irq_lowmem).
 */
DEFINE_PER_CPU(unsigned int, kmap_atomic_outstanding);
EXPORT_PER_CPU_SYMBOL_GPL(kmap_atomic_outstanding);

/* Records held on this CPU: a lowmem unmap with none needs no renumbering. */
static DEFINE_PER_CPU(unsigned int, kmap_atomic_held_nr);

/*
 * Lowmem typed maps made in a softirq, a hard interrupt and an NMI, not
 * yet unmapped: what 2.6's rule may give back there. The counts they
 * raised are the interrupted task's, and only these are the
 * interrupt's to give back.
 */
#define KM_IRQ_CLASSES	3
static DEFINE_PER_CPU(unsigned int, kmap_atomic_irq_lowmem[KM_IRQ_CLASSES]);

static unsigned int irq_class(unsigned int level)
{
	return level & NMI_MASK ? 2 : level & HARDIRQ_MASK ? 1 : 0;
}

/**
 * __kmap_atomic_lowmem_in_irq - count a typed map of a lowmem page in an interrupt
 *
 * Called by kmap_atomic(page, type) (out of line) and by the inline
 * kmap_atomic_prot(page, type, prot) for a lowmem page in a softirq, hard
 * interrupt or NMI, so that the unmaps of that context give
 * back only what it raised, and its end what it left.
 */
void __kmap_atomic_lowmem_in_irq(void)
{
	this_cpu_inc(kmap_atomic_irq_lowmem[irq_class(kmap_atomic_level())]);
	this_cpu_inc(kmap_atomic_outstanding);
}
EXPORT_SYMBOL(__kmap_atomic_lowmem_in_irq);

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

static const char * const report_names[KMAP_REPORT_NR] = {
	[KMAP_REPORT_COLLISION] = "collision",
	[KMAP_REPORT_CONTEXT] = "wrong_context",
	[KMAP_REPORT_WRONG_ADDRESS] = "unmap_wrong_address",
	[KMAP_REPORT_NOT_HELD] = "unmap_not_held",
	[KMAP_REPORT_OTHER_CONTEXT] = "unmap_other_context",
	[KMAP_REPORT_INVALID_TYPE] = "invalid_type",
	[KMAP_REPORT_LEAK] = "leak",
	[KMAP_REPORT_NO_SPARE] = "no_spare",
	[KMAP_REPORT_FAULT] = "fault",
};

/**
 * kmap_atomic_report_name - the name of a kind of misuse, for traces and counts
 * @kind: the kind
 *
 * Return: "collision", "wrong_context" and so on, or "unknown".
 */
const char *kmap_atomic_report_name(enum kmap_atomic_report kind)
{
	if ((unsigned int)kind >= KMAP_REPORT_NR)
		return "unknown";
	return report_names[kind];
}

/**
 * kmap_atomic_slot_context - the context a slot is reserved for
 * @type: the slot; must be below KM_TYPE_NR
 *
 * Return: KM_CTX_TASK, KM_CTX_SOFTIRQ, KM_CTX_IRQ, KM_CTX_NMI or
 * KM_CTX_DEBUGGER (see <linux/kmap_types.h>);
 * KM_CTX_IRQ, the strictest, after a warning for a @type that is no slot.
 */
enum km_context kmap_atomic_slot_context(enum km_type type)
{
	if (WARN_ON_ONCE((unsigned int)type >= KM_TYPE_NR))
		return KM_CTX_IRQ;
	return kmap_atomic_slots[type].context;
}
EXPORT_SYMBOL(kmap_atomic_slot_context);

/* A misuse of @kind: traced each time, printed once per call site @ip. */
#define report(kind, type, pfn, addr, ip, fmt, ...)			\
do {									\
	unsigned long __ip = (ip);					\
									\
	trace_kmap_atomic_report(kind, type, pfn, (unsigned long)(addr), __ip); \
	if (kmap_atomic_report_site(__ip))				\
		WARN(1, "kmap_atomic: " fmt "\n", ##__VA_ARGS__);	\
} while (0)

/*
 * The fast path's events, out of line and called only while the event is
 * on, so that nothing they need (the caller, the pte, __pa()) is loaded or
 * kept live on the fast path: a disabled event costs its 5-byte nop (and,
 * as gcc allocates registers around the call, a move in the map).
 */
static noinline void map_event(unsigned int type, unsigned long pfn, unsigned long vaddr,
			       unsigned long ip)
{
	trace_kmap_atomic_map(type, pfn, vaddr, ip);
}

static noinline void unmap_event_pte(unsigned int type, pte_t *ptep, unsigned long vaddr,
				     unsigned long ip)
{
	trace_kmap_atomic_unmap(type, pte_pfn(ptep_get(ptep)), vaddr, ip);
}

static noinline void unmap_event_lowmem(unsigned int type, unsigned long vaddr,
					unsigned long ip)
{
	trace_kmap_atomic_unmap(type, PFN_DOWN(__pa(vaddr)), vaddr, ip);
}

static pte_t *slot_pte(unsigned int idx)
{
	pte_t *ptep = this_cpu_read(kmap_atomic_cpu.ptes[idx]);

	if (unlikely(!ptep)) {
		ptep = virt_to_kpte(kmap_atomic_slot_addr(smp_processor_id(), idx));
		this_cpu_write(kmap_atomic_cpu.ptes[idx], ptep);
	}
	return ptep;
}

static unsigned long slot_addr(unsigned int idx)
{
	return kmap_atomic_slot_addr(smp_processor_id(), idx);
}

/* @pfn's pte with kmap_prot, from the template: kmap_atomic_template_ok is on. */
static __always_inline pte_t template_pte(unsigned long pfn)
{
	return __pte(kmap_atomic_template | (pteval_t)pfn << PAGE_SHIFT);
}

/* @pfn's pte with @prot: from the template if it is kmap_prot's. */
static __always_inline pte_t mk_slot_pte(unsigned long pfn, pgprot_t prot)
{
	if (static_branch_likely(&kmap_atomic_template_ok) &&
	    pgprot_val(prot) == pgprot_val(kmap_prot))
		return template_pte(pfn);
	return pfn_pte(pfn, prot);
}

/*
 * The frames the template is checked for: low, the first above lowmem,
 * the last below 4 GiB, the first above, and the last an unsigned long
 * names (or the last the physical mask allows, if that is lower).
 */
#define TEMPLATE_CHECKS	5
static unsigned long __init template_check_pfn(unsigned int i)
{
	switch (i) {
	case 0: return 1;
	case 1: return max_low_pfn;
	case 2: return PHYS_PFN(SZ_4G) - 1;
	case 3: return PHYS_PFN(SZ_4G);
	default: return min_t(u64, __PHYSICAL_MASK >> PAGE_SHIFT, ULONG_MAX);
	}
}

/*
 * Fill in every possible CPU's slot ptes and addresses, compute the pte
 * template and check it; on success, turn the fast path on. Before SMP
 * and before anything maps a highmem page in a slot (rootfs, drivers):
 * until then the maps take pfn_pte() and the lazy lookup.
 */
static int __init kmap_atomic_fast_init(void)
{
	unsigned int cpu, idx, i;

	for_each_possible_cpu(cpu) {
		struct kmap_atomic_cpu *kc = per_cpu_ptr(&kmap_atomic_cpu, cpu);

		for (idx = 0; idx < KM_SLOTS_USED; idx++) {
			kc->addrs[idx] = kmap_atomic_slot_addr(cpu, idx);
			kc->ptes[idx] = virt_to_kpte(kc->addrs[idx]);
			/* No fixmap page table: the slow paths look again, and fail the same. */
			if (WARN_ON_ONCE(!kc->ptes[idx]))
				return 0;
		}
	}
	static_branch_enable(&kmap_atomic_slots_ready);
	kmap_atomic_template = pte_val(pfn_pte(0, kmap_prot));
	for (i = 0; i < TEMPLATE_CHECKS; i++) {
		unsigned long pfn = template_check_pfn(i);
		pteval_t want = pte_val(pfn_pte(pfn, kmap_prot));

		if (pte_val(template_pte(pfn)) != want) {
			pr_warn("kmap_atomic: the pte template gives %#llx for page frame %#lx, pfn_pte() %#llx: typed maps call pfn_pte() (slower, still correct)\n",
				(u64)pte_val(template_pte(pfn)), pfn, (u64)want);
			return 0;
		}
	}
	static_branch_enable(&kmap_atomic_template_ok);
	return 0;
}
early_initcall(kmap_atomic_fast_init);

/**
 * kmap_atomic_template_in_use() - whether typed maps use the pte template
 *
 * Return: true if maps with kmap_prot OR the frame into the boot-time
 * template; false if kmap_atomic_fast_init() found it wrong for some
 * frame, or has not run. For the KUnit suite.
 */
bool kmap_atomic_template_in_use(void)
{
	return static_key_enabled(&kmap_atomic_template_ok);
}
EXPORT_SYMBOL_GPL(kmap_atomic_template_in_use);

/*
 * Set a none pte, unless something on this CPU got there first: an
 * interrupt or NMI that took the slot between a check and a plain write.
 * Only this CPU writes its slots' ptes, so no LOCK prefix is needed; the
 * whole pte is written at once, never in PAE's two halves.
 */
static bool claim_none_pte(pte_t *ptep, pte_t pte)
{
	if (sizeof(pte_t) == sizeof(u64))
		return cmpxchg64_local((u64 *)ptep, 0, pte_val(pte)) == 0;
	return cmpxchg_local((unsigned long *)ptep, 0, (unsigned long)pte_val(pte)) == 0;
}

/* Is @h a map of this context: the task whose counts it raised, at this level? */
static __always_inline bool mine(const struct kmap_atomic_held *h)
{
	return h->task == current && h->level == kmap_atomic_level();
}

/*
 * The task's stack of typed maps (<linux/highmem-typed.h>): where each
 * record's depth is a place. An interrupt's maps go on the stack of the
 * task it interrupted, as their counts do.
 */
static __always_inline int typed_depth(void)
{
	return current->kmap_ctrl.typed_depth;
}

/* Is @h this context's last map, the top of its stack? */
static __always_inline bool at_top(const struct kmap_atomic_held *h)
{
	return mine(h) && h->depth == typed_depth();
}

/*
 * Does record @i count in kmap_atomic_outstanding while held? Spares and
 * fallbacks, named slots mapped in an interrupt, and maps left behind:
 * what a context's end reclaims, where a task's other named slots are
 * told apart by orphaned().
 */
static __always_inline bool outstanding(unsigned int i, unsigned int level, int depth)
{
	return i >= KM_TYPE_NR || level || depth == KM_LEFT;
}

/*
 * Fill in record @i for a map of @type by this context (at interrupt
 * level @level), whose count is at @depth. The task goes in last: an
 * interrupt that finds the record without it takes the slot for one in
 * use, never for one left behind.
 */
static __always_inline void hold(unsigned int i, unsigned int type, int depth, unsigned int level)
{
	struct kmap_atomic_held *h = this_cpu_ptr(&kmap_atomic_cpu.held[i]);

	h->type = type;
	h->level = level;
	h->depth = depth;
	this_cpu_inc(kmap_atomic_held_nr);
	if (outstanding(i, level, depth))
		this_cpu_inc(kmap_atomic_outstanding);
	barrier();
	WRITE_ONCE(h->task, current);
}

/*
 * Write @pte into slot @idx's pte @ptep (at @vaddr), for @type, if it is
 * none, and hold the slot for this context, at interrupt level @level;
 * preemption is off.
 * Return: whether the pte was none.
 */
static __always_inline bool claim_slot(unsigned int idx, unsigned int type, pte_t *ptep,
				       unsigned long vaddr, pte_t pte, unsigned int level)
{
	/*
	 * This map's place in the typed maps' stack, read before the claim: an
	 * int3, #DB or #MC handler that maps and returns holding (their exits
	 * reclaim nothing) raises the count above it meanwhile.
	 */
	int depth = typed_depth();

	if (!claim_none_pte(ptep, pte))
		return false;
	arch_kmap_local_post_map(vaddr, pte);
	hold(idx, type, depth, level);
	return true;
}

/*
 * Map @pfn in slot @idx of this CPU, for @type, if its pte is none.
 * Return: the slot's address, or 0 if the slot is in use.
 */
static __always_inline unsigned long map_idx(unsigned int idx, unsigned int type,
					     unsigned long pfn, pgprot_t prot)
{
	unsigned long vaddr = slot_addr(idx);

	return claim_slot(idx, type, slot_pte(idx), vaddr, mk_slot_pte(pfn, prot),
			  kmap_atomic_level()) ? vaddr : 0;
}

/* A map that returns NULL gives back the counts the map raised. */
void kmap_atomic_refuse(void)
{
	current->kmap_ctrl.typed_depth--;
	pagefault_enable();
	preempt_enable();
}

/*
 * What a reclaimed map raised, given back; unless a one-argument
 * kunmap_atomic(addr) of it gave the counts back already, where they are
 * not there to give: never below zero.
 */
void kmap_atomic_reclaim_counts(void)
{
	if (current->pagefault_disabled > 0)
		kmap_atomic_refuse();
	else
		current->kmap_ctrl.typed_depth--;
}

#ifdef CONFIG_DEBUG_KMAP_ATOMIC
unsigned long kmap_atomic_map_idx(unsigned int idx, unsigned long pfn, pgprot_t prot)
{
	unsigned long vaddr = map_idx(idx, idx, pfn, prot);

	/* As mapped(): an unmap's flush may not have come yet. */
	if (vaddr && kmap_atomic_level())
		arch_kmap_local_post_unmap(vaddr);
	return vaddr;
}
#endif

/* Clear a slot's pte and flush its address here: it faults from now on. */
static __always_inline void clear_idx(pte_t *ptep, unsigned long vaddr)
{
	arch_kmap_local_pre_unmap(vaddr);
	pte_clear(&init_mm, vaddr, ptep);
	arch_kmap_local_post_unmap(vaddr);
}

/*
 * Is fallback record @h still an entry of this task's kmap_local stack as
 * it was mapped? Not if it was released another way (kunmap_local()):
 * then the record is stale, and the address may be someone else's entry.
 */
static bool fallback_live(const struct kmap_atomic_held *h)
{
	int idx = kmap_atomic_local_entry(h->vaddr);

	return h->task == current && idx >= 0 && idx < current->kmap_ctrl.idx &&
	       pte_val(current->kmap_ctrl.pteval[idx]) == h->pte;
}

/* Free record @i, which maps nothing (any more). */
static __always_inline void drop(unsigned int i)
{
	struct kmap_atomic_held *h = this_cpu_ptr(&kmap_atomic_cpu.held[i]);

	WRITE_ONCE(h->task, NULL);
	this_cpu_dec(kmap_atomic_held_nr);
	if (outstanding(i, h->level, h->depth))
		this_cpu_dec(kmap_atomic_outstanding);
}

/*
 * Free record @i if it is still @task's (an NMI may have taken it since
 * it was read): the one place a record is taken from someone who may not
 * be running. Return: whether it was.
 */
static bool drop_if(unsigned int i, struct task_struct *task, unsigned int level, int depth)
{
	struct kmap_atomic_held *h = this_cpu_ptr(&kmap_atomic_cpu.held[i]);

	if (!task || cmpxchg_local(&h->task, task, NULL) != task)
		return false;
	this_cpu_dec(kmap_atomic_held_nr);
	if (outstanding(i, level, depth))
		this_cpu_dec(kmap_atomic_outstanding);
	return true;
}

/*
 * Drop fallback record @i of this task, found stale with interrupts off:
 * an NMI's typed unmap may drop it first, and only one may.
 */
static void drop_stale(unsigned int i)
{
	struct kmap_atomic_held *h = this_cpu_ptr(&kmap_atomic_cpu.held[i]);

	drop_if(i, current, h->level, h->depth);
}

/*
 * The maps of @task at @level made after the one at @depth move down a
 * place in its count stack: that count was given back.
 */
static void renumber(struct kmap_atomic_cpu *kc, struct task_struct *task, unsigned int level,
		     int depth)
{
	struct kmap_atomic_held *h;
	unsigned int j;

	for (j = 0; j < KM_HELD_NR; j++) {
		h = &kc->held[j];
		if (h->task == task && h->level == level && h->depth > depth)
			h->depth--;
	}
}

/*
 * The one release: every unmap, the reuse of a map left behind and the
 * reclaim at a context's end come here. Free record @i if it is still
 * @task's (first, so that an interrupt in between takes the slot for one
 * in use), then unmap: clear the slot's pte and flush it here, or pop the
 * fallback from kmap_local's stack (unmap it now and pop it when it is
 * the top, if it is not). If the map's counts are given back with it
 * (@popped), the maps this context made after it move down a place in
 * its count stack, so that each record's depth stays the place of its
 * count. Interrupts are off, or the record is the caller's own, which no
 * interrupt takes. The page frame it mapped goes in *@pfn.
 *
 * Return: whether it was released (not if an NMI took it first).
 */
static bool release_as(unsigned int i, struct task_struct *task, bool popped,
		       unsigned long *pfn)
{
	struct kmap_atomic_cpu *kc = this_cpu_ptr(&kmap_atomic_cpu);
	struct kmap_atomic_held *h = &kc->held[i];
	unsigned int level = h->level;
	int depth = h->depth;

	if (!drop_if(i, task, level, depth))
		return false;
	barrier();
	if (i < KM_SLOTS_USED) {
		pte_t *ptep = slot_pte(i);

		*pfn = pte_pfn(ptep_get(ptep));
		clear_idx(ptep, slot_addr(i));
	} else {
		*pfn = pte_pfn(__pte(h->pte));
		if (h->vaddr == kmap_atomic_local_top())
			kunmap_local_indexed((void *)h->vaddr);
		else
			kmap_atomic_release_buried(h->vaddr);
	}
	if (popped && depth != KM_LEFT && depth < typed_depth())
		renumber(kc, task, level, depth);
	return true;
}

/* Release record @i of this context. Return: the page frame it mapped. */
static unsigned long release(unsigned int i, bool popped)
{
	unsigned long pfn = 0;

	release_as(i, READ_ONCE(this_cpu_ptr(&kmap_atomic_cpu)->held[i].task), popped, &pfn);
	return pfn;
}

/* kmap_atomic_release - release record @i and give back its counts' place */
unsigned long kmap_atomic_release(unsigned int i)
{
	return release(i, true);
}

/**
 * kmap_atomic_lowmem_popped - 2.6's rule gave back a count of this context
 * @places: how many places of the typed maps' stack this context has (all
 *	of the task's for a task; an interrupt's own, above the task's)
 *
 * A lowmem unmap that stands for no record gave back the count of this
 * context's last lowmem map (a place in its count stack with no record):
 * the records above that place move down one, so that a lowmem map
 * unmapped under a highmem one (2.6's copy_user_highpage() from a lowmem
 * page) leaves each record's depth its place. With a record in every
 * place of the context, the count was its top map's: that map is left
 * behind. Called with interrupts off, before the count is given back.
 */
void kmap_atomic_lowmem_popped(int places)
{
	struct kmap_atomic_cpu *kc = this_cpu_ptr(&kmap_atomic_cpu);
	unsigned int level = kmap_atomic_level(), j;
	int place, base = typed_depth() - places;

	if (!this_cpu_read(kmap_atomic_held_nr))
		return;
	for (place = typed_depth(); place > base; place--) {
		for (j = 0; j < KM_HELD_NR; j++)
			if (kc->held[j].task == current && kc->held[j].level == level &&
			    kc->held[j].depth == place)
				break;
		if (j == KM_HELD_NR)
			break;	/* no record here: the lowmem map's place */
	}
	if (place > base) {
		renumber(kc, current, level, place);
		return;
	}
	/*
	 * With a record in every place, the top one's count went: it is left
	 * behind. Nothing stands for it any more; its context's end reclaims it.
	 */
	for (j = 0; j < KM_HELD_NR; j++) {
		struct kmap_atomic_held *h = &kc->held[j];

		if (mine(h) && h->depth == typed_depth()) {
			if (!outstanding(j, level, h->depth))
				this_cpu_inc(kmap_atomic_outstanding);
			h->depth = KM_LEFT;
			break;
		}
	}
}

/* How many places of its stack do this context's records here take? */
static int records_held(struct kmap_atomic_cpu *kc)
{
	unsigned int j;
	int n = 0;

	/* A map left behind has no place: its count went already. */
	for (j = 0; j < KM_HELD_NR; j++)
		n += mine(&kc->held[j]) && kc->held[j].depth != KM_LEFT;
	return n;
}

/*
 * 2.6's rule for a lowmem unmap that stands for no record: it gives back
 * a count of this context's, if it has one. A task's are its own. An
 * interrupt's are the task's it interrupted: the interrupt gives back
 * only what it raised, a lowmem map's (kmap_atomic_irq_lowmem), else one
 * of its records' (which is left behind). Return: whether it may.
 */
static bool lowmem_rule(void)
{
	struct kmap_atomic_cpu *kc;
	unsigned int level = kmap_atomic_level(), c = irq_class(level);
	unsigned long flags;
	int places;
	bool ok;

	local_irq_save(flags);
	kc = this_cpu_ptr(&kmap_atomic_cpu);
	if (!level) {
		places = typed_depth();
		ok = places > 0;
	} else {
		places = records_held(kc) + this_cpu_read(kmap_atomic_irq_lowmem[c]);
		ok = typed_depth() > 0 && places > 0;
		if (ok && this_cpu_read(kmap_atomic_irq_lowmem[c])) {
			this_cpu_dec(kmap_atomic_irq_lowmem[c]);
			this_cpu_dec(kmap_atomic_outstanding);
		}
	}
	if (ok)
		kmap_atomic_lowmem_popped(places);
	local_irq_restore(flags);
	return ok;
}

/*
 * Was the map in record @h, @task's, left behind: its counts given back
 * without it (a lowmem pointer passed for it deeper in its context,
 * 2.6's rule), or its context over? Then nothing uses it: its task is
 * another (a task holding a map cannot be switched out), its context is
 * no longer under this one, or, in this very context, it sits at or above
 * the top of the count stack, where the map now asking has just put its
 * own count (so: asked by a map only). A record being written or released
 * is in use.
 */
static bool orphaned(const struct kmap_atomic_held *h, struct task_struct *task)
{
	unsigned int level = kmap_atomic_level(), l = h->level;

	if (!task)
		return false;
	if (task != current)
		return true;
	if (l == level)
		return h->depth == KM_LEFT || h->depth >= typed_depth();
	/* A context under this one: each nesting count no more than ours. */
	return (l & NMI_MASK) > (level & NMI_MASK) ||
	       (l & HARDIRQ_MASK) > (level & HARDIRQ_MASK) ||
	       (l & SOFTIRQ_OFFSET) > (level & SOFTIRQ_OFFSET);
}

/*
 * Release record @i if the map in it was left behind (orphaned()), for
 * the map that finds it in use. Interrupts are off; an NMI that takes it
 * first wins. Return: whether it was released here.
 */
static bool release_orphan(unsigned int i)
{
	struct kmap_atomic_held *h = this_cpu_ptr(&kmap_atomic_cpu.held[i]);
	struct task_struct *task = READ_ONCE(h->task);
	unsigned long pfn;

	return orphaned(h, task) && release_as(i, task, false, &pfn);
}

/*
 * Release slot @idx if the map in it was left behind, for the map that
 * finds it in use. Return: whether it was.
 */
bool kmap_atomic_reclaim_orphan(unsigned int idx)
{
	unsigned long flags;
	bool orphan;

	local_irq_save(flags);
	orphan = release_orphan(idx);
	local_irq_restore(flags);
	return orphan;
}

/*
 * Which record an unmap of @vaddr (a page's address) as @type stands for,
 * on this CPU. A mapped address: the record of this context that maps
 * it, under whatever type. A lowmem address: the record of this context
 * for @type (its named slot, a spare or a fallback given for it) whose
 * count is the top of this context's stack: a wrong pointer passed for
 * that map. A lowmem unmap deeper than that is 2.6's rule, for a lowmem
 * map. Stale fallback records met on the way are dropped. Interrupts are
 * off.
 *
 * Return: the record's index; -1 if the unmap stands for no map of this
 * context, with *@other set if @vaddr is another context's map here.
 */
int kmap_atomic_find_held(unsigned long vaddr, unsigned int type, bool *other)
{
	struct kmap_atomic_cpu *kc = this_cpu_ptr(&kmap_atomic_cpu);
	struct kmap_atomic_where w;
	struct kmap_atomic_held *h;
	unsigned int i;

	*other = false;
	type = min_t(unsigned int, type, KM_TYPE_NR);
	if (kmap_atomic_is_lowmem(vaddr)) {
		if (type < KM_TYPE_NR && at_top(&kc->held[type]))
			return type;
		for (i = KM_TYPE_NR; i < KM_HELD_NR && this_cpu_read(kmap_atomic_outstanding);
		     i++) {
			h = &kc->held[i];
			if (h->type != type || !at_top(h))
				continue;
			if (i < KM_SLOTS_USED || fallback_live(h))
				return i;
			drop_stale(i);
		}
		return -1;
	}
	if (kmap_atomic_slot_of(vaddr, &w)) {
		if (w.cpu != smp_processor_id() || w.guard || !READ_ONCE(kc->held[w.idx].task))
			return -1;
		if (mine(&kc->held[w.idx]))
			return w.idx;
		*other = true;
		return -1;
	}
	if (!kmap_atomic_is_local(vaddr))
		return -1;
	for (i = KM_SLOTS_USED; this_cpu_read(kmap_atomic_outstanding) && i < KM_HELD_NR; i++) {
		h = &kc->held[i];
		if (h->task != current || h->vaddr != vaddr)
			continue;
		if (!fallback_live(h)) {
			drop_stale(i);
			continue;
		}
		if (h->level == kmap_atomic_level())
			return i;
		*other = true;
		return -1;
	}
	return -1;
}

/* The type record @i was mapped for: KM_TYPE_NR for one that is no slot. */
unsigned int kmap_atomic_held_type(unsigned int i)
{
	return this_cpu_read(kmap_atomic_cpu.held[i].type);
}

/* Was record @i left behind, its count given back by a lowmem unmap below it? */
bool kmap_atomic_held_left(unsigned int i)
{
	return this_cpu_read(kmap_atomic_cpu.held[i].depth) == KM_LEFT;
}

/*
 * With every spare in use, a misuse is mapped with kmap_local, and
 * recorded with its address and pte there, so that the typed unmap knows
 * it. Not for NMIs: kmap_local's stack is the interrupted task's.
 * Return: the address, or NULL if kmap_local's stack (past which it would
 * BUG()) or the records are full.
 */
void *kmap_atomic_fallback_map(unsigned long pfn, pgprot_t prot, unsigned int type)
{
	struct kmap_atomic_cpu *kc = this_cpu_ptr(&kmap_atomic_cpu);
	struct kmap_atomic_held *h = NULL;
	unsigned long flags;
	void *addr = NULL;
	unsigned int i;

	/* An interrupt that falls back too must see the records whole. */
	local_irq_save(flags);
	if (current->kmap_ctrl.idx + KM_LOCAL_INCR * (1 + KM_LOCAL_RESERVE) >= KM_MAX_IDX)
		goto out;
	/* This task's records: stale ones dropped, those left behind popped. */
	for (i = KM_SLOTS_USED; i < KM_HELD_NR; i++) {
		if (kc->held[i].task == current && !fallback_live(&kc->held[i]))
			drop_stale(i);
		else if (kc->held[i].task == current)
			release_orphan(i);
		if (!kc->held[i].task && !h)
			h = &kc->held[i];
	}
	if (!h)
		goto out;
	addr = __kmap_local_pfn_prot(pfn, __pgprot(pgprot_val(prot) |
						   arch_kmap_atomic_fallback_tag));
	h->vaddr = (unsigned long)addr;
	h->pte = pte_val(current->kmap_ctrl.pteval[kmap_atomic_local_entry(h->vaddr)]);
	hold(h - kc->held, min_t(unsigned int, type, KM_TYPE_NR), typed_depth(),
	     kmap_atomic_level());
out:
	local_irq_restore(flags);
	return addr;
}

/*
 * Map @pfn in a free spare of this CPU for a misuse of @type, claimed on
 * its pte so that an interrupt or NMI on this CPU cannot take the same
 * one; with none free, in one left behind (*@reused). The last
 * KM_NMI_SPARES are kept for NMIs, which must never need the kmap_local
 * fallback: kmap_local's stack is the interrupted task's.
 * Return: the spare's number, or -1 if none is free.
 */
int kmap_atomic_claim_spare(unsigned long pfn, pgprot_t prot, unsigned int type, bool *reused)
{
	unsigned int spares = KM_SPARE_SLOTS - (in_nmi() ? 0 : KM_NMI_SPARES);
	unsigned long vaddr = 0;
	unsigned int i, pass;

	type = min_t(unsigned int, type, KM_TYPE_NR);
	*reused = false;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < spares; i++) {
			if (pass && !kmap_atomic_reclaim_orphan(KM_TYPE_NR + i))
				continue;
			vaddr = map_idx(KM_TYPE_NR + i, type, pfn, prot);
			if (!vaddr)
				continue;
			/*
			 * A spare is any context's: an interrupt may have taken it in
			 * the moment between another context's pte clear and flush.
			 */
			arch_kmap_local_post_unmap(vaddr);
			*reused = pass;
			return i;
		}
	}
	return -1;
}

/*
 * A collision or a bad type: the named slot again if what holds it was
 * left behind, else a spare, else a kmap_local fallback.
 */
static noinline void *map_misused(unsigned long pfn, enum km_type type,
				  pgprot_t prot, unsigned long ip)
{
	unsigned int cpu = smp_processor_id();
	unsigned long vaddr;
	bool reused;
	void *addr;
	int i;

	if ((unsigned int)type < KM_TYPE_NR && kmap_atomic_reclaim_orphan(type)) {
		vaddr = map_idx(type, type, pfn, prot);
		if (vaddr) {
			trace_kmap_atomic_map(type, pfn, vaddr, ip);
			report(KMAP_REPORT_LEAK, type, pfn, 0, ip,
			       "%pS maps %s, which CPU%u still mapped for a map whose counts were given back without it (a wrong pointer unmapped out of order?): reclaimed and reused",
			       (void *)ip, kmap_atomic_slot_name(type), cpu);
			return (void *)vaddr;
		}
	}
	i = kmap_atomic_claim_spare(pfn, prot, type, &reused);
	/* The map's event first, then the report's, as in the debug flavor. */
	if (i >= 0) {
		addr = (void *)slot_addr(KM_TYPE_NR + i);
		trace_kmap_atomic_map(type, pfn, (unsigned long)addr, ip);
		if ((unsigned int)type >= KM_TYPE_NR)
			report(KMAP_REPORT_INVALID_TYPE, type, pfn, 0, ip,
			       "%pS maps slot %u, which does not exist (KM_TYPE_NR is %d): given spare %u on CPU%u%s",
			       (void *)ip, type, KM_TYPE_NR, i, cpu,
			       reused ? ", reclaimed from a map left behind" : "");
		else
			report(KMAP_REPORT_COLLISION, type, pfn, 0, ip,
			       "%pS maps %s, which CPU%u has mapped already (nested use, or never unmapped): given spare %u%s",
			       (void *)ip, kmap_atomic_slot_name(type), cpu, i,
			       reused ? ", reclaimed from a map left behind" : "");
		return addr;
	}

	/* kmap_local's stack is the interrupted task's: an NMI gets NULL. */
	addr = in_nmi() ? NULL : kmap_atomic_fallback_map(pfn, prot, type);
	if (!addr) {
		report(KMAP_REPORT_NO_SPARE, type, pfn, 0, ip,
		       "%pS maps %s on CPU%u with every spare in use and %s: not mapped, NULL returned",
		       (void *)ip, kmap_atomic_slot_name(type), cpu,
		       in_nmi() ? "in an NMI" : "kmap_local's stack half full");
		kmap_atomic_refuse();
		return NULL;
	}
	trace_kmap_atomic_map(type, pfn, (unsigned long)addr, ip);
	report(KMAP_REPORT_NO_SPARE, type, pfn, 0, ip,
	       "%pS maps %s on CPU%u, which has its %d spares in use: mapped with kmap_local",
	       (void *)ip, kmap_atomic_slot_name(type), cpu, KM_SPARE_SLOTS - KM_NMI_SPARES);
	return addr;
}

/* A map made: flush what an interrupted unmap left, and the event. */
static __always_inline void *mapped(unsigned int type, unsigned long pfn, unsigned long vaddr,
				    unsigned long ip, unsigned int level)
{
	/*
	 * An interrupt (a misuse, or an NMI) may have come between the pte
	 * clear and the flush of an unmap of this very slot: flush what that
	 * left in the TLB.
	 */
	if (unlikely(level))
		arch_kmap_local_post_unmap(vaddr);
	if (trace_kmap_atomic_map_enabled())
		map_event(type, pfn, vaddr, ip);
	return (void *)vaddr;
}

static __always_inline void *map_prot(unsigned long pfn, enum km_type type, pgprot_t prot,
				      unsigned long ip)
{
	unsigned int idx = type;
	unsigned long vaddr;

	if (likely(idx < KM_TYPE_NR)) {
		vaddr = map_idx(idx, idx, pfn, prot);
		if (likely(vaddr))
			return mapped(type, pfn, vaddr, ip, kmap_atomic_level());
	}
	return map_misused(pfn, type, prot, ip);
}

#ifndef CONFIG_DEBUG_KMAP_ATOMIC
/* The named slot was in use, or @type is no slot, or it is early in boot. */
static noinline void *map_default_slow(unsigned long pfn, enum km_type type, unsigned long ip)
{
	return map_prot(pfn, type, kmap_prot, ip);
}

/*
 * kmap_prot's map of @pfn: the named slot's pte from the template. Out of
 * line, and called last, so that a lowmem map saves no registers for it.
 */
static noinline void *map_default(unsigned long pfn, enum km_type type, unsigned long ip)
{
	unsigned int idx = type;

	if (static_branch_likely(&kmap_atomic_template_ok) && likely(idx < KM_TYPE_NR)) {
		unsigned long vaddr = this_cpu_read(kmap_atomic_cpu.addrs[idx]);
		unsigned int level = kmap_atomic_level();

		if (likely(claim_slot(idx, idx, this_cpu_read(kmap_atomic_cpu.ptes[idx]), vaddr,
				      template_pte(pfn), level)))
			return mapped(type, pfn, vaddr, ip, level);
	}
	return map_default_slow(pfn, type, ip);
}

/* A lowmem map with its event on, or in an interrupt. */
static noinline void *map_lowmem_traced_or_counted(struct page *page, enum km_type type,
						   unsigned long ip)
{
	void *addr = lowmem_page_address(page);

	if (trace_kmap_atomic_map_enabled())
		map_event(type, page_to_pfn(page), (unsigned long)addr, ip);
	/* An interrupt gives back only what it raised: counted. */
	if (unlikely(kmap_atomic_level()))
		__kmap_atomic_lowmem_in_irq();
	return addr;
}

/**
 * __kmap_atomic_page - kmap_atomic(page, type), out of line
 * @page: the page
 * @type: the slot
 *
 * Disables preemption and page faults and takes a place on the task's
 * stack of typed maps (kmap_atomic_counts_raise()); a lowmem page gives
 * its address, a highmem page is mapped with kmap_prot, whose pte is the
 * boot-time template with the frame ORed in. Use kmap_atomic(page, type),
 * not this.
 *
 * Return: as kmap_atomic_prot_typed().
 */
void *__kmap_atomic_page(struct page *page, enum km_type type)
{
	kmap_atomic_counts_raise();
	if (PageHighMem(page))
		return map_default(page_to_pfn(page), type, _RET_IP_);
	if (unlikely(trace_kmap_atomic_map_enabled() || kmap_atomic_level()))
		return map_lowmem_traced_or_counted(page, type, _RET_IP_);
	return lowmem_page_address(page);
}
EXPORT_SYMBOL(__kmap_atomic_page);

/**
 * __kmap_atomic_pfn - kmap_atomic_pfn(pfn, type), out of line
 * @pfn: the page frame; it need not have a struct page
 * @type: the slot
 *
 * As __kmap_atomic_page() for a highmem page, whatever the frame. Use
 * kmap_atomic_pfn(pfn, type), not this.
 *
 * Return: as kmap_atomic_prot_typed().
 */
void *__kmap_atomic_pfn(unsigned long pfn, enum km_type type)
{
	kmap_atomic_counts_raise();
	return map_default(pfn, type, _RET_IP_);
}
EXPORT_SYMBOL(__kmap_atomic_pfn);
#endif /* !CONFIG_DEBUG_KMAP_ATOMIC: the debug flavor maps in debug.c */

/**
 * __kmap_atomic_slot - map a page frame in this CPU's slot @type
 * @pfn: the page frame
 * @type: the slot
 * @prot: the protection of the mapping
 *
 * The out-of-line half of kmap_atomic_prot(page, type, prot) for highmem
 * pages. The caller has disabled preemption and page faults; use those,
 * not this.
 *
 * Return: the slot's virtual address, now mapping @pfn; a spare slot's if
 * @type is in use on this CPU or is no slot; with every spare in use, a
 * kmap_local address; NULL, with the counts given back, for an NMI with
 * every spare in use or with kmap_local's stack half full.
 */
void *__kmap_atomic_slot(unsigned long pfn, enum km_type type, pgprot_t prot)
{
	return map_prot(pfn, type, prot, _RET_IP_);
}
EXPORT_SYMBOL(__kmap_atomic_slot);

#ifdef CONFIG_TRACEPOINTS
/**
 * __kmap_atomic_trace_lowmem - trace the map of a lowmem page
 * @page: the lowmem page, which kmap_atomic(page, type) maps with no slot
 * @type: the slot named
 *
 * The kmap_atomic_map event of kmap_atomic_prot()'s inline lowmem map,
 * which calls this only while the event is enabled; out of line, so that
 * the caller traced is the call site.
 */
void __kmap_atomic_trace_lowmem(struct page *page, enum km_type type)
{
	trace_kmap_atomic_map(type, page_to_pfn(page),
			      (unsigned long)lowmem_page_address(page), _RET_IP_);
}
EXPORT_SYMBOL(__kmap_atomic_trace_lowmem);
#endif

/* What @vaddr is, for the report of an unmap that stands for no map. */
static void report_unmap(const void *addr, unsigned long vaddr, unsigned int type, bool other,
			 unsigned long ip)
{
	unsigned int cpu = smp_processor_id();
	const char *name = kmap_atomic_slot_name(type);
	struct kmap_atomic_where w;

	if (other) {
		report(KMAP_REPORT_OTHER_CONTEXT, type, 0, addr, ip,
		       "%pS unmaps %p from %s, but another context on CPU%u mapped it (an interrupt's map, or the one it interrupted): nothing changed",
		       (void *)ip, addr, name, cpu);
		return;
	}
	if (type >= KM_TYPE_NR) {
		report(KMAP_REPORT_INVALID_TYPE, type, 0, addr, ip,
		       "%pS unmaps %p from slot %u, which does not exist, and maps nothing of this context: nothing changed",
		       (void *)ip, addr, type);
		return;
	}
	if (kmap_atomic_slot_of(vaddr, &w) && w.cpu == cpu && !w.guard) {
		report(KMAP_REPORT_NOT_HELD, type, 0, addr, ip,
		       "%pS unmaps %p from %s, but CPU%u's %s maps nothing (unmapped twice, or a stale pointer?): nothing changed",
		       (void *)ip, addr, name, cpu,
		       w.idx < KM_TYPE_NR ? kmap_atomic_slot_name(w.idx) : "spare");
		return;
	}
	if (kmap_atomic_slot_of(vaddr, &w)) {
		report(KMAP_REPORT_WRONG_ADDRESS, type, 0, addr, ip,
		       "%pS unmaps %p from %s on CPU%u, but that is CPU%u's %s: nothing changed",
		       (void *)ip, addr, name, cpu, w.cpu,
		       w.guard ? "guard page or padding" :
		       w.idx < KM_TYPE_NR ? kmap_atomic_slot_name(w.idx) : "spare");
		return;
	}
	if (kmap_atomic_is_local(vaddr)) {
		report(KMAP_REPORT_WRONG_ADDRESS, type, 0, addr, ip,
		       "%pS unmaps %p from %s, but that is a kmap_local_page() or kmap_atomic(page) address (use kunmap_local() or kunmap_atomic(addr)): nothing changed",
		       (void *)ip, addr, name);
		return;
	}
	report(KMAP_REPORT_WRONG_ADDRESS, type, 0, addr, ip,
	       "%pS unmaps %p from %s, but no typed slot maps it (a stale or made-up pointer?): nothing changed",
	       (void *)ip, addr, name);
}

static noinline bool unmap_unbalanced(const void *addr, unsigned int type,
				      unsigned long ip)
{
	report(KMAP_REPORT_WRONG_ADDRESS, type, 0, addr, ip, KMAP_COUNTS_GIVEN_BACK, (void *)ip,
	       kmap_atomic_slot_name(type));
	return false;
}

/*
 * Every unmap but a named slot's own at the top of its context and a
 * lowmem one that stands for no map (and every unmap before
 * kmap_atomic_fast_init() has run): see kmap_atomic_find_held().
 */
static noinline bool unmap_slow(const void *addr, unsigned int type, unsigned long ip)
{
	unsigned long vaddr = (unsigned long)addr & PAGE_MASK;
	bool lowmem = kmap_atomic_is_lowmem(vaddr);
	unsigned int held_type = 0;
	unsigned long flags, pfn = 0;
	bool other, left = false;
	int i;

	local_irq_save(flags);
	i = kmap_atomic_find_held(vaddr, type, &other);
	if (i >= 0) {
		held_type = kmap_atomic_held_type(i);
		left = kmap_atomic_held_left(i);
		pfn = release(i, true);
	}
	local_irq_restore(flags);
	if (i < 0 && lowmem) {
		/* 2.6's rule; but never below zero, nor another context's counts. */
		if (lowmem_rule()) {
			if (trace_kmap_atomic_unmap_enabled())
				unmap_event_lowmem(type, vaddr, ip);
			return true;
		}
		report(KMAP_REPORT_NOT_HELD, type, 0, addr, ip,
		       "%pS unmaps %p from %s with nothing mapped in this context: nothing changed",
		       (void *)ip, addr, kmap_atomic_slot_name(type));
		return false;
	}
	if (i < 0) {
		report_unmap(addr, vaddr, type, other, ip);
		return false;
	}
	trace_kmap_atomic_unmap(type, pfn, vaddr, ip);
	if (lowmem)
		report(KMAP_REPORT_WRONG_ADDRESS, type, pfn, addr, ip,
		       KMAP_WRONG_POINTER, (void *)ip, addr, kmap_atomic_slot_name(type),
		       i < KM_TYPE_NR ? kmap_atomic_slot_name(i) :
		       i < KM_SLOTS_USED ? "a spare" : "a kmap_local fallback");
	else if (held_type != min_t(unsigned int, type, KM_TYPE_NR))
		report(KMAP_REPORT_WRONG_ADDRESS, type, pfn, addr, ip,
		       KMAP_WRONG_TYPE, (void *)ip, addr, kmap_atomic_slot_name(type),
		       kmap_atomic_slot_name(held_type));
	/* Released; but were its counts given back already? */
	if (unlikely(left || !typed_depth()))
		return unmap_unbalanced(addr, type, ip);
	return true;
}

/* Release named slot @idx at @vaddr, this context's last map. */
static __always_inline void unmap_top(unsigned int idx, unsigned long vaddr, unsigned long ip)
{
	pte_t *ptep = this_cpu_read(kmap_atomic_cpu.ptes[idx]);

	if (trace_kmap_atomic_unmap_enabled())
		unmap_event_pte(idx, ptep, vaddr, ip);
	/* Free first: an interrupt in between finds the slot in use. */
	drop(idx);
	barrier();
	clear_idx(ptep, vaddr);
}

/**
 * __kunmap_atomic_addr - unmap what kmap_atomic(page, type) mapped
 * @addr: an address inside the mapped page
 * @type: the slot named
 *
 * The out-of-line kunmap_atomic(addr, type). An unmap that stands for a
 * map of this context is released, and the counts the map raised are
 * given back: the address of a map it made (named slot, spare or
 * kmap_local fallback), under any type, or a lowmem address passed for
 * its last map of @type (a wrong pointer); a wrong type or pointer is
 * reported. Any other lowmem address used no slot (2.6's rule) and gives
 * back its counts. An unmap that stands for no map of this context
 * (unmapped twice, another context's or CPU's map, a made-up pointer), or
 * for one whose counts were given back already, is reported and changes
 * nothing else.
 */
void __kunmap_atomic_addr(const void *addr, enum km_type type)
{
	unsigned long vaddr = (unsigned long)addr & PAGE_MASK;
	struct kmap_atomic_held *h;
	unsigned int idx = type;

	/*
	 * Preemption is off if a map is held; a misused unmap may come with
	 * it on, and must not move to another CPU between check and clear.
	 */
	preempt_disable();
	/*
	 * 2.6's rule, for a lowmem map, in a task holding no record here: no
	 * map stands for it, and none needs renumbering. Tested first, the
	 * cheaper test: a slot's address is never lowmem.
	 */
	if (kmap_atomic_is_lowmem(vaddr)) {
		if (likely(idx < KM_TYPE_NR && !kmap_atomic_level() && typed_depth() > 0 &&
			   !this_cpu_read(kmap_atomic_held_nr) &&
			   !this_cpu_read(kmap_atomic_outstanding))) {
			if (trace_kmap_atomic_unmap_enabled())
				unmap_event_lowmem(type, vaddr, _RET_IP_);
			goto give_back;
		}
	} else if (static_branch_likely(&kmap_atomic_slots_ready) && likely(idx < KM_TYPE_NR)) {
		h = this_cpu_ptr(&kmap_atomic_cpu.held[idx]);
		if (likely(vaddr == this_cpu_read(kmap_atomic_cpu.addrs[idx]) && at_top(h))) {
			unmap_top(idx, vaddr, _RET_IP_);
			goto give_back;
		}
	}
	if (unlikely(!unmap_slow(addr, type, _RET_IP_))) {
		preempt_enable();
		return;
	}
give_back:
	preempt_enable_no_resched();
	kmap_atomic_counts_give_back();
}
EXPORT_SYMBOL(__kunmap_atomic_addr);

/**
 * __kunmap_atomic_one - the one-argument kunmap_atomic() of a typed map?
 * @addr: the address given to kunmap_atomic(addr)
 *
 * Called by kunmap_atomic(addr) where the inline test says a typed map
 * may be meant (kmap_atomic_one_is_typed()). A slot's address, a
 * kmap_local fallback's of this context and a lowmem address take the
 * typed unmap under no type; any other kmap_local address is a
 * one-argument map's, which the one-argument unmap releases.
 */
void __kunmap_atomic_one(const void *addr)
{
	unsigned long vaddr = (unsigned long)addr & PAGE_MASK;
	unsigned long flags;
	bool other, typed;

	if (kmap_atomic_is_local(vaddr)) {
		local_irq_save(flags);
		typed = kmap_atomic_find_held(vaddr, KM_TYPE_NR, &other) >= 0;
		local_irq_restore(flags);
		if (!typed) {
			__kunmap_atomic(addr);
			return;
		}
	}
	__kunmap_atomic_typed(addr, KM_TYPE_NR);
}
EXPORT_SYMBOL(__kunmap_atomic_one);

#ifndef CONFIG_DEBUG_KMAP_ATOMIC
/**
 * __kmap_atomic_reclaim - release what an ending context still holds
 * @dying: the task dies of an oops, which told the story: no WARN (with
 *	panic_on_warn it would turn a survivable oops into a panic)
 *
 * Called through kmap_atomic_check_leaks() where a system call, a hard
 * interrupt, a softirq handler or an NMI ends, or a task dies of an oops,
 * while this CPU holds a spare, a kmap_local fallback, an interrupt's map
 * or a map left behind, or a task's context ends with typed maps on its
 * stack. Each map of the ending context is released, last map first, and
 * the counts it raised are given back unless a lowmem unmap gave them
 * back already; the lowmem maps of an interrupt, or of a task whose
 * context ends, give back theirs; reported once per call site. Spares,
 * fallbacks and maps left behind that nothing uses any more are released
 * too. A task's other named slots left behind are reclaimed by their next
 * map (orphaned()).
 */
void __kmap_atomic_reclaim(bool dying)
{
	unsigned int level = kmap_atomic_level(), c = irq_class(level);
	struct kmap_atomic_cpu *kc;
	unsigned int i, n = 0, cpu;
	unsigned long flags;
	int last;

	local_irq_save(flags);
	kc = this_cpu_ptr(&kmap_atomic_cpu);
	cpu = smp_processor_id();
	/* An oops in here kills the task again: reclaim what is left once. */
	if (dying && this_cpu_read(kmap_atomic_reclaiming_dead)) {
		local_irq_restore(flags);
		return;
	}
	this_cpu_write(kmap_atomic_reclaiming_dead, dying);
	/*
	 * Spares, this task's fallbacks, and maps left behind, that other
	 * contexts or tasks left (their counts were given back): else they
	 * keep the gate open. This context's own are released below;
	 * orphaned() is for a map, whose count is already on the stack, not
	 * for here.
	 */
	for (i = 0; i < KM_HELD_NR; i++) {
		struct kmap_atomic_held *h = &kc->held[i];

		if (mine(h))
			continue;
		if (i < KM_TYPE_NR ? h->depth == KM_LEFT :
		    i < KM_SLOTS_USED || h->task == current)
			release_orphan(i);
	}
	for (;;) {
		last = -1;
		for (i = 0; i < KM_HELD_NR; i++)
			if (mine(&kc->held[i]) &&
			    (last < 0 || kc->held[i].depth > kc->held[last].depth))
				last = i;
		if (last < 0)
			break;
		if (last >= KM_SLOTS_USED && !fallback_live(&kc->held[last])) {
			drop_stale(last);
			continue;
		}
		n++;
		if (kc->held[last].depth == KM_LEFT ||
		    kc->held[last].depth > typed_depth()) {
			release(last, false);
			continue;
		}
		release(last, true);
		kmap_atomic_reclaim_counts();
	}
	/* An interrupt's lowmem maps, which have no record: their counts. */
	while (level && this_cpu_read(kmap_atomic_irq_lowmem[c])) {
		int places = this_cpu_read(kmap_atomic_irq_lowmem[c]);

		this_cpu_dec(kmap_atomic_irq_lowmem[c]);
		this_cpu_dec(kmap_atomic_outstanding);
		n++;
		if (typed_depth() > 0) {
			kmap_atomic_lowmem_popped(places);
			kmap_atomic_reclaim_counts();
		}
	}
	/* A task's lowmem maps have no record: what is left on its stack. */
	while (!level && typed_depth() > 0) {
		n++;
		kmap_atomic_reclaim_counts();
	}
	this_cpu_write(kmap_atomic_reclaiming_dead, false);
	local_irq_restore(flags);
	if (n && dying)
		pr_emerg("kmap_atomic: %u map(s) on CPU%u still held as their task dies of an oops: released, counts given back\n",
			 n, cpu);
	else if (n)
		report(KMAP_REPORT_LEAK, KM_TYPE_NR, 0, 0, _RET_IP_,
		       "%u map(s) on CPU%u (spares, kmap_local fallbacks, maps left behind, an interrupt's or a task's lowmem maps) still held as their context ends (at %pS): released, counts given back unless a lowmem unmap gave them back already",
		       n, cpu, (void *)_RET_IP_);
}
EXPORT_SYMBOL(__kmap_atomic_reclaim);
/* Called where an NMI returns: no probes there. */
NOKPROBE_SYMBOL(__kmap_atomic_reclaim);
#endif

#ifdef CONFIG_DEBUG_KMAP_ATOMIC
/*
 * For the debug flavor's leak checks: release the fallbacks that the
 * context now ending still holds, as their unmaps would have, so that
 * kmap_local's stack (an interrupt's entries are on the interrupted
 * task's) is as it was; drop its stale records.
 * Return: how many were released.
 */
unsigned int kmap_atomic_fallback_reclaim(void)
{
	struct kmap_atomic_cpu *kc = this_cpu_ptr(&kmap_atomic_cpu);
	unsigned int i, n = 0;

	for (i = KM_HELD_NR; i-- > KM_SLOTS_USED;) {
		if (!mine(&kc->held[i]))
			continue;
		if (fallback_live(&kc->held[i])) {
			release(i, true);
			n++;
		} else {
			drop_stale(i);
		}
	}
	return n;
}
#endif
