// SPDX-License-Identifier: GPL-2.0
/*
 * Typed atomic kmaps: each CPU owns KM_SLOTS_PER_CPU fixmap pages, one per
 * enum km_type slot, KM_SPARE_SLOTS spares, and padding to whole cache
 * lines of ptes (<linux/kmap_types.h>). The caller names the slot and runs
 * with preemption off, so a map is one pte written into a none pte, and an
 * unmap clears that pte and flushes the one address on this CPU. The map
 * needs no flush in a task: the unmap left no translation behind, and a
 * TLB does not cache a not-present pte.
 *
 * What each map is, is in a map log per CPU and interrupt level (struct
 * kmap_atomic_level_log): its slot (or none, for a lowmem page), its type
 * and its call site, in map order, and the level's page-fault and preempt
 * counts before its first map. One invariant:
 *
 *   A typed map appends one entry; a typed unmap releases exactly one map
 *   of its level, or none and then touches nothing; every release clears
 *   and flushes the entry's pte and gives back one map's counts, never
 *   below the level's baseline; what a level leaves is released where it
 *   ends.
 *
 * The correct unmap finds its entry at the top of its level's log. Any
 * other unmap is decided by kmap_atomic_pick() (see there), in every
 * kernel, and reported once per call site and kind; nothing reaches a
 * BUG(): a map into a slot in use or with a type that is no slot gets a
 * spare, and past the last spare, or with the log full, NULL with the
 * counts given back.
 *
 * CONFIG_DEBUG_KMAP_ATOMIC checks the context rules and describes faults
 * on the slots (debug.c), from the same log.
 *
 * The one-argument kmap_atomic() is kmap_local's and is not touched here;
 * the two kinds of mapping use separate fixmap ranges and can be held
 * together.
 */
#include <linux/bug.h>
#include <linux/export.h>
#include <linux/jump_label.h>
#include <linux/memblock.h>
#include <linux/kmap_atomic_debug.h>
#include <linux/kprobes.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/pfn.h>
#include <linux/sched.h>
#include <linux/sizes.h>

#include "kmap_atomic.h"

#define CREATE_TRACE_POINTS
#include <trace/events/kmap_atomic.h>

EXPORT_TRACEPOINT_SYMBOL_GPL(kmap_atomic_map);
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
static_assert(KM_SLOTS_USED < KM_LOG_LOWMEM && KM_TYPE_NR < U8_MAX);

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
 * Each slot's pte and address: one load each on the fast path. The ptes
 * are looked up on first use (the fixmap page tables exist from
 * paging_init() on), and for every possible CPU, with the addresses, by
 * kmap_atomic_fast_init().
 */
struct kmap_atomic_cpu {
	pte_t *ptes[KM_SLOTS_USED];
	unsigned long addrs[KM_SLOTS_USED];
};

static DEFINE_PER_CPU(struct kmap_atomic_cpu, kmap_atomic_cpu);

/* The map logs, per CPU and interrupt level (<linux/kmap_atomic_debug.h>). */
DEFINE_PER_CPU(struct kmap_atomic_level_log, kmap_atomic_log[KM_LEVELS]);
EXPORT_PER_CPU_SYMBOL_GPL(kmap_atomic_log);

/*
 * kmap_prot's pte for page frame 0, computed at boot by pfn_pte() itself:
 * a map with kmap_prot ORs in the frame instead of calling pfn_pte() (its
 * L1TF inversion test and __supported_pte_mask). Used only once
 * kmap_atomic_fast_init() has checked it against pfn_pte() for low, high
 * and above-4 GiB frames, with every CPU's slot ptes and addresses filled
 * in: that turns kmap_atomic_template_ok on, and with it the fast paths,
 * which read them unchecked. Until then the maps take the slow path.
 */
static pteval_t kmap_atomic_template __ro_after_init;
static DEFINE_STATIC_KEY_FALSE_RO(kmap_atomic_template_ok);

/* How many reports of each kind were made, printed or not. */
static atomic_long_t report_kinds[KMAP_REPORT_NR];

/**
 * kmap_atomic_debug_reports - how many reports of one kind were made
 * @kind: the kind of misuse
 *
 * Return: the count since boot, printed or not (a call site prints each
 * kind once).
 */
unsigned long kmap_atomic_debug_reports(enum kmap_atomic_report kind)
{
	return atomic_long_read(&report_kinds[kind]);
}
EXPORT_SYMBOL_GPL(kmap_atomic_debug_reports);

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

/* The counts a typed map raises: preemption and page faults off. */
static __always_inline void kmap_atomic_counts_raise(void)
{
	preempt_disable();
	pagefault_disable();
}

/* A kind counted that reports its own way (a fault on a slot): not a misuse report. */
void kmap_atomic_count_kind(enum kmap_atomic_report kind)
{
	atomic_long_inc(&report_kinds[kind]);
}

NOKPROBE_SYMBOL(kmap_atomic_count_kind);

/**
 * kmap_atomic_report - report a misuse
 * @kind: what kind
 * @type: the slot named
 * @pfn: the page frame mapped, or 0
 * @addr: the address unmapped, or 0
 * @ip: the call site it is about
 * @fmt: what happened, and what was done about it
 *
 * Counted and traced every time, printed (WARN) once per call site and
 * kind: the kind is in the key's top bits, so that a site that leaks and
 * then unmaps twice prints both.
 */
void kmap_atomic_report(enum kmap_atomic_report kind, unsigned int type, unsigned long pfn,
			unsigned long addr, unsigned long ip, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	atomic_long_inc(&report_kinds[kind]);
	trace_kmap_atomic_report(kind, type, pfn, addr, ip);
	if (!kmap_atomic_report_site(ip ^ (unsigned long)kind << (BITS_PER_LONG - 4)))
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	WARN(1, "kmap_atomic: %pV\n", &vaf);
	va_end(args);
}

NOKPROBE_SYMBOL(kmap_atomic_report);

#define report(kind, type, pfn, addr, ip, fmt, ...)			\
	kmap_atomic_report(kind, type, pfn, (unsigned long)(addr), ip, fmt, ##__VA_ARGS__)

static noinline void map_event(unsigned int type, unsigned long pfn, unsigned long vaddr,
			       unsigned long ip)
{
	trace_kmap_atomic_map(type, pfn, vaddr, ip);
}

static noinline void unmap_event(unsigned int type, unsigned long pfn, unsigned long vaddr,
				 unsigned long ip)
{
	trace_kmap_atomic_unmap(type, pfn, vaddr, ip);
}

/* This CPU's log at the interrupt level it runs at. */
static __always_inline struct kmap_atomic_level_log *this_log(void)
{
	return this_cpu_ptr(&kmap_atomic_log[kmap_atomic_log_level()]);
}

/*
 * Before the first map of a level is claimed: whose the log is, and the
 * counts before the map raised them, which the level's end gives back
 * down to. Taken before the claim, so that an int3, #DB or #MC handler
 * that maps and returns holding it meanwhile is not counted in.
 */
static __always_inline void log_begin(struct kmap_atomic_level_log *log)
{
	log->task = current;
	log->pf_base = current->pagefault_disabled - 1;
	log->pc_base = (preempt_count() & PREEMPT_MASK) - 1;
}

/* Does @log hold a map whose counts were given back (a lowmem map's)? */
static __always_inline bool log_unowed(const struct kmap_atomic_level_log *log)
{
	return (int)log->n > current->pagefault_disabled - 1 - log->pf_base;
}

/* Append a map to @log, begun. */
static __always_inline void log_append(struct kmap_atomic_level_log *log, unsigned int slot,
				       unsigned int type, unsigned long addr, unsigned long ip)
{
	unsigned int n = log->n;

	log->slot[n] = slot;
	log->type[n] = type;
	log->addr[n] = addr;
	log->ip[n] = ip;
	barrier();	/* a fault report in an NMI reads whole entries */
	WRITE_ONCE(log->n, n + 1);
}

/* Clear a slot's pte and flush its address here: it faults from now on. */
static __always_inline void clear_slot(pte_t *ptep, unsigned long vaddr)
{
	arch_kmap_local_pre_unmap(vaddr);
	pte_clear(&init_mm, vaddr, ptep);
	arch_kmap_local_post_unmap(vaddr);
}

/* Release entry @i of @log: its slot cleared and flushed; @ip unmaps it. */
static void release_entry(struct kmap_atomic_level_log *log, unsigned int i, unsigned long ip)
{
	unsigned int slot = log->slot[i], n = log->n - 1;

	if (slot != KM_LOG_LOWMEM) {
		clear_slot(slot_pte(slot), slot_addr(slot));
		kmap_atomic_debug_unmapped(slot, ip);
	}
	memmove(&log->slot[i], &log->slot[i + 1], n - i);
	memmove(&log->type[i], &log->type[i + 1], n - i);
	memmove(&log->addr[i], &log->addr[i + 1], (n - i) * sizeof(log->addr[0]));
	memmove(&log->ip[i], &log->ip[i + 1], (n - i) * sizeof(log->ip[0]));
	WRITE_ONCE(log->n, n);
}

/*
 * A log that holds another task's maps: that task slept holding them (the
 * scheduler reported it) or died. Its counts went with it: the maps are
 * released, their counts left alone. Interrupts are off.
 */
static bool drop_stale(struct kmap_atomic_level_log *log)
{
	unsigned int i;

	if (likely(!log->n || log->task == current))
		return false;
	/* Lowmem maps hold no pte: only a slot left mapped is worth a report. */
	for (i = 0; i < log->n; i++) {
		if (log->slot[i] == KM_LOG_LOWMEM)
			continue;
		report(KMAP_REPORT_LEAK, log->type[i], 0, 0, log->ip[i],
		       "%pS maps %s in a task that left CPU%u holding it (it slept or died): released",
		       (void *)log->ip[i], kmap_atomic_slot_name(log->type[i]),
		       smp_processor_id());
	}
	while (log->n)
		release_entry(log, log->n - 1, 0);
	return true;
}

/* Which of one map's counts its release gives back: never below the baseline. */
struct give_back {
	bool pf, pc;
};

static struct give_back counts_above_base(const struct kmap_atomic_level_log *log,
					  unsigned int guard)
{
	return (struct give_back) {
		.pf = current->pagefault_disabled > log->pf_base,
		.pc = (int)(preempt_count() & PREEMPT_MASK) - (int)guard > log->pc_base,
	};
}

/*
 * The newest entry of @log that returned @vaddr, of @type if one did; or
 * -1. @slots: only slots' (an end pointer is a slot's only: a lowmem
 * pointer is 2.6's rule).
 */
static int entry_at(const struct kmap_atomic_level_log *log, unsigned long vaddr,
		    unsigned int type, bool slots)
{
	int i, found = -1;

	for (i = log->n - 1; i >= 0; i--) {
		if (log->addr[i] != vaddr || (slots && log->slot[i] == KM_LOG_LOWMEM))
			continue;
		if (log->type[i] == type)
			return i;
		if (found < 0)
			found = i;
	}
	return found;
}

/*
 * For an address that is no map of @log: the newest lowmem entry of
 * @type, else the newest entry of @type, else the newest lowmem entry,
 * else the newest entry; -1 if the log is empty.
 */
static int entry_by_type(const struct kmap_atomic_level_log *log, unsigned int type)
{
	int i, best = -1, rank = 0;

	for (i = log->n - 1; i >= 0; i--) {
		int r = 1 + (log->slot[i] == KM_LOG_LOWMEM) + 2 * (log->type[i] == type);

		if (r > rank) {
			rank = r;
			best = i;
		}
	}
	return best;
}

/* The maps this task's logs at @level and below still owe counts for. */
static int counts_owed(unsigned int level)
{
	struct kmap_atomic_level_log *log = this_cpu_ptr(kmap_atomic_log);
	int l, owed = 0;

	for (l = level; l >= 0; l--)
		if (log[l].task == current)
			owed += log[l].n;
	return owed;
}

/* What a typed unmap of an address stands for. */
enum unmap_kind {
	UNMAP_ENTRY,		/* an entry of this level, by its address */
	UNMAP_END,		/* an entry of this level, by its end pointer */
	UNMAP_LOWMEM,		/* a lowmem address for a lowmem entry: 2.6's rule */
	UNMAP_WRONG,		/* another address, for an entry of this level */
	UNMAP_ONE_ARG,		/* the top of kmap_local's stack: a one-argument map */
	UNMAP_SLOT,		/* another slot of this CPU's: touch nothing */
	UNMAP_NOTHING,		/* nothing of this level: touch nothing */
};

/*
 * Which map an unmap of @addr as @type releases (entry *@i of @log at
 * @level), in this order: the newest entry whose page holds @addr, or
 * @addr - 1 (an end pointer; the type decides between the two); none for
 * another slot of this CPU (free or another level's: unmapped twice, a
 * stale pointer); the top of this task's kmap_local stack, while page
 * faults are off more often than the logs owe (a one-argument
 * kmap_atomic()'s, released as kunmap_atomic(addr) would); else the
 * newest lowmem entry of @type, the newest entry of @type, the newest
 * lowmem entry, the newest entry.
 */
static enum unmap_kind kmap_atomic_pick(struct kmap_atomic_level_log *log, const void *addr,
					unsigned int type, unsigned int level, int *i)
{
	unsigned long vaddr = (unsigned long)addr & PAGE_MASK;
	struct kmap_atomic_where w;
	bool slot = kmap_atomic_slot_of(vaddr, &w) && w.cpu == smp_processor_id();
	int end;

	*i = entry_at(log, vaddr, type, false);
	end = offset_in_page(addr) ? -1 : entry_at(log, vaddr - PAGE_SIZE, type, true);
	/*
	 * A slot's address is the end of the slot below it in memory: a map of
	 * that one only if the type says so (else unmapped twice, say).
	 */
	if (end >= 0 && slot && log->type[end] != type)
		end = -1;
	if (*i >= 0 && !(end >= 0 && log->type[*i] != type))
		return UNMAP_ENTRY;
	*i = end;
	if (end >= 0)
		return UNMAP_END;
	/* Another slot of this CPU, or NULL (a refused map's): nothing. */
	if (slot || !addr)
		return UNMAP_SLOT;
	if (vaddr == kmap_atomic_local_top() && current->pagefault_disabled > counts_owed(level))
		return UNMAP_ONE_ARG;
	*i = entry_by_type(log, type);
	if (*i < 0)
		return UNMAP_NOTHING;
	if (kmap_atomic_is_lowmem(vaddr) && log->slot[*i] == KM_LOG_LOWMEM)
		return UNMAP_LOWMEM;
	return UNMAP_WRONG;
}

/*
 * The type the one-argument kunmap_atomic() of a slot's address passes;
 * and what a type is compared as with the log's: a type that is no slot
 * is logged as KM_TYPE_NR, and the one-argument unmap names none.
 */
#define KM_ONE_ARG	UINT_MAX

static unsigned int type_key(unsigned int type)
{
	return type == KM_ONE_ARG ? KM_TYPE_NR + 1 : min_t(unsigned int, type, KM_TYPE_NR);
}

/* What a log's entry was, for the report after it is released. */
struct km_entry {
	unsigned int slot, type;
	unsigned long ip;
};

static void report_unmap(enum unmap_kind kind, const void *addr, unsigned int type,
			 const struct km_entry *e, unsigned long pfn, unsigned long ip)
{
	const char *name = type == KM_ONE_ARG ? "the one-argument kunmap_atomic()" :
			   kmap_atomic_slot_name(type);
	enum kmap_atomic_report bad = type != KM_ONE_ARG && type >= KM_TYPE_NR ?
				      KMAP_REPORT_INVALID_TYPE : KMAP_REPORT_WRONG_ADDRESS;
	struct kmap_atomic_where w;

	switch (kind) {
	case UNMAP_ENTRY:
		/* A lowmem map by its own address: 2.6's lowmem rule, whatever the type. */
		if (e->type != type_key(type) && e->slot != KM_LOG_LOWMEM)
			report(bad, type, pfn, addr, ip,
			       "%pS unmaps %p with %s, but %pS mapped it as %s (the wrong type or form?): released, its counts given back",
			       (void *)ip, addr, name, (void *)e->ip,
			       kmap_atomic_slot_name(e->type));
		break;
	case UNMAP_END:
		report(bad, type, pfn, addr, ip,
		       "%pS unmaps %p with %s, the end of the page %pS mapped as %s (an end pointer?): released, its counts given back",
		       (void *)ip, addr, name, (void *)e->ip, kmap_atomic_slot_name(e->type));
		break;
	case UNMAP_WRONG:
		report(bad, type, pfn, addr, ip,
		       "%pS unmaps %p with %s, no address of a map of this context (the wrong pointer?): the map of %s by %pS released, its counts given back",
		       (void *)ip, addr, name, kmap_atomic_slot_name(e->type), (void *)e->ip);
		break;
	case UNMAP_ONE_ARG:
		report(KMAP_REPORT_WRONG_ADDRESS, type, pfn, addr, ip,
		       "%pS unmaps %p with %s, a one-argument kmap_atomic()'s mapping (use kunmap_atomic(addr)): released as that, its counts given back",
		       (void *)ip, addr, name);
		break;
	case UNMAP_SLOT:
		if (!addr) {
			report(KMAP_REPORT_NOT_HELD, type, pfn, addr, ip,
			       "%pS unmaps NULL with %s (a refused map's?): nothing changed",
			       (void *)ip, name);
			break;
		}
		kmap_atomic_slot_of((unsigned long)addr & PAGE_MASK, &w);
		report(!w.guard && kmap_atomic_slot_held(w.idx) ?
		       KMAP_REPORT_OTHER_CONTEXT : KMAP_REPORT_NOT_HELD, type, pfn, addr, ip,
		       "%pS unmaps %p with %s, CPU%u's %s, which %s: nothing changed",
		       (void *)ip, addr, name, w.cpu, kmap_atomic_slot_label(w.idx),
		       w.guard ? "is a guard page" : kmap_atomic_slot_held(w.idx) ?
		       "another context holds (a stale pointer?)" :
		       "maps nothing (unmapped twice?)");
		break;
	case UNMAP_NOTHING:
		report(type == KM_ONE_ARG || type < KM_TYPE_NR ? KMAP_REPORT_NOT_HELD :
		       KMAP_REPORT_INVALID_TYPE, type, pfn, addr, ip,
		       "%pS unmaps %p with %s with nothing mapped in this context: nothing changed",
		       (void *)ip, addr, name);
		break;
	case UNMAP_LOWMEM:
		break;
	}
}

/*
 * Any unmap but the correct one of a highmem page (see kmap_atomic_pick()),
 * with preemption disabled once more by the caller (a misused unmap may
 * come preemptible), which is enabled here.
 */
static noinline void unmap_slow(const void *addr, unsigned int type, unsigned long ip)
{
	unsigned long flags, vaddr = 0, pfn = 0;
	struct give_back give = {};
	struct kmap_atomic_level_log *log;
	struct km_entry e = {};
	enum unmap_kind kind;
	unsigned int level;
	int i;

	local_irq_save(flags);
	level = kmap_atomic_log_level();
	log = this_cpu_ptr(&kmap_atomic_log[level]);
	drop_stale(log);
	kind = kmap_atomic_pick(log, addr, type_key(type), level, &i);
	if (i >= 0) {
		e = (struct km_entry) { log->slot[i], log->type[i], log->ip[i] };
		vaddr = log->addr[i];
		pfn = e.slot != KM_LOG_LOWMEM ? pte_pfn(ptep_get(slot_pte(e.slot))) :
		      kmap_atomic_is_lowmem(vaddr) ? PFN_DOWN(__pa(vaddr)) : 0;
		release_entry(log, i, ip);
		give = counts_above_base(log, 1);
	}
	if (kind == UNMAP_ONE_ARG) {
		kunmap_local_indexed(addr);
		give = (struct give_back) { true, true };
	}
	local_irq_restore(flags);
	if (i >= 0 && trace_kmap_atomic_unmap_enabled())
		unmap_event(min_t(unsigned int, type, KM_TYPE_NR), pfn, vaddr, ip);
	report_unmap(kind, addr, type, &e, pfn, ip);
	if (give.pf)
		pagefault_enable();
	if (give.pc)
		preempt_enable_no_resched();
	preempt_enable();
}

/*
 * Lowmem entries whose counts a one-argument kunmap_atomic() gave back
 * (the log has more maps than page faults are off above its baseline) are
 * dropped, oldest first, silently: upstream's unmap of a lowmem address
 * gives back what 2.6's lowmem rule gave back. A map (@mapping: its own
 * counts are raised) calls this when it finds the log so, and the end of
 * the level before it releases the rest: no more than one such entry is
 * ever held, and none is reported as a leak.
 */
static void drop_unowed(struct kmap_atomic_level_log *log, int mapping)
{
	int excess = (int)log->n - (current->pagefault_disabled - mapping - log->pf_base);
	unsigned int i;

	if (likely(excess <= 0))
		return;
	for (i = 0; excess > 0 && i < log->n;) {
		if (log->slot[i] != KM_LOG_LOWMEM) {
			i++;
			continue;
		}
		release_entry(log, i, 0);
		excess--;
	}
}

/* Claim slot @slot for @pfn: its pte, from none. */
static bool claim(unsigned int slot, unsigned long pfn, pgprot_t prot)
{
	pte_t pte = mk_slot_pte(pfn, prot);

	if (!claim_none_pte(slot_pte(slot), pte))
		return false;
	arch_kmap_local_post_map(slot_addr(slot), pte);
	return true;
}

/*
 * May an NMI-class context map @type in its named slot? Only the NMI
 * slots: any other is the slot of a context it may have interrupted
 * between its claim and its unmap, which would then collide, reported for
 * correct code; the NMI gets a spare instead (the debug flavor reports
 * the slot used in the wrong context).
 */
static bool nmi_slot(unsigned int type)
{
	return kmap_atomic_slot_context(type) >= KM_CTX_NMI;
}

/* A free spare (the last KM_NMI_SPARES for NMIs), claimed; or -1. */
static int claim_spare(unsigned long pfn, pgprot_t prot)
{
	unsigned int slot, last = KM_SLOTS_USED - (in_nmi() ? 0 : KM_NMI_SPARES);

	for (slot = KM_TYPE_NR; slot < last; slot++)
		if (claim(slot, pfn, prot))
			return slot;
	return -1;
}

/*
 * Every map the fast path does not make: early in boot, a lowmem page, a
 * collision, a type that is no slot, a log that is full or holds another
 * task's maps, a pte that is no template's. Preemption and page faults are
 * off. Return: as kmap_atomic_prot_typed().
 */
static noinline void *map_slow(struct page *page, unsigned long pfn, unsigned int type,
			       pgprot_t prot, unsigned long ip)
{
	enum kmap_atomic_report kind = KMAP_REPORT_NR;
	unsigned int held_type = KM_TYPE_NR, held_level;
	struct kmap_atomic_level_log *log;
	unsigned long flags, held_ip = 0;
	const char *why = NULL;
	void *addr = NULL;
	int slot = -1;

	local_irq_save(flags);
	log = this_log();
	/* The caller began an empty log; one another task left is begun now. */
	if (drop_stale(log))
		log_begin(log);
	drop_unowed(log, 1);
	if (log->n >= KM_LOG_NR) {
		why = "its context's map log full";
	} else if (page && !PageHighMem(page)) {
		addr = lowmem_page_address(page);
		log_append(log, KM_LOG_LOWMEM, min_t(unsigned int, type, KM_TYPE_NR),
			   (unsigned long)addr, ip);
	} else {
		if (type < KM_TYPE_NR && (!in_nmi() || nmi_slot(type)) && claim(type, pfn, prot)) {
			slot = type;
		} else if (type < KM_TYPE_NR && in_nmi() && !nmi_slot(type)) {
			/* The interrupted context's slot, maybe: never taken from it. */
			slot = claim_spare(pfn, prot);
			if (slot < 0)
				why = "every spare in use";
		} else {
			kind = type < KM_TYPE_NR ? KMAP_REPORT_COLLISION : KMAP_REPORT_INVALID_TYPE;
			if (type < KM_TYPE_NR) {
				held_ip = kmap_atomic_slot_holder(smp_processor_id(), type,
								  &held_type, &held_level);
				kmap_atomic_debug_collided(type);
			}
			slot = claim_spare(pfn, prot);
			if (slot < 0)
				why = type < KM_TYPE_NR ? "its slot and every spare in use" :
				      "a type that is no slot and every spare in use";
		}
		if (slot >= 0) {
			addr = (void *)slot_addr(slot);
			log_append(log, slot, min_t(unsigned int, type, KM_TYPE_NR),
				   (unsigned long)addr, ip);
			/* An interrupted unmap of this slot may not have flushed yet. */
			if (kmap_atomic_log_level())
				arch_kmap_local_post_unmap((unsigned long)addr);
		}
	}
	local_irq_restore(flags);

	if (addr && kind == KMAP_REPORT_COLLISION)
		report(kind, type, pfn, 0, ip,
		       "%pS maps %s on CPU%u, which %pS holds as %s: given a spare slot",
		       (void *)ip, kmap_atomic_slot_name(type), smp_processor_id(),
		       (void *)held_ip, kmap_atomic_slot_name(held_type));
	else if (addr && kind == KMAP_REPORT_INVALID_TYPE)
		report(kind, type, pfn, 0, ip,
		       "%pS maps slot %u, which does not exist (KM_TYPE_NR is %d): given a spare slot",
		       (void *)ip, type, KM_TYPE_NR);
	if (!addr) {
		report(KMAP_REPORT_NO_SPARE, type, pfn, 0, ip,
		       "%pS maps %s with %s on CPU%u: not mapped, NULL returned",
		       (void *)ip, kmap_atomic_slot_name(type), why, smp_processor_id());
		pagefault_enable();
		preempt_enable();
		return NULL;
	}
	if (trace_kmap_atomic_map_enabled())
		map_event(type, pfn, (unsigned long)addr, ip);
	return addr;
}

/*
 * kmap_prot's map of @page (or of @pfn, @page NULL) in the named slot, at
 * the top of the log: one pte from the template, claimed from none. The
 * counts are raised.
 */
static __always_inline void *map_default(struct page *page, unsigned long pfn,
					 unsigned int type, unsigned long ip)
{
	unsigned int level = kmap_atomic_log_level(), idx = type;
	struct kmap_atomic_level_log *log = this_cpu_ptr(&kmap_atomic_log[level]);
	unsigned int n = log->n;
	unsigned long vaddr;

	kmap_atomic_debug_map(type, pfn, page, ip);
	if (!n)
		log_begin(log);
	if (likely(static_branch_likely(&kmap_atomic_template_ok) && idx < KM_TYPE_NR &&
		   n < KM_LOG_NR && log->task == current && !log_unowed(log) && !in_nmi())) {
		if (page && !PageHighMem(page)) {
			vaddr = (unsigned long)lowmem_page_address(page);
			log_append(log, KM_LOG_LOWMEM, idx, vaddr, ip);
			goto mapped;
		}
		if (page)
			pfn = page_to_pfn(page);
		if (likely(claim_none_pte(this_cpu_read(kmap_atomic_cpu.ptes[idx]),
					  template_pte(pfn)))) {
			vaddr = this_cpu_read(kmap_atomic_cpu.addrs[idx]);
			log_append(log, idx, idx, vaddr, ip);
			/* An interrupted unmap of this slot may not have flushed yet. */
			if (unlikely(level))
				arch_kmap_local_post_unmap(vaddr);
			goto mapped;
		}
	}
	return map_slow(page, page ? page_to_pfn(page) : pfn, type, kmap_prot, ip);
mapped:
	if (trace_kmap_atomic_map_enabled())
		map_event(type, page ? page_to_pfn(page) : pfn, vaddr, ip);
	return (void *)vaddr;
}

/**
 * __kmap_atomic_page - kmap_atomic(page, type), out of line
 * @page: the page
 * @type: the slot
 *
 * Disables preemption and page faults, logs the map; a lowmem page gives
 * its address, a highmem page is mapped with kmap_prot. Use
 * kmap_atomic(page, type), not this.
 *
 * Return: as kmap_atomic_prot_typed().
 */
void *__kmap_atomic_page(struct page *page, enum km_type type)
{
	kmap_atomic_counts_raise();
	return map_default(page, 0, type, _RET_IP_);
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
	return map_default(NULL, pfn, type, _RET_IP_);
}
EXPORT_SYMBOL(__kmap_atomic_pfn);

/**
 * __kmap_atomic_prot - kmap_atomic_prot(page, type, prot), out of line
 * @page: the page
 * @type: the slot
 * @prot: the protection of the mapping
 *
 * As __kmap_atomic_page(), with @prot. Use kmap_atomic_prot(page, type,
 * prot), not this.
 *
 * Return: as kmap_atomic_prot_typed().
 */
void *__kmap_atomic_prot(struct page *page, enum km_type type, pgprot_t prot)
{
	kmap_atomic_counts_raise();
	if (pgprot_val(prot) == pgprot_val(kmap_prot))
		return map_default(page, 0, type, _RET_IP_);
	if (!this_log()->n)
		log_begin(this_log());
	kmap_atomic_debug_map(type, page_to_pfn(page), page, _RET_IP_);
	return map_slow(page, page_to_pfn(page), type, prot, _RET_IP_);
}
EXPORT_SYMBOL(__kmap_atomic_prot);

/**
 * __kunmap_atomic_addr - kunmap_atomic(addr, type), out of line
 * @addr: the address passed
 * @type: the slot named
 *
 * The map at the top of this level's log, of @type and at @addr's page, is
 * released: its pte cleared and its address flushed (a slot), and page
 * faults and preemption enabled again. Anything else is
 * kmap_atomic_pick()'s to decide, and reported. Use kunmap_atomic(addr,
 * type), not this.
 */
void __kunmap_atomic_addr(const void *addr, enum km_type type)
{
	unsigned long vaddr = (unsigned long)addr & PAGE_MASK;
	struct kmap_atomic_level_log *log;
	unsigned int n, idx = type, slot;
	pte_t *ptep;

	/* A misused unmap may come preemptible: stay on this CPU. */
	preempt_disable();
	log = this_log();
	n = log->n;
	if (likely(n && idx < KM_TYPE_NR && log->type[n - 1] == idx && log->task == current &&
		   log->addr[n - 1] == vaddr)) {
		slot = log->slot[n - 1];
		if (slot == KM_LOG_LOWMEM) {
			/* Unless a one-argument unmap gave a lowmem map's counts back. */
			if (unlikely((int)n > current->pagefault_disabled - log->pf_base))
				goto slow;
			if (trace_kmap_atomic_unmap_enabled())
				unmap_event(idx, PFN_DOWN(__pa(vaddr)), vaddr, _RET_IP_);
		} else if (likely(slot == idx)) {
			ptep = this_cpu_read(kmap_atomic_cpu.ptes[idx]);
			if (trace_kmap_atomic_unmap_enabled())
				unmap_event(idx, pte_pfn(ptep_get(ptep)), vaddr, _RET_IP_);
			clear_slot(ptep, vaddr);
			kmap_atomic_debug_unmapped(idx, _RET_IP_);
		} else {
			goto slow;
		}
		WRITE_ONCE(log->n, n - 1);
		pagefault_enable();
		preempt_enable_no_resched();
		preempt_enable();
		return;
	}
slow:
	unmap_slow(addr, type, _RET_IP_);
}
EXPORT_SYMBOL(__kunmap_atomic_addr);

/**
 * __kunmap_atomic_one - the one-argument kunmap_atomic() of a slot's address
 * @addr: the address given to kunmap_atomic(addr)
 *
 * Called by kunmap_atomic(addr) for an address in the slots' range: the
 * typed unmap under no type, reported as the wrong form.
 */
void __kunmap_atomic_one(const void *addr)
{
	preempt_disable();
	unmap_slow(addr, KM_ONE_ARG, _RET_IP_);
}
EXPORT_SYMBOL(__kunmap_atomic_one);

static const char * const context_ends[] = {
	[KMAP_END_SYSCALL] = "its system call returns",
	[KMAP_END_TO_USER] = "its exception or interrupt returns to user space",
	[KMAP_END_WORK] = "its work item returns",
	[KMAP_END_KTHREAD] = "its kernel thread's function returns",
	[KMAP_END_HARDIRQ] = "its hard interrupt returns",
	[KMAP_END_SOFTIRQ] = "its softirq handler returns",
	[KMAP_END_NMI] = "its NMI returns",
	[KMAP_END_TASK_DIES] = "its task dies of an oops",
};

/**
 * __kmap_atomic_log_end - release what a context leaves in its map log
 * @end: where it ends
 *
 * Called through kmap_atomic_check_leaks() where a context ends while its
 * level's log holds a map: each is released, newest first, its counts
 * given back down to the level's baseline and never below it, and
 * reported with its map's call site (a task an oops kills only lists
 * them: with panic_on_warn a WARN would turn a survivable oops into a
 * panic).
 */
void __kmap_atomic_log_end(enum kmap_atomic_context_end end)
{
	struct kmap_atomic_level_log *log;
	struct give_back give;
	unsigned long flags;
	struct km_entry e;

	local_irq_save(flags);
	log = this_log();
	drop_stale(log);
	drop_unowed(log, 0);
	while (log->n) {
		e = (struct km_entry) { log->slot[log->n - 1], log->type[log->n - 1],
					log->ip[log->n - 1] };
		release_entry(log, log->n - 1, 0);
		give = counts_above_base(log, 0);
		if (give.pf)
			pagefault_enable();
		/* Interrupts are off: the caller's path checks for a resched. */
		if (give.pc)
			preempt_enable_no_resched();
		if (end == KMAP_END_TASK_DIES) {
			kmap_atomic_report_count();
			pr_emerg("kmap_atomic: %s on CPU%u, mapped by %pS as %s, is still held as %s: reclaimed\n",
				 kmap_atomic_slot_label(e.slot), smp_processor_id(), (void *)e.ip,
				 kmap_atomic_slot_name(e.type), context_ends[end]);
			continue;
		}
		report(KMAP_REPORT_LEAK, e.type, 0, 0, e.ip,
		       "%s on CPU%u, mapped by %pS as %s, is still held as %s: reclaimed",
		       kmap_atomic_slot_label(e.slot), smp_processor_id(), (void *)e.ip,
		       kmap_atomic_slot_name(e.type), context_ends[end]);
	}
	local_irq_restore(flags);
}
EXPORT_SYMBOL(__kmap_atomic_log_end);
/* Called where exceptions and NMIs return: no probes there. */
NOKPROBE_SYMBOL(__kmap_atomic_log_end);

/**
 * kmap_atomic_slot_holder - who holds a slot of a CPU, by its logs
 * @cpu: the CPU
 * @slot: the slot: an enum km_type, or a spare after KM_TYPE_NR
 * @type: where to write the type it was mapped as
 * @level: where to write the interrupt level it was mapped at
 *
 * A snapshot: another CPU's log may change as it is read.
 *
 * Return: the call site of the map that holds @slot, or 0 if no log of
 * @cpu has it.
 */
unsigned long kmap_atomic_slot_holder(unsigned int cpu, unsigned int slot, unsigned int *type,
				      unsigned int *level)
{
	struct kmap_atomic_level_log *log = per_cpu_ptr(kmap_atomic_log, cpu);
	unsigned int l, i, n;

	for (l = 0; l < KM_LEVELS; l++) {
		n = min_t(unsigned int, READ_ONCE(log[l].n), KM_LOG_NR);
		for (i = 0; i < n; i++) {
			if (READ_ONCE(log[l].slot[i]) == slot) {
				*type = READ_ONCE(log[l].type[i]);
				*level = l;
				return READ_ONCE(log[l].ip[i]);
			}
		}
	}
	return 0;
}

/* Is slot @slot of this CPU mapped (its pte not none)? */
bool kmap_atomic_slot_held(unsigned int slot)
{
	return slot < KM_SLOTS_USED && !pte_none(ptep_get(slot_pte(slot)));
}

/* What slot @slot of a log or an address is, for reports. */
const char *kmap_atomic_slot_label(unsigned int slot)
{
	if (slot < KM_TYPE_NR)
		return kmap_atomic_slot_name(slot);
	if (slot < KM_SLOTS_USED)
		return "a spare slot";
	return slot == KM_LOG_LOWMEM ? "a lowmem page" : "padding";
}
