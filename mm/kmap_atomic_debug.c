// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_DEBUG_KMAP_ATOMIC: each typed map and unmap is checked when it
 * happens, against a per-CPU record of who holds each slot.
 *
 * A misuse is reported through WARN (rate-limited) and counted, and loses
 * nothing: a map into a held slot gets a spare slot of its own, and an
 * unmap that does not match what is held changes nothing at all. A slot
 * still held when the hard interrupt, softirq handler or system call that
 * took it ends is reported and reclaimed there. Unmapping clears the pte,
 * so that a stale pointer faults instead of reading someone else's page.
 */
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/init.h>
#include <linux/kmap_atomic_debug.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/pfn.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>

#include "kmap_atomic.h"

/* The context a mapping was made in; 0 means the slot is free. */
enum holder_ctx { FREE, TASK, SOFTIRQ, HARDIRQ, NMI };

static const char * const ctx_names[] = {
	[FREE] = "free", [TASK] = "task", [SOFTIRQ] = "softirq",
	[HARDIRQ] = "hard interrupt", [NMI] = "NMI",
};

/* The named slots and the spares; the rest of a CPU's block is padding. */
#define KM_SLOTS_USED	(KM_TYPE_NR + KM_SPARE_SLOTS)

struct holder {
	unsigned long ip;		/* the kmap_atomic() call site */
	struct task_struct *task;	/* for TASK */
	unsigned long pfn;
	unsigned long addr;		/* page address that the map returned */
	u8 ctx;
	u8 type;			/* the slot asked for; KM_TYPE_NR if invalid */
	bool pte;			/* set a pte (not a lowmem page_address()) */
};

struct kmap_cpu {
	struct holder slot[KM_SLOTS_USED];	/* the spares follow KM_TYPE_NR */
	unsigned long maps[KM_TYPE_NR];
	unsigned long high[KM_TYPE_NR];		/* maps of highmem pages */
	unsigned long above_4g[KM_TYPE_NR];	/* of pages above 4 GiB */
	unsigned long collisions[KM_TYPE_NR];
};

static DEFINE_PER_CPU(struct kmap_cpu, kmap_cpu);
static atomic_long_t kmap_reports[KMAP_REPORT_NR];
/* Each kind has its own budget: a hot misuse cannot hide another kind. */
static struct ratelimit_state kmap_report_rs[KMAP_REPORT_NR] = {
	[0 ... KMAP_REPORT_NR - 1] = RATELIMIT_STATE_INIT(kmap_report_rs, 5 * HZ, 10),
};

#define NO_SLOT	UINT_MAX

#define kmap_report(kind, fmt, ...)					\
do {									\
	atomic_long_inc(&kmap_reports[KMAP_REPORT_##kind]);		\
	kmap_atomic_count_report();					\
	if (__ratelimit(&kmap_report_rs[KMAP_REPORT_##kind]))		\
		WARN(1, "kmap_atomic: " fmt "\n", ##__VA_ARGS__);	\
} while (0)

/**
 * kmap_atomic_debug_reports - how many reports of one kind were made
 * @kind: the kind of misuse
 *
 * Counts every report, printed or rate-limited away; for tests.
 *
 * Return: the count since boot.
 */
unsigned long kmap_atomic_debug_reports(enum kmap_atomic_report kind)
{
	return atomic_long_read(&kmap_reports[kind]);
}
EXPORT_SYMBOL_GPL(kmap_atomic_debug_reports);

static u8 current_ctx(void)
{
	if (in_nmi())
		return NMI;
	if (in_hardirq())
		return HARDIRQ;
	if (in_serving_softirq())
		return SOFTIRQ;
	return TASK;
}

static bool held_by_current(const struct holder *h, u8 ctx)
{
	return h->ctx == ctx && (ctx != TASK || h->task == current);
}

static const char *slot_name(unsigned int idx)
{
	return idx < KM_TYPE_NR ? kmap_atomic_slot_name(idx) : "a spare slot";
}

static const char *const context_rules[] = {
	[KM_CTX_TASK] = "process context, not an interrupt",
	[KM_CTX_SOFTIRQ] = "softirq or bottom-halves-off context, not a hard interrupt",
	[KM_CTX_IRQ] = "use with local interrupts disabled",
};

static void check_context(enum km_type type, u8 ctx, bool irqs_off, unsigned long ip)
{
	enum km_context rule = kmap_atomic_slot_context(type);
	bool ok;

	switch (rule) {
	case KM_CTX_TASK:
		ok = ctx == TASK;
		break;
	case KM_CTX_SOFTIRQ:
		ok = ctx == SOFTIRQ || (ctx == TASK && softirq_count());
		break;
	default:
		ok = irqs_off;
		break;
	}
	if (!ok)
		kmap_report(CONTEXT,
			    "%s is for %s, but %pS maps it in %s context with interrupts %s%s",
			    kmap_atomic_slot_name(type), context_rules[rule], (void *)ip,
			    ctx_names[ctx], irqs_off ? "off" : "on",
			    ctx == TASK && softirq_count() ? " and bottom halves off" : "");
}

static unsigned int find_spare(struct kmap_cpu *kc)
{
	unsigned int i;

	for (i = KM_TYPE_NR; i < KM_SLOTS_USED; i++)
		if (kc->slot[i].ctx == FREE)
			return i;
	return NO_SLOT;
}

static void release(struct kmap_cpu *kc, unsigned int idx)
{
	struct holder *h = &kc->slot[idx];

	if (h->pte)
		kmap_atomic_clear_idx(idx);
	h->ctx = FREE;
}

/*
 * Does an unmap of @base match what @h holds? A lowmem map used no slot,
 * and 2.6 let any lowmem address unmap it (real code mapped one lowmem
 * page and unmapped a pointer to another): so does this.
 */
static bool unmaps_holder(const struct holder *h, unsigned long base)
{
	return h->pte ? h->addr == base : kmap_atomic_is_lowmem(base);
}

/**
 * __kmap_atomic_debug - the checked kmap_atomic(page, type)
 * @page: the page, or NULL for kmap_atomic_pfn()
 * @pfn: its page frame
 * @type: the slot asked for
 * @prot: the protection
 *
 * Called by the inline map functions with preemption and page faults
 * disabled; use those, not this.
 *
 * Return: the address of the mapping: in @type's slot, or in a spare slot
 * if @type is held already or is no slot.
 */
void *__kmap_atomic_debug(struct page *page, unsigned long pfn, enum km_type type,
			  pgprot_t prot)
{
	unsigned long ip = _RET_IP_;	/* inlined into the caller: its call site */
	bool irqs_off = irqs_disabled();
	u8 ctx = current_ctx();
	unsigned int cpu, idx = type;
	struct kmap_cpu *kc;
	struct holder *h;
	unsigned long flags;
	void *addr;

	local_irq_save(flags);
	kc = this_cpu_ptr(&kmap_cpu);
	cpu = smp_processor_id();
	if ((unsigned int)type >= KM_TYPE_NR) {
		idx = find_spare(kc);
		kmap_report(INVALID_TYPE,
			    "%pS maps slot %d, which does not exist (KM_TYPE_NR is %d): given %s",
			    (void *)ip, type, KM_TYPE_NR, slot_name(idx));
	} else {
		check_context(type, ctx, irqs_off, ip);
		kc->maps[type]++;
		if (!page || PageHighMem(page))
			kc->high[type]++;
		if (PFN_PHYS(pfn) >= SZ_4G)
			kc->above_4g[type]++;
		h = &kc->slot[type];
		if (h->ctx != FREE) {
			kc->collisions[type]++;
			idx = find_spare(kc);
			kmap_report(COLLISION,
				    "%s on CPU%u is held by %pS (%s, pfn %#lx); %pS (%s) maps it too and is given %s",
				    kmap_atomic_slot_name(type), cpu, (void *)h->ip,
				    ctx_names[h->ctx], h->pfn, (void *)ip, ctx_names[ctx],
				    slot_name(idx));
		}
	}
	if (idx == NO_SLOT) {
		/* Never overwrite a holder: fall back to kmap_local's slots. */
		addr = kmap_atomic_fallback_map(pfn, prot, type);
		kmap_report(NO_SPARE,
			    "CPU%u has no spare slot left for %pS: mapped with kmap_local instead; unmap in reverse order",
			    cpu, (void *)ip);
		local_irq_restore(flags);
		return addr;
	}

	h = &kc->slot[idx];
	h->pte = !page || PageHighMem(page);
	if (h->pte) {
		addr = (void *)kmap_atomic_map_idx(idx, pfn, prot);
		if (unlikely(!addr)) {
			/* Free by the record, in use by its pte: an NMI, which is not recorded. */
			kmap_report(COLLISION,
				    "%s on CPU%u is in use by a context these checks do not record (an NMI?); %pS is mapped with kmap_local",
				    slot_name(idx), cpu, (void *)ip);
			addr = kmap_atomic_fallback_map(pfn, prot, type);
			local_irq_restore(flags);
			return addr;
		}
	} else {
		addr = lowmem_page_address(page);
	}
	h->ip = ip;
	h->task = current;
	h->pfn = pfn;
	h->addr = (unsigned long)addr;
	h->ctx = ctx;
	h->type = (unsigned int)type < KM_TYPE_NR ? type : KM_TYPE_NR;
	local_irq_restore(flags);
	return addr;
}
EXPORT_SYMBOL(__kmap_atomic_debug);

/**
 * __kunmap_atomic_debug - the checked kunmap_atomic(addr, type)
 * @addr: the address passed
 * @type: the slot named
 *
 * Return: true if @addr and @type match a mapping this context holds,
 * which is released; the caller then enables page faults and preemption.
 * False after a report: nothing was changed.
 */
bool __kunmap_atomic_debug(const void *addr, enum km_type type)
{
	unsigned long ip = _RET_IP_;
	unsigned long base = (unsigned long)addr & PAGE_MASK;
	u8 ctx = current_ctx();
	struct kmap_cpu *kc;
	unsigned long flags;
	struct holder *h;
	unsigned int cpu, i;
	bool ok = false;

	local_irq_save(flags);
	/* A collision that found no spare slot, and only that. */
	switch (kmap_atomic_fallback_unmap(addr, type)) {
	case 1:
		local_irq_restore(flags);
		return true;
	case -2:
		kmap_report(WRONG_ADDRESS,
			    "%pS unmaps %p, a kmap_local fallback, from %s, another type than its map's: nothing changed",
			    (void *)ip, addr, kmap_atomic_slot_name(type));
		local_irq_restore(flags);
		return false;
	case -1:
		kmap_report(WRONG_ADDRESS,
			    "%pS unmaps %p, a kmap_local fallback, out of kmap_local's order (unmap in reverse order): nothing changed",
			    (void *)ip, addr);
		local_irq_restore(flags);
		return false;
	}
	kc = this_cpu_ptr(&kmap_cpu);
	cpu = smp_processor_id();
	for (i = KM_TYPE_NR; i < KM_SLOTS_USED; i++) {
		h = &kc->slot[i];
		if (held_by_current(h, ctx) && unmaps_holder(h, base) &&
		    h->type == min_t(unsigned int, type, KM_TYPE_NR)) {
			release(kc, i);
			ok = true;
			goto out;
		}
	}
	if ((unsigned int)type >= KM_TYPE_NR) {
		kmap_report(INVALID_TYPE,
			    "%pS unmaps %p from slot %d, which does not exist: nothing changed",
			    (void *)ip, addr, type);
		goto out;
	}

	h = &kc->slot[type];
	for (i = 0; h->ctx == FREE && i < KM_TYPE_NR; i++) {
		if (held_by_current(&kc->slot[i], ctx) && kc->slot[i].pte &&
		    kc->slot[i].addr == base) {
			kmap_report(WRONG_ADDRESS,
				    "%pS unmaps %p from %s, but it is mapped in %s (the wrong type?): nothing changed",
				    (void *)ip, addr, kmap_atomic_slot_name(type),
				    kmap_atomic_slot_name(i));
			goto out;
		}
	}
	if (h->ctx == FREE)
		kmap_report(NOT_HELD,
			    "%pS unmaps %p from %s, which CPU%u does not hold (unmapped twice?): nothing changed",
			    (void *)ip, addr, kmap_atomic_slot_name(type), cpu);
	else if (!unmaps_holder(h, base))
		kmap_report(WRONG_ADDRESS,
			    "%pS unmaps %p from %s, but CPU%u's %s maps %p for %pS (%s): nothing changed",
			    (void *)ip, addr, kmap_atomic_slot_name(type), cpu,
			    kmap_atomic_slot_name(type), (void *)h->addr, (void *)h->ip,
			    ctx_names[h->ctx]);
	else if (!held_by_current(h, ctx))
		kmap_report(OTHER_CONTEXT,
			    "%pS unmaps %s in %s context, but %pS mapped it in %s context: nothing changed",
			    (void *)ip, kmap_atomic_slot_name(type), ctx_names[ctx],
			    (void *)h->ip, ctx_names[h->ctx]);
	else
		ok = true;
	if (ok)
		release(kc, type);
out:
	local_irq_restore(flags);
	return ok;
}
EXPORT_SYMBOL(__kunmap_atomic_debug);

static const char * const context_ends[] = {
	[TASK] = "system call returns to user space", [SOFTIRQ] = "softirq handler returns",
	[HARDIRQ] = "hard interrupt returns", [NMI] = "NMI returns",
};

/**
 * kmap_atomic_check_leaks - reclaim the slots the ending context still holds
 *
 * Called where a hard interrupt or softirq handler returns and before a
 * return to user space. Each slot still held is reported and released, and
 * the preemption and page-fault counts its map raised are brought back.
 */
void kmap_atomic_check_leaks(void)
{
	u8 ctx = current_ctx();
	struct kmap_cpu *kc;
	unsigned long flags;
	struct holder *h;
	unsigned int i;

	local_irq_save(flags);
	kc = this_cpu_ptr(&kmap_cpu);
	for (i = 0; i < KM_SLOTS_USED; i++) {
		h = &kc->slot[i];
		if (!held_by_current(h, ctx))
			continue;
		kmap_report(LEAK,
			    "%s on CPU%u, mapped by %pS, is still held as its %s: reclaimed",
			    slot_name(i), smp_processor_id(), (void *)h->ip, context_ends[ctx]);
		release(kc, i);
		pagefault_enable();
		preempt_enable_no_resched();
	}
	local_irq_restore(flags);
}

/*
 * /sys/kernel/debug/kmap_atomic/slots: per CPU and slot, the maps (of them
 * highmem and above 4 GiB), the collisions, and the holder now.
 */
static int slots_show(struct seq_file *m, void *v)
{
	unsigned int cpu, i;

	seq_puts(m, "cpu slot                    maps     high  above4G collisions holder\n");
	for_each_online_cpu(cpu) {
		struct kmap_cpu *kc = per_cpu_ptr(&kmap_cpu, cpu);

		for (i = 0; i < KM_SLOTS_USED; i++) {
			/* A snapshot: the holder may change as we print. */
			struct holder h = kc->slot[i];

			if (i < KM_TYPE_NR)
				seq_printf(m, "%3u %-20s %8lu %8lu %8lu %10lu ", cpu,
					   kmap_atomic_slot_name(i), kc->maps[i], kc->high[i],
					   kc->above_4g[i], kc->collisions[i]);
			else
				seq_printf(m, "%3u spare%-15u %8s %8s %8s %10s ", cpu,
					   i - KM_TYPE_NR, "-", "-", "-", "-");
			if (h.ctx == FREE)
				seq_puts(m, "-\n");
			else
				seq_printf(m, "%pS (%s, pfn %#lx)\n", (void *)h.ip,
					   ctx_names[h.ctx], h.pfn);
		}
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(slots);

static const char * const report_names[KMAP_REPORT_NR] = {
	[KMAP_REPORT_COLLISION] = "collision",
	[KMAP_REPORT_CONTEXT] = "wrong_context",
	[KMAP_REPORT_WRONG_ADDRESS] = "unmap_wrong_address",
	[KMAP_REPORT_NOT_HELD] = "unmap_not_held",
	[KMAP_REPORT_OTHER_CONTEXT] = "unmap_other_context",
	[KMAP_REPORT_INVALID_TYPE] = "invalid_type",
	[KMAP_REPORT_LEAK] = "leak",
	[KMAP_REPORT_NO_SPARE] = "no_spare",
};

/* /sys/kernel/debug/kmap_atomic/reports: how many of each kind. */
static int reports_show(struct seq_file *m, void *v)
{
	unsigned int i;

	for (i = 0; i < KMAP_REPORT_NR; i++)
		seq_printf(m, "%s %lu\n", report_names[i], kmap_atomic_debug_reports(i));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(reports);

static int __init kmap_atomic_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("kmap_atomic", NULL);

	debugfs_create_file("slots", 0444, dir, NULL, &slots_fops);
	debugfs_create_file("reports", 0444, dir, NULL, &reports_fops);
	return 0;
}
late_initcall(kmap_atomic_debugfs_init);
