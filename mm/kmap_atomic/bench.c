// SPDX-License-Identifier: GPL-2.0
/*
 * The cost of a map + touch one word + unmap pair: typed kmap_atomic()
 * for each slot class, the one-argument kmap_atomic(), kmap_local_page(),
 * kmap(), a lowmem page, and two floors on a pte nothing else uses (a
 * page of vmalloc space of the bench's own, not a slot an NMI may need):
 * one whole-pte write over the last one and one single-page flush
 * (raw_floor, what a design that leaves the pte behind must do; on PAE
 * a present pte is rewritten in one 64-bit write, never in two halves),
 * and a pte write into a none pte, a pte clear and one flush
 * (raw_floor_clear, what any design that clears at unmap must do), over
 * 2, 512 and 4096 highmem pages.
 *
 * Runs when loaded and prints one line per figure:
 *   KMAP-BENCH <name> <pages> <cpus> <units per pair> <flushes per pair>
 * in TSC units; under QEMU's -icount shift=0 that is executed instructions,
 * the same on every run. Flushes are counted with CONFIG_DEBUG_TLBFLUSH
 * only, "-" otherwise. Writing N to its debugfs file "scaling" runs pairs
 * on N CPUs at once, in wall-clock nanoseconds; reading its file "cycles"
 * gives the TSC, to time user space. make bench boots it and makes the
 * table.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/kstrtox.h>
#include <linux/math64.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timex.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>
#include <asm/pgtable_types.h>

#define MAX_PAGES	4096
#define PAIRS		8192

static struct page **pages;
static struct page *lowmem_page;

static unsigned long floor_flushes;	/* the floor's own INVLPGs */

static unsigned long flushes(void)
{
#ifdef CONFIG_DEBUG_TLBFLUSH
	return this_cpu_read(vm_event_states.event[NR_TLB_LOCAL_FLUSH_ONE]) +
	       this_cpu_read(vm_event_states.event[NR_TLB_LOCAL_FLUSH_ALL]) +
	       this_cpu_read(vm_event_states.event[NR_TLB_REMOTE_FLUSH]) + floor_flushes;
#else
	return 0;
#endif
}

static __always_inline void touch(void *addr, unsigned int i)
{
	WRITE_ONCE(*(u32 *)addr, i);
}

enum pair { TYPED_TASK, TYPED_SOFTIRQ, TYPED_IRQ, ATOMIC_UNTYPED, LOCAL, KMAP, LOWMEM_TYPED,
	    RAW_FLOOR, RAW_FLOOR_CLEAR, PAIR_NR };

static const char * const pair_names[PAIR_NR] = {
	[TYPED_TASK] = "typed_KM_USER0",
	[TYPED_SOFTIRQ] = "typed_KM_SOFTIRQ0",
	[TYPED_IRQ] = "typed_KM_IRQ0",
	[ATOMIC_UNTYPED] = "kmap_atomic_untyped",
	[LOCAL] = "kmap_local_page",
	[KMAP] = "kmap",
	[LOWMEM_TYPED] = "typed_KM_USER0_lowmem",
	[RAW_FLOOR] = "raw_floor",
	[RAW_FLOOR_CLEAR] = "raw_floor_clear",
};

/*
 * The floors: the pte of this CPU's last spare slot, which only a misuse
 * of the typed slots takes (none happens here), written and flushed with
 * interrupts off, then touched; and left none again after each run.
 */
static pte_t *floor_pte;
static unsigned long floor_addr;

/* What flush_tlb_one_kernel() comes to without PTI; it is not exported. */
static __always_inline void floor_flush(unsigned long addr)
{
	asm volatile("invlpg (%0)" : : "r" (addr) : "memory");
}

static noinline void run_pairs(enum pair p, unsigned int n, unsigned int count)
{
	unsigned int i;
	void *addr;

	for (i = 0; i < count; i++) {
		struct page *page = pages[i % n];

		switch (p) {
		case TYPED_TASK:
			addr = kmap_atomic(page, KM_USER0);
			touch(addr, i);
			kunmap_atomic(addr, KM_USER0);
			break;
		case TYPED_SOFTIRQ:
			addr = kmap_atomic(page, KM_SOFTIRQ0);
			touch(addr, i);
			kunmap_atomic(addr, KM_SOFTIRQ0);
			break;
		case TYPED_IRQ:
			addr = kmap_atomic(page, KM_IRQ0);
			touch(addr, i);
			kunmap_atomic(addr, KM_IRQ0);
			break;
		case ATOMIC_UNTYPED:
			addr = kmap_atomic(page);
			touch(addr, i);
			kunmap_atomic(addr);
			break;
		case LOCAL:
			addr = kmap_local_page(page);
			touch(addr, i);
			kunmap_local(addr);
			break;
		case KMAP:
			addr = kmap(page);
			touch(addr, i);
			kunmap(page);
			break;
		case LOWMEM_TYPED:
			addr = kmap_atomic(lowmem_page, KM_USER0);
			touch(addr, i);
			kunmap_atomic(addr, KM_USER0);
			break;
		case RAW_FLOOR:
			set_pte_atomic(floor_pte, mk_pte(page, kmap_prot));
			floor_flush(floor_addr);
			if (IS_ENABLED(CONFIG_DEBUG_TLBFLUSH))
				floor_flushes++;
			touch((void *)floor_addr, i);
			break;
		case RAW_FLOOR_CLEAR:
			set_pte(floor_pte, mk_pte(page, kmap_prot));
			touch((void *)floor_addr, i);
			pte_clear(NULL, floor_addr, floor_pte);
			floor_flush(floor_addr);
			if (IS_ENABLED(CONFIG_DEBUG_TLBFLUSH))
				floor_flushes++;
			break;
		case PAIR_NR:
			break;
		}
	}
}

/*
 * The floors' pte: a page of vmalloc space that vmap() gave the bench,
 * its pte cleared (floor_setup()), which nothing else maps. Interrupts are
 * off, so the CPU stays.
 */
static pte_t floor_orig;
static void *floor_area;

static bool floor_get(void)
{
	return floor_pte && pte_none(ptep_get(floor_pte));
}

/* Take the page of vmalloc space, and clear its pte: a none pte to start from. */
static int floor_setup(void)
{
	unsigned int level;

	floor_area = vmap(&lowmem_page, 1, VM_MAP, PAGE_KERNEL);
	if (!floor_area)
		return -ENOMEM;
	floor_addr = (unsigned long)floor_area;
	floor_pte = lookup_address(floor_addr, &level);
	if (!floor_pte || level != PG_LEVEL_4K) {
		floor_pte = NULL;
		return -EINVAL;
	}
	floor_orig = ptep_get(floor_pte);
	pte_clear(NULL, floor_addr, floor_pte);
	floor_flush(floor_addr);	/* never touched: nothing cached anywhere */
	return 0;
}

/* Give vunmap() back the pte vmap() wrote (a none pte, set whole). */
static void floor_teardown(void)
{
	if (floor_pte)
		set_pte(floor_pte, floor_orig);
	if (floor_area)
		vunmap(floor_area);
	floor_area = NULL;
	floor_pte = NULL;
}

static void floor_put(void)
{
	pte_clear(NULL, floor_addr, floor_pte);
	floor_flush(floor_addr);
}

/* Each pair in the context its slot is for. Return: false if not run. */
static bool run_in_context(enum pair p, unsigned int n, unsigned int count)
{
	unsigned long flags;
	bool ran = true;

	switch (p) {
	case TYPED_SOFTIRQ:
		local_bh_disable();
		run_pairs(p, n, count);
		local_bh_enable();
		break;
	case TYPED_IRQ:
		local_irq_save(flags);
		run_pairs(p, n, count);
		local_irq_restore(flags);
		break;
	case RAW_FLOOR:
	case RAW_FLOOR_CLEAR:
		local_irq_save(flags);
		ran = floor_get();
		if (ran) {
			run_pairs(p, n, count);
			floor_put();
		}
		local_irq_restore(flags);
		if (!ran)
			pr_err("%s: the bench's own page of vmalloc space is not set up: not measured\n",
			       pair_names[p]);
		break;
	default:
		run_pairs(p, n, count);
		break;
	}
	return ran;
}

static void measure(enum pair p, unsigned int n)
{
	unsigned long f0, f1;
	cycles_t t0, t1;

	if (!run_in_context(p, n, n < PAIRS ? n : PAIRS))	/* warm up */
		return;
	f0 = flushes();
	t0 = get_cycles();
	run_in_context(p, n, PAIRS);
	t1 = get_cycles();
	f1 = flushes();
	if (IS_ENABLED(CONFIG_DEBUG_TLBFLUSH))
		pr_info("KMAP-BENCH\t%s\t%u\t%u\t%llu.%02llu\t%lu.%02lu\n", pair_names[p], n,
			num_online_cpus(), (u64)(t1 - t0) / PAIRS,
			(u64)(t1 - t0) % PAIRS * 100 / PAIRS, (f1 - f0) / PAIRS,
			(f1 - f0) % PAIRS * 100 / PAIRS);
	else
		pr_info("KMAP-BENCH\t%s\t%u\t%u\t%llu.%02llu\t-\n", pair_names[p], n,
			num_online_cpus(), (u64)(t1 - t0) / PAIRS,
			(u64)(t1 - t0) % PAIRS * 100 / PAIRS);
}

/*
 * Scaling: writing N to /sys/kernel/debug/kmap_atomic_bench/scaling runs
 * the typed KM_USER0 pair and the kmap_local_page() pair on CPUs 0..N-1
 * at once, each CPU on two pages of its own, and prints the mean wall
 * clock nanoseconds per pair per CPU (for plain TCG, not -icount).
 */
#define SCALING_PAIRS	200000

struct scaling_cpu {
	struct work_struct work;
	enum pair pair;
	struct page *own[2];
	u64 ns;
};

static atomic_t scaling_ready;
static unsigned int scaling_cpus;
static struct scaling_cpu scaling[NR_CPUS];	/* indexed by CPU number */

static void scaling_work(struct work_struct *work)
{
	struct scaling_cpu *sc = container_of(work, struct scaling_cpu, work);
	unsigned int i;
	u64 t0;
	void *addr;

	/* Start together: wait for every CPU's worker to arrive. */
	atomic_inc(&scaling_ready);
	while (atomic_read(&scaling_ready) < scaling_cpus)
		cpu_relax();
	t0 = ktime_get_ns();
	for (i = 0; i < SCALING_PAIRS; i++) {
		if (sc->pair == TYPED_TASK) {
			addr = kmap_atomic(sc->own[i & 1], KM_USER0);
			touch(addr, i);
			kunmap_atomic(addr, KM_USER0);
		} else {
			addr = kmap_local_page(sc->own[i & 1]);
			touch(addr, i);
			kunmap_local(addr);
		}
	}
	sc->ns = ktime_get_ns() - t0;
}

static void scaling_run(enum pair p, unsigned int n)
{
	unsigned int cpu;
	u64 sum = 0, whole;
	u32 rem;

	atomic_set(&scaling_ready, 0);
	scaling_cpus = n;
	for (cpu = 0; cpu < n; cpu++) {
		scaling[cpu].pair = p;
		INIT_WORK(&scaling[cpu].work, scaling_work);
		schedule_work_on(cpu, &scaling[cpu].work);
	}
	for (cpu = 0; cpu < n; cpu++) {
		flush_work(&scaling[cpu].work);
		sum += scaling[cpu].ns;
	}
	sum = div_u64(sum, n);
	whole = div_u64_rem(sum, SCALING_PAIRS, &rem);
	pr_info("KMAP-BENCH\tscaling_%s\t2\t%u\t%llu.%02u\t-\n", pair_names[p], n,
		whole, rem * 100 / SCALING_PAIRS);
}

static ssize_t scaling_write(struct file *file, const char __user *buf, size_t len,
			     loff_t *ppos)
{
	unsigned int n;
	int ret = kstrtouint_from_user(buf, len, 0, &n);

	if (ret)
		return ret;
	if (!n || n > num_online_cpus()) {
		pr_err("scaling: %u CPUs asked for, %u online\n", n, num_online_cpus());
		return -EINVAL;
	}
	scaling_run(TYPED_TASK, n);
	scaling_run(LOCAL, n);
	return len;
}

static const struct file_operations scaling_fops = {
	.owner = THIS_MODULE,
	.write = scaling_write,
};

/*
 * /sys/kernel/debug/kmap_atomic_bench/cycles: the TSC now, for timing
 * what user space does (brd's I/O under -icount, in make bench).
 */
static int cycles_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%llu\n", (unsigned long long)get_cycles());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cycles);

static struct dentry *bench_dir;

static int scaling_init(void)
{
	unsigned int cpu, i;

	for_each_possible_cpu(cpu)
		for (i = 0; i < 2; i++)
			scaling[cpu].own[i] = pages[2 + 2 * cpu + i];
	bench_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("scaling", 0200, bench_dir, NULL, &scaling_fops);
	debugfs_create_file("cycles", 0444, bench_dir, NULL, &cycles_fops);
	return 0;
}

static void free_pages_all(void)
{
	unsigned int i;

	for (i = 0; pages && i < MAX_PAGES && pages[i]; i++)
		__free_page(pages[i]);
	kfree(pages);
	pages = NULL;
	floor_teardown();
	if (lowmem_page)
		__free_page(lowmem_page);
	lowmem_page = NULL;
}

static int __init kmap_atomic_bench_init(void)
{
	static const unsigned int sets[] = { 2, 512, MAX_PAGES };
	unsigned int i, s;
	enum pair p;
	int ret = -ENOMEM;

	pages = kcalloc(MAX_PAGES, sizeof(*pages), GFP_KERNEL);
	lowmem_page = alloc_page(GFP_KERNEL);
	if (!pages || !lowmem_page)
		goto out;
	for (i = 0; i < MAX_PAGES; i++) {
		pages[i] = alloc_page(GFP_HIGHUSER);
		if (!pages[i])
			goto out;
		if (!PageHighMem(pages[i])) {
			pr_err("page %u is not highmem: boot with more memory (MEM=6G)\n", i);
			ret = -EINVAL;
			goto out;
		}
	}
	ret = floor_setup();
	if (ret)
		goto out;
	for (s = 0; s < ARRAY_SIZE(sets); s++)
		for (p = 0; p < PAIR_NR; p++)
			measure(p, sets[s]);
	return scaling_init();
out:
	free_pages_all();
	return ret;
}

static void __exit kmap_atomic_bench_exit(void)
{
	debugfs_remove_recursive(bench_dir);
	free_pages_all();
}

module_init(kmap_atomic_bench_init);
module_exit(kmap_atomic_bench_exit);
MODULE_DESCRIPTION("Benchmark of typed atomic kmaps against kmap_local_page() and kmap()");
MODULE_LICENSE("GPL");
