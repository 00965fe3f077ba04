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
 * What would corrupt or crash is caught here, in every kernel, and
 * survived: a map into a slot whose pte is not none (a collision) or with
 * a type that is no slot is given a spare slot of its own, and an unmap of
 * an address that the slot does not map changes nothing. Each is reported
 * through WARN, once per call site. CONFIG_DEBUG_KMAP_ATOMIC checks more
 * (kmap_atomic_debug.c) and takes the place of these paths.
 *
 * The one-argument kmap_atomic() is kmap_local's and is not touched here;
 * the two kinds of mapping use separate fixmap ranges and can be held
 * together.
 */
#include <linux/bug.h>
#include <linux/export.h>
#include <linux/hash.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/pfn.h>
#include <linux/ratelimit.h>
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

struct kmap_atomic_cpu {
	/*
	 * Each slot's pte, looked up on its first use (the fixmap page
	 * tables exist from paging_init() on): one load on the fast path.
	 */
	pte_t *ptes[KM_TYPE_NR + KM_SPARE_SLOTS];
	/*
	 * The type each spare was given for (KM_TYPE_NR for a type that is no
	 * slot); valid while its pte is set.
	 */
	unsigned int spare_type[KM_SPARE_SLOTS];
	/*
	 * kmap_local addresses handed out when every spare was in use, and
	 * the types they were for: there can be no more than kmap_local has
	 * slots.
	 */
	unsigned long fallback[KM_MAX_IDX];
	unsigned int fallback_type[KM_MAX_IDX];
	unsigned int fallback_level[KM_MAX_IDX];	/* kmap_atomic_level() */
	/* Whose stack it is on (compared, never followed), and its pte there. */
	struct task_struct *fallback_task[KM_MAX_IDX];
	pteval_t fallback_pte[KM_MAX_IDX];
};

static DEFINE_PER_CPU(struct kmap_atomic_cpu, kmap_atomic_cpu);

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

/*
 * Misuse reports: every one is counted; each call site prints once (a
 * table of 1024 call sites that have printed, claimed with cmpxchg so
 * that any context, NMI included, may report). When the table is full,
 * a new call site still prints, rate-limited.
 */
#define REPORT_SITES_BITS	10
static unsigned long report_sites[1 << REPORT_SITES_BITS];
static atomic_long_t report_count, printed_count;
static DEFINE_RATELIMIT_STATE(report_overflow_rs, 5 * HZ, 10);

static bool first_report_from(unsigned long ip)
{
	unsigned int i, h = hash_long(ip, REPORT_SITES_BITS);
	unsigned long old;

	for (i = 0; i < ARRAY_SIZE(report_sites); i++) {
		unsigned long *site = &report_sites[(h + i) % ARRAY_SIZE(report_sites)];

		old = READ_ONCE(*site);
		if (!old)
			old = cmpxchg(site, 0, ip);
		if (!old)
			return true;
		if (old == ip)
			return false;
	}
	return __ratelimit(&report_overflow_rs);
}

/*
 * Count a report made at call site @ip. Return: whether to print it: the
 * first from each call site, so that a hot misuse hides no other site's.
 */
bool kmap_atomic_report_site(unsigned long ip)
{
	atomic_long_inc(&report_count);
	if (!first_report_from(ip))
		return false;
	atomic_long_inc(&printed_count);
	return true;
}

/**
 * kmap_atomic_reports_printed() - how many of the reports were printed
 *
 * Return: the count since boot of reports printed: the first of each call
 * site, and rate-limited ones once the table of call sites is full. For
 * tests.
 */
unsigned long kmap_atomic_reports_printed(void)
{
	return atomic_long_read(&printed_count);
}
EXPORT_SYMBOL(kmap_atomic_reports_printed);

/**
 * kmap_atomic_reports() - how many misuses of typed atomic kmaps were reported
 *
 * Return: the count of every report since boot, the printed ones and those
 * a call site that had printed already made again; with
 * CONFIG_DEBUG_KMAP_ATOMIC the debug checks' reports too. For tests.
 */
unsigned long kmap_atomic_reports(void)
{
	return atomic_long_read(&report_count);
}
EXPORT_SYMBOL(kmap_atomic_reports);

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

/*
 * Map @pfn in slot @idx of this CPU if its pte is none; preemption is off.
 * Return: the slot's address, or 0 if the slot is in use.
 */
static __always_inline unsigned long map_idx(unsigned int idx, unsigned long pfn,
					     pgprot_t prot)
{
	unsigned long vaddr = slot_addr(idx);
	pte_t pte = pfn_pte(pfn, prot);

	if (!claim_none_pte(slot_pte(idx), pte))
		return 0;
	arch_kmap_local_post_map(vaddr, pte);
	return vaddr;
}

/* A map that returns NULL gives back what the inline map raised. */
void kmap_atomic_refuse(void)
{
	pagefault_enable();
	preempt_enable_no_resched();
}

#ifdef CONFIG_DEBUG_KMAP_ATOMIC
unsigned long kmap_atomic_map_idx(unsigned int idx, unsigned long pfn, pgprot_t prot)
{
	return map_idx(idx, pfn, prot);
}
#endif

/* Clear a slot's pte and flush its address here: it faults from now on. */
static __always_inline void clear_idx(pte_t *ptep, unsigned long vaddr)
{
	arch_kmap_local_pre_unmap(vaddr);
	pte_clear(&init_mm, vaddr, ptep);
	arch_kmap_local_post_unmap(vaddr);
}

/* Unmap slot @idx of this CPU. */
void kmap_atomic_clear_idx(unsigned int idx)
{
	clear_idx(slot_pte(idx), slot_addr(idx));
}

/*
 * Does this task's kmap_local stack still hold fallback @i as it was
 * mapped? Not if it was released another way (kunmap_local()): then the
 * record is stale, and the same address may be someone else's entry now.
 */
static bool fallback_live(struct kmap_atomic_cpu *kc, unsigned int i)
{
	int idx = kmap_atomic_local_entry(kc->fallback[i] & PAGE_MASK);

	return idx >= 0 && idx < current->kmap_ctrl.idx &&
	       pte_val(current->kmap_ctrl.pteval[idx]) == kc->fallback_pte[i];
}

/*
 * With every spare in use, a misuse is mapped with kmap_local, and the
 * address noted, with its type, context, task and pte, so that the typed
 * unmap knows it. This task's records that its stack no longer holds
 * (released another way, or at this very address) are dropped first;
 * another task's may still be live (it is pinned here, and may have been
 * preempted after a lowmem unmap gave its counts back), so they stay.
 * Not for NMIs: kmap_local's stack is the interrupted task's.
 */
void *kmap_atomic_fallback_map(unsigned long pfn, pgprot_t prot, unsigned int type)
{
	struct kmap_atomic_cpu *kc = this_cpu_ptr(&kmap_atomic_cpu);
	unsigned int i, n = ARRAY_SIZE(kc->fallback), free = n;
	unsigned long flags, vaddr;
	void *addr;
	int idx;

	addr = __kmap_local_pfn_prot(pfn, __pgprot(pgprot_val(prot) |
						   arch_kmap_atomic_fallback_tag));
	vaddr = (unsigned long)addr;
	idx = kmap_atomic_local_entry(vaddr);
	/* An interrupt that falls back too must see the table whole. */
	local_irq_save(flags);
	for (i = 0; i < n; i++) {
		if (kc->fallback[i] && kc->fallback_task[i] == current &&
		    ((kc->fallback[i] & PAGE_MASK) == vaddr || !fallback_live(kc, i)))
			kc->fallback[i] = 0;
		if (!kc->fallback[i] && free == n)
			free = i;
	}
	if (free < n) {
		kc->fallback_type[free] = min_t(unsigned int, type, KM_TYPE_NR);
		kc->fallback_level[free] = kmap_atomic_level();
		kc->fallback_task[free] = current;
		kc->fallback_pte[free] = pte_val(current->kmap_ctrl.pteval[idx]);
		barrier();	/* published whole */
		WRITE_ONCE(kc->fallback[free], vaddr);
	}
	local_irq_restore(flags);
	WARN_ONCE(free == n,
		  "kmap_atomic: CPU%u has no room to record a kmap_local fallback: its typed unmap will be refused\n",
		  smp_processor_id());
	return addr;
}

/*
 * Release a fallback mapping of @type, and give its page frame in @pfn:
 * popped if it is the top of kmap_local's stack, else unmapped and popped
 * once it is. A refusal changes nothing. Only this task's records are
 * looked at; a stale one is dropped. Interrupts are off: one that falls
 * back too must not take the address while its old record is still there.
 */
enum kmap_fallback_unmap kmap_atomic_fallback_unmap(const void *addr, unsigned int type,
						    unsigned long *pfn)
{
	struct kmap_atomic_cpu *kc = this_cpu_ptr(&kmap_atomic_cpu);
	unsigned long vaddr = (unsigned long)addr & PAGE_MASK;
	enum kmap_fallback_unmap r = KMAP_FALLBACK_NONE;
	unsigned long flags;
	unsigned int i;

	local_irq_save(flags);
	for (i = 0; vaddr && i < ARRAY_SIZE(kc->fallback); i++) {
		if ((kc->fallback[i] & PAGE_MASK) != vaddr || kc->fallback_task[i] != current)
			continue;
		if (!fallback_live(kc, i)) {
			kc->fallback[i] = 0;
			continue;
		}
		if (kc->fallback_type[i] != min_t(unsigned int, type, KM_TYPE_NR)) {
			r = KMAP_FALLBACK_OTHER_TYPE;
			break;
		}
		if (kc->fallback_level[i] != kmap_atomic_level()) {
			r = KMAP_FALLBACK_OTHER_CONTEXT;
			break;
		}
		*pfn = pte_pfn(__pte(kc->fallback_pte[i]));
		kc->fallback[i] = 0;
		if (vaddr == kmap_atomic_local_top())
			kunmap_local_indexed(addr);
		else
			kmap_atomic_release_buried(vaddr);
		r = KMAP_FALLBACK_RELEASED;
		break;
	}
	local_irq_restore(flags);
	return r;
}

#ifdef CONFIG_DEBUG_KMAP_ATOMIC
/*
 * For the debug flavor's leak checks: release the fallbacks that the
 * context now ending (or the task now dying) still holds, as their typed
 * unmaps would have, so that kmap_local's stack (an interrupt's entries
 * are on the interrupted task's) is as it was; drop its stale records.
 * Return: how many were released.
 */
unsigned int kmap_atomic_fallback_reclaim(void)
{
	struct kmap_atomic_cpu *kc = this_cpu_ptr(&kmap_atomic_cpu);
	unsigned int i, n = 0;
	unsigned long pfn;

	for (i = ARRAY_SIZE(kc->fallback); i-- > 0;) {
		if (!kc->fallback[i] || kc->fallback_task[i] != current ||
		    kc->fallback_level[i] != kmap_atomic_level())
			continue;
		if (kmap_atomic_fallback_unmap((void *)kc->fallback[i], kc->fallback_type[i],
					       &pfn) == KMAP_FALLBACK_RELEASED)
			n++;
	}
	return n;
}
#endif

/* Why kmap_atomic_fallback_unmap() refused, for KMAP_FALLBACK_REFUSED. */
const char *kmap_atomic_fallback_refusal(enum kmap_fallback_unmap r)
{
	switch (r) {
	case KMAP_FALLBACK_OTHER_TYPE:
		return "mapped as another type";
	case KMAP_FALLBACK_OTHER_CONTEXT:
		return "mapped in another context";
	default:
		return "";
	}
}

/*
 * Map @pfn in a free spare of this CPU for a misuse of @type, claimed on
 * its pte so that an interrupt or NMI on this CPU cannot take the same
 * one. The last KM_NMI_SPARES are kept for NMIs, which must never need the
 * kmap_local fallback: kmap_local's stack is the interrupted task's.
 * Return: the spare's number, or -1 if none is free.
 */
int kmap_atomic_claim_spare(unsigned long pfn, pgprot_t prot, unsigned int type)
{
	unsigned int spares = KM_SPARE_SLOTS - (in_nmi() ? 0 : KM_NMI_SPARES);
	unsigned long vaddr;
	unsigned int i;

	for (i = 0; i < spares; i++) {
		vaddr = map_idx(KM_TYPE_NR + i, pfn, prot);
		if (!vaddr)
			continue;
		/*
		 * A spare is any context's: an interrupt may have taken it in
		 * the moment between another context's pte clear and flush.
		 */
		arch_kmap_local_post_unmap(vaddr);
		this_cpu_write(kmap_atomic_cpu.spare_type[i],
			       min_t(unsigned int, type, KM_TYPE_NR));
		return i;
	}
	return -1;
}

/* A collision or a bad type: map in a spare, else in a kmap_local fallback. */
static noinline void *map_misused(unsigned long pfn, enum km_type type,
				  pgprot_t prot, unsigned long ip)
{
	unsigned int cpu = smp_processor_id();
	int i = kmap_atomic_claim_spare(pfn, prot, type);
	void *addr;

	/* The map's event first, then the report's, as in the debug flavor. */
	if (i >= 0) {
		addr = (void *)slot_addr(KM_TYPE_NR + i);
		trace_kmap_atomic_map(type, pfn, (unsigned long)addr, ip);
		if ((unsigned int)type >= KM_TYPE_NR)
			report(KMAP_REPORT_INVALID_TYPE, type, pfn, 0, ip,
			       "%pS maps slot %u, which does not exist (KM_TYPE_NR is %d): given spare %u on CPU%u",
			       (void *)ip, type, KM_TYPE_NR, i, cpu);
		else
			report(KMAP_REPORT_COLLISION, type, pfn, 0, ip,
			       "%pS maps %s, which CPU%u has mapped already (nested use, or never unmapped): given spare %u",
			       (void *)ip, kmap_atomic_slot_name(type), cpu, i);
		return addr;
	}

	if (in_nmi()) {
		/*
		 * An NMI that misused twice: nothing is left that it may take.
		 * Its counts are given back: its unmap of NULL changes nothing.
		 */
		report(KMAP_REPORT_NO_SPARE, type, pfn, 0, ip,
		       "%pS maps %s on CPU%u in an NMI, with every spare in use: not mapped, NULL returned",
		       (void *)ip, kmap_atomic_slot_name(type), cpu);
		kmap_atomic_refuse();
		return NULL;
	}
	addr = kmap_atomic_fallback_map(pfn, prot, type);
	trace_kmap_atomic_map(type, pfn, (unsigned long)addr, ip);
	report(KMAP_REPORT_NO_SPARE, type, pfn, 0, ip,
	       "%pS maps %s on CPU%u, which has its %d spares in use: mapped with kmap_local",
	       (void *)ip, kmap_atomic_slot_name(type), cpu, KM_SPARE_SLOTS - KM_NMI_SPARES);
	return addr;
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
 * Return: the slot's virtual address, now mapping @pfn; a spare slot's if
 * @type is in use on this CPU or is no slot.
 */
void *__kmap_atomic_slot(unsigned long pfn, enum km_type type, pgprot_t prot)
{
	unsigned int idx = type;
	unsigned long vaddr;

	if (likely(idx < KM_TYPE_NR)) {
		vaddr = map_idx(idx, pfn, prot);
		if (likely(vaddr)) {
			/*
			 * An interrupt (a misuse, or an NMI) may have come
			 * between the pte clear and the flush of an unmap of
			 * this very slot: flush what that left in the TLB.
			 */
			if (unlikely(kmap_atomic_level()))
				arch_kmap_local_post_unmap(vaddr);
			if (trace_kmap_atomic_map_enabled())
				map_event(type, pfn, vaddr, _RET_IP_);
			return (void *)vaddr;
		}
	}
	return map_misused(pfn, type, prot, _RET_IP_);
}
EXPORT_SYMBOL(__kmap_atomic_slot);

#ifdef CONFIG_TRACEPOINTS
/**
 * __kmap_atomic_trace_lowmem - trace the map of a lowmem page
 * @page: the lowmem page, which kmap_atomic(page, type) maps with no slot
 * @type: the slot named
 *
 * The kmap_atomic_map event of the inline lowmem map, which calls this
 * only while the event is enabled; out of line, so that the caller traced
 * is the call site.
 */
void __kmap_atomic_trace_lowmem(struct page *page, enum km_type type)
{
	trace_kmap_atomic_map(type, page_to_pfn(page),
			      (unsigned long)lowmem_page_address(page), _RET_IP_);
}
EXPORT_SYMBOL(__kmap_atomic_trace_lowmem);
#endif

/* What @vaddr is, for a report of an unmap that does not match. */
static void report_unmap(const void *addr, unsigned long vaddr, unsigned int type,
			 unsigned long ip)
{
	unsigned int cpu = smp_processor_id();
	const char *name = kmap_atomic_slot_name(type);
	struct kmap_atomic_where w;

	if (type >= KM_TYPE_NR) {
		report(KMAP_REPORT_INVALID_TYPE, type, 0, addr, ip,
		       "%pS unmaps %p from slot %u, which does not exist: nothing changed",
		       (void *)ip, addr, type);
		return;
	}
	if (vaddr == slot_addr(type)) {
		report(KMAP_REPORT_NOT_HELD, type, 0, addr, ip,
		       "%pS unmaps %s, which CPU%u has not mapped (unmapped twice?): nothing changed",
		       (void *)ip, name, cpu);
		return;
	}
	if (kmap_atomic_slot_of(vaddr, &w)) {
		report(KMAP_REPORT_WRONG_ADDRESS, type, 0, addr, ip,
		       "%pS unmaps %p from %s, but that is CPU%u's %s%s on CPU%u: nothing changed",
		       (void *)ip, addr, name, w.cpu,
		       w.idx < KM_TYPE_NR ? kmap_atomic_slot_name(w.idx) : "spare",
		       w.cpu == cpu ? " (the wrong type?)" : "", cpu);
		return;
	}
	if (kmap_atomic_is_local(vaddr)) {
		report(KMAP_REPORT_WRONG_ADDRESS, type, 0, addr, ip,
		       "%pS unmaps %p from %s, but that is a kmap_local_page() or kmap_atomic(page) address (use kunmap_local() or kunmap_atomic(addr)): nothing changed",
		       (void *)ip, addr, name);
		return;
	}
	report(KMAP_REPORT_WRONG_ADDRESS, type, 0, addr, ip,
	       "%pS unmaps %p from %s, but no typed slot maps it: nothing changed",
	       (void *)ip, addr, name);
}

/* The unmap of a spare, a fallback, or a misuse: see __kunmap_atomic_slot(). */
static noinline bool unmap_misused(const void *addr, unsigned int type, unsigned long ip)
{
	struct kmap_atomic_cpu *kc = this_cpu_ptr(&kmap_atomic_cpu);
	unsigned long vaddr = (unsigned long)addr & PAGE_MASK;
	enum kmap_fallback_unmap r;
	unsigned long pfn;
	unsigned int i;

	for (i = 0; i < KM_SPARE_SLOTS; i++) {
		if (vaddr != slot_addr(KM_TYPE_NR + i) ||
		    pte_none(ptep_get(slot_pte(KM_TYPE_NR + i))))
			continue;
		if (kc->spare_type[i] != min_t(unsigned int, type, KM_TYPE_NR)) {
			report(KMAP_REPORT_WRONG_ADDRESS, type, 0, addr, ip,
			       "%pS unmaps %p from %s, but spare %u on CPU%u stands in for %s: nothing changed",
			       (void *)ip, addr, kmap_atomic_slot_name(type), i,
			       smp_processor_id(), kmap_atomic_slot_name(kc->spare_type[i]));
			return false;
		}
		if (trace_kmap_atomic_unmap_enabled())
			unmap_event_pte(type, slot_pte(KM_TYPE_NR + i), vaddr, ip);
		kmap_atomic_clear_idx(KM_TYPE_NR + i);
		return true;
	}
	r = kmap_atomic_fallback_unmap(addr, type, &pfn);
	if (r == KMAP_FALLBACK_RELEASED) {
		trace_kmap_atomic_unmap(type, pfn, vaddr, ip);
		return true;
	}
	if (r != KMAP_FALLBACK_NONE) {
		report(r == KMAP_FALLBACK_OTHER_CONTEXT ? KMAP_REPORT_OTHER_CONTEXT :
		       KMAP_REPORT_WRONG_ADDRESS, type, 0, addr, ip,
		       KMAP_FALLBACK_REFUSED, (void *)ip, addr, kmap_atomic_slot_name(type),
		       kmap_atomic_fallback_refusal(r));
		return false;
	}
	report_unmap(addr, vaddr, type, ip);
	return false;
}

static noinline bool unmap_unmapped(const void *addr, unsigned int type, unsigned long ip)
{
	report(KMAP_REPORT_NOT_HELD, type, 0, addr, ip,
	       "%pS unmaps %p from %s with nothing mapped (page faults are enabled): nothing changed",
	       (void *)ip, addr, kmap_atomic_slot_name(type));
	return false;
}

static noinline bool unmap_unbalanced(const void *addr, unsigned int type,
				      unsigned long ip)
{
	report(KMAP_REPORT_WRONG_ADDRESS, type, 0, addr, ip, KMAP_COUNTS_GIVEN_BACK, (void *)ip,
	       kmap_atomic_slot_name(type));
	return false;
}

/**
 * __kunmap_atomic_slot - unmap what kmap_atomic(page, type) mapped
 * @addr: an address inside the mapped page
 * @type: the slot named
 *
 * The out-of-line half of kunmap_atomic(addr, type). A lowmem address used
 * no slot: nothing to do. Otherwise @addr must be in the page that @type
 * (or the spare that a misuse of @type was given) maps on this CPU: its
 * pte is cleared and that address flushed here. If page faults are
 * enabled by then, a lowmem address gave the map's counts back already
 * (2.6's rule): reported, and the counts are left alone.
 *
 * Return: true if the caller is to enable page faults and preemption; false
 * after a report, when nothing was changed.
 */
bool __kunmap_atomic_slot(const void *addr, enum km_type type)
{
	unsigned long vaddr = (unsigned long)addr & PAGE_MASK;
	unsigned int idx = type;
	bool ok = true;
	pte_t *ptep;

	/*
	 * Preemption is off if a map is held; a misused unmap may come with
	 * it on, and must not move to another CPU between check and clear.
	 */
	preempt_disable();
	if (likely(idx < KM_TYPE_NR && vaddr == slot_addr(idx))) {
		ptep = slot_pte(idx);
		if (likely(!pte_none(ptep_get(ptep)))) {
			if (trace_kmap_atomic_unmap_enabled())
				unmap_event_pte(type, ptep, vaddr, _RET_IP_);
			clear_idx(ptep, vaddr);
			/* Cleared; but were its counts given back already? */
			if (unlikely(!pagefault_disabled()))
				ok = unmap_unbalanced(addr, type, _RET_IP_);
			goto out;
		}
	}
	/*
	 * 2.6's rule: a lowmem address used no slot, whatever it points at;
	 * but with nothing mapped the counts would go below zero.
	 */
	if (!kmap_atomic_is_lowmem(vaddr)) {
		ok = unmap_misused(addr, type, _RET_IP_);
		/* A spare or fallback released: its counts given back already? */
		if (ok && unlikely(!pagefault_disabled()))
			ok = unmap_unbalanced(addr, type, _RET_IP_);
	} else if (unlikely(!pagefault_disabled())) {
		ok = unmap_unmapped(addr, type, _RET_IP_);
	} else if (trace_kmap_atomic_unmap_enabled()) {
		unmap_event_lowmem(type, vaddr, _RET_IP_);
	}
out:
	if (likely(ok))
		preempt_enable_no_resched();
	else
		preempt_enable();
	return ok;
}
EXPORT_SYMBOL(__kunmap_atomic_slot);
