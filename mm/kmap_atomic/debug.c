// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_DEBUG_KMAP_ATOMIC: what a release kernel does not check, on the
 * same map log (core.c). Each map of a named slot is checked against the
 * context its slot is for; each slot has an unmapped guard page above it
 * (KM_SLOT_STRIDE), and a kernel fault on a slot's address is described
 * (slot, CPU, offset, who holds it or who last unmapped it) before the
 * fault is fixed up or oopses; an oops or panic lists the maps its CPU
 * holds; debugfs counts the maps of each slot and the reports of each
 * kind.
 */
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/init.h>
#include <linux/kdebug.h>
#include <linux/kgdb.h>
#include <linux/kmap_atomic_debug.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/pfn.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>

#include "kmap_atomic.h"

/* The context a map or unmap was made in. */
enum debug_ctx { TASK, SOFTIRQ, HARDIRQ, NMI };

static const char * const ctx_names[] = {
	[TASK] = "task", [SOFTIRQ] = "softirq", [HARDIRQ] = "hard interrupt", [NMI] = "NMI",
};

/* What a log's level is, for a description. */
static const char * const level_names[] = {
	"task", "softirq", "hard interrupt", "a nested interrupt or NMI",
};

struct kmap_debug_cpu {
	unsigned long maps[KM_TYPE_NR];		/* of highmem pages or pfns */
	unsigned long high[KM_TYPE_NR];		/* of highmem pages */
	unsigned long above_4g[KM_TYPE_NR];	/* of pages above 4 GiB */
	unsigned long collisions[KM_TYPE_NR];
	/* Each slot's last unmap, for fault reports: 0 if none. */
	unsigned long unmap_ip[KM_SLOTS_USED];
	u8 unmap_ctx[KM_SLOTS_USED];
};

static DEFINE_PER_CPU(struct kmap_debug_cpu, kmap_debug_cpu);

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

static const char *const context_rules[] = {
	[KM_CTX_TASK] = "process context, not an interrupt",
	[KM_CTX_SOFTIRQ] =
		"softirq, or a task with bottom halves or interrupts off, not a hard interrupt",
	[KM_CTX_IRQ] = "use with local interrupts disabled, not in an NMI",
	[KM_CTX_NMI] = "NMI handlers only",
	[KM_CTX_DEBUGGER] = "the kernel debugger (an NMI, int3 or #DB) only",
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
		/* 2.6 allowed a task with interrupts off too: no softirq runs. */
		ok = ctx == SOFTIRQ || (ctx == TASK && (softirq_count() || irqs_off));
		break;
	case KM_CTX_NMI:
		/*
		 * Stricter than 2.6.33's check, which let a task with
		 * interrupts off map them too: an NMI may come there and
		 * collide. x86 code of 2.6 mapped them only in NMIs.
		 */
		ok = ctx == NMI;
		break;
	case KM_CTX_DEBUGGER:
		/* x86 enters the debugger from int3, #DB or an NMI: all NMIs. */
		ok = ctx == NMI || in_dbg_master();
		break;
	default:
		ok = irqs_off && ctx != NMI;
		break;
	}
	if (!ok)
		kmap_atomic_report(KMAP_REPORT_CONTEXT, type, 0, 0, ip,
				   "%s is for %s, but %pS maps it in %s context with interrupts %s%s",
				   kmap_atomic_slot_name(type), context_rules[rule], (void *)ip,
				   ctx_names[ctx], irqs_off ? "off" : "on",
				   ctx == TASK && softirq_count() ? " and bottom halves off" : "");
}

/* Each typed map, before the core maps it; preemption is off. */
void kmap_atomic_debug_map(unsigned int type, unsigned long pfn, struct page *page,
			   unsigned long ip)
{
	struct kmap_debug_cpu *kd = this_cpu_ptr(&kmap_debug_cpu);

	if (type >= KM_TYPE_NR)
		return;		/* the core reports it */
	/* 2.6: a lowmem page uses no slot, and its map was not checked. */
	if (page && !PageHighMem(page))
		return;
	if (page)
		pfn = page_to_pfn(page);
	check_context(type, current_ctx(), irqs_disabled(), ip);
	kd->maps[type]++;
	kd->high[type] += !!page;
	kd->above_4g[type] += PFN_PHYS(pfn) >= SZ_4G;
}

void kmap_atomic_debug_collided(unsigned int type)
{
	this_cpu_inc(kmap_debug_cpu.collisions[type]);
}

/* Slot @slot of this CPU was unmapped by @ip (0: where its context ended). */
void kmap_atomic_debug_unmapped(unsigned int slot, unsigned long ip)
{
	this_cpu_write(kmap_debug_cpu.unmap_ip[slot], ip);
	this_cpu_write(kmap_debug_cpu.unmap_ctx[slot], current_ctx());
}

/**
 * kmap_atomic_describe - what an address in the typed slots' range is
 * @addr: the address, a faulting one say
 * @buf: where to write the description
 * @len: its size
 *
 * For example "fault at 0xffa3f008 is KM_USER1 on CPU2 + 0x1008: 8 bytes
 * past the page that foo+0x12/0x80 mapped (held)". Another CPU's log may
 * change as it is read: the description is a snapshot.
 *
 * Return: the length written (as scnprintf()), 0 if @addr is not in the
 * range.
 */
size_t kmap_atomic_describe(unsigned long addr, char *buf, size_t len)
{
	struct kmap_atomic_where w;
	struct kmap_debug_cpu *kd;
	unsigned int type, level;
	unsigned long off, ip;
	size_t n;

	if (!kmap_atomic_slot_of(addr & PAGE_MASK, &w) || !cpu_possible(w.cpu))
		return 0;
	if (w.idx >= KM_SLOTS_USED)
		return scnprintf(buf, len, "fault at %#lx is in the padding after CPU%u's slots",
				 addr, w.cpu);
	kd = per_cpu_ptr(&kmap_debug_cpu, w.cpu);
	ip = kmap_atomic_slot_holder(w.cpu, w.idx, &type, &level);
	off = addr - kmap_atomic_slot_addr(w.cpu, w.idx);
	n = scnprintf(buf, len, "fault at %#lx is %s on CPU%u + %#lx: ", addr,
		      kmap_atomic_slot_label(w.idx), w.cpu, off);
	if (w.guard)
		n += scnprintf(buf + n, len - n, "%lu bytes past the page that ",
			       off - PAGE_SIZE);
	else
		n += scnprintf(buf + n, len - n, "in the page that ");
	if (ip)
		n += scnprintf(buf + n, len - n, "%pS mapped (held, %s, as %s)", (void *)ip,
			       level_names[min_t(unsigned int, level, ARRAY_SIZE(level_names) - 1)],
			       kmap_atomic_slot_name(type));
	else if (READ_ONCE(kd->unmap_ip[w.idx]))
		n += scnprintf(buf + n, len - n, "was unmapped by %pS (%s)",
			       (void *)READ_ONCE(kd->unmap_ip[w.idx]),
			       ctx_names[READ_ONCE(kd->unmap_ctx[w.idx])]);
	else
		n += scnprintf(buf + n, len - n,
			       "no map holds (never mapped, or released where its context ended)");
	return n;
}
EXPORT_SYMBOL_GPL(kmap_atomic_describe);

/**
 * kmap_atomic_debug_fault - describe a kernel fault on a typed slot's address
 * @address: the faulting address
 * @fixed_up: whether the faulting instruction has an exception fixup
 *
 * Called by the architecture's page fault handler for a kernel-mode fault
 * that it cannot resolve, before the fault is fixed up (a *_nofault()
 * access) or oopses. Each is counted; one about to oops is described, one
 * that will be fixed up is described the first time for the call site
 * that holds or last unmapped the slot (a probe of a stale pointer in a
 * loop prints once).
 */
void kmap_atomic_debug_fault(unsigned long address, bool fixed_up)
{
	struct kmap_atomic_where w;
	char msg[256];
	unsigned int type, level;
	unsigned long ip;

	if (!kmap_atomic_describe(address, msg, sizeof(msg)))
		return;
	kmap_atomic_count_kind(KMAP_REPORT_FAULT);
	if (fixed_up && kmap_atomic_slot_of(address & PAGE_MASK, &w) && w.idx < KM_SLOTS_USED) {
		ip = kmap_atomic_slot_holder(w.cpu, w.idx, &type, &level) ?:
		     READ_ONCE(per_cpu_ptr(&kmap_debug_cpu, w.cpu)->unmap_ip[w.idx]);
		if (!kmap_atomic_site_first(ip ^ ((unsigned long)KMAP_REPORT_FAULT <<
						  (BITS_PER_LONG - 4))))
			return;
	}
	pr_err("kmap_atomic: %s\n", msg);
}

/* Like lockdep's held locks: what the CPU that oopsed or panicked holds. */
static void show_held(void)
{
	struct kmap_atomic_level_log *log = this_cpu_ptr(kmap_atomic_log);
	unsigned int l, i, slot, n = 0;
	unsigned long pfn, addr;

	for (l = 0; l < KM_LEVELS; l++) {
		for (i = 0; i < min_t(unsigned int, log[l].n, KM_LOG_NR); i++) {
			if (!n++)
				pr_emerg("kmap_atomic: typed slots held on CPU%u:\n",
					 smp_processor_id());
			slot = log[l].slot[i];
			addr = kmap_atomic_slot_addr(smp_processor_id(), slot);
			pfn = slot < KM_SLOTS_USED ? pte_pfn(ptep_get(virt_to_kpte(addr))) : 0;
			pr_emerg(" %s: pfn %#lx mapped by %pS as %s (%s, pid %d)\n",
				 kmap_atomic_slot_label(slot), pfn, (void *)log[l].ip[i],
				 kmap_atomic_slot_name(log[l].type[i]),
				 level_names[min_t(unsigned int, l, ARRAY_SIZE(level_names) - 1)],
				 log[l].task == current ? task_pid_nr(current) : -1);
		}
	}
}

static int held_on_oops(struct notifier_block *nb, unsigned long val, void *data)
{
	if (val == DIE_OOPS)
		show_held();
	return NOTIFY_DONE;
}

static int held_on_panic(struct notifier_block *nb, unsigned long val, void *data)
{
	show_held();
	return NOTIFY_DONE;
}

static struct notifier_block oops_nb = { .notifier_call = held_on_oops };
static struct notifier_block panic_nb = { .notifier_call = held_on_panic };

/*
 * /sys/kernel/debug/kmap_atomic/slots: per CPU and slot, the maps (of
 * highmem pages or page frames; of them of highmem pages, of frames above
 * 4 GiB), the collisions, and the holder now.
 */
static int slots_show(struct seq_file *m, void *v)
{
	unsigned int cpu, i, type, level;
	unsigned long ip;

	seq_puts(m, "cpu slot                    maps     high  above4G collisions holder\n");
	for_each_online_cpu(cpu) {
		struct kmap_debug_cpu *kd = per_cpu_ptr(&kmap_debug_cpu, cpu);

		for (i = 0; i < KM_SLOTS_USED; i++) {
			if (i < KM_TYPE_NR)
				seq_printf(m, "%3u %-20s %8lu %8lu %8lu %10lu ", cpu,
					   kmap_atomic_slot_name(i), kd->maps[i], kd->high[i],
					   kd->above_4g[i], kd->collisions[i]);
			else
				seq_printf(m, "%3u spare%-15u %8s %8s %8s %10s ", cpu,
					   i - KM_TYPE_NR, "-", "-", "-", "-");
			/* A snapshot: the holder may change as we print. */
			ip = kmap_atomic_slot_holder(cpu, i, &type, &level);
			if (ip)
				seq_printf(m, "%pS (%s)\n", (void *)ip,
					   kmap_atomic_slot_name(type));
			else
				seq_puts(m, "-\n");
		}
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(slots);

/* /sys/kernel/debug/kmap_atomic/reports: how many of each kind. */
static int reports_show(struct seq_file *m, void *v)
{
	unsigned int i;

	for (i = 0; i < KMAP_REPORT_NR; i++)
		seq_printf(m, "%s %lu\n", kmap_atomic_report_name(i), kmap_atomic_debug_reports(i));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(reports);

static int __init kmap_atomic_debug_init(void)
{
	struct dentry *dir = debugfs_create_dir("kmap_atomic", NULL);

	debugfs_create_file("slots", 0444, dir, NULL, &slots_fops);
	debugfs_create_file("reports", 0444, dir, NULL, &reports_fops);
	register_die_notifier(&oops_nb);
	atomic_notifier_chain_register(&panic_notifier_list, &panic_nb);
	return 0;
}
late_initcall(kmap_atomic_debug_init);
