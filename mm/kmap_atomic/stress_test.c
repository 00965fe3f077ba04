// SPDX-License-Identifier: GPL-2.0
/*
 * An all-contexts stress test of the atomic kmaps: for a given time, on
 * every online CPU at once, two preempting kernel threads, a timer and a
 * tasklet (softirq), an hrtimer and an irq_work (hard interrupt) each map
 * pages of their own, write a pattern that encodes the page, the writer
 * and a sequence number, read it back through the same mapping and then
 * through another kind of mapping. Typed slots of the writer's context,
 * the one-argument kmap_atomic() and kmap_local_page() take turns, on
 * lowmem, highmem and (with PAE) above-4 GiB pages. Any word that is not
 * what its writer wrote is a mismatch: two users met in one slot.
 *
 *   echo 20 > /sys/kernel/debug/kmap_atomic_stress/run   (seconds, 1..3600)
 *   cat /sys/kernel/debug/kmap_atomic_stress/result
 *
 * The write returns when the run is over; the result gives operations by
 * context, mapping and page kind, mismatches and the misuse reports of
 * the typed kmaps (the release checks, and with CONFIG_DEBUG_KMAP_ATOMIC
 * the debug checks) made during the run. Both must be 0. Built in or as
 * a module, on the release kernel as on the debug one.
 */
#define pr_fmt(fmt) "kmap_atomic_stress: " fmt

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/kstrtox.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timer.h>

#include "test_pages.h"

#define MAX_SECONDS	3600
#define WORDS		16	/* pattern words, spread over the page */
#define STRIDE		(PAGE_SIZE / sizeof(u32) / WORDS)
#define HRTIMER_PERIOD_NS	(500 * NSEC_PER_USEC)	/* each CPU's hard interrupt writer */

enum writer_kind { W_TASK0, W_TASK1, W_TIMER, W_TASKLET, W_HRTIMER, W_IRQ_WORK, W_NR };
enum stress_ctx { CTX_TASK, CTX_SOFTIRQ, CTX_HARDIRQ, CTX_NR };
enum mech { M_TYPED, M_UNTYPED, M_LOCAL, M_NR };

static const char * const ctx_names[CTX_NR] = { "task", "softirq", "hardirq" };
static const char * const mech_names[M_NR] = { "typed", "untyped", "local" };
static const enum stress_ctx ctx_of[W_NR] = {
	[W_TASK0] = CTX_TASK, [W_TASK1] = CTX_TASK,
	[W_TIMER] = CTX_SOFTIRQ, [W_TASKLET] = CTX_SOFTIRQ,
	[W_HRTIMER] = CTX_HARDIRQ, [W_IRQ_WORK] = CTX_HARDIRQ,
};

/* Each context's two slots: one to write through, one to verify through. */
static const enum km_type slots[CTX_NR][2] = {
	[CTX_TASK] = { KM_USER0, KM_USER1 },
	[CTX_SOFTIRQ] = { KM_SOFTIRQ0, KM_SOFTIRQ1 },
	[CTX_HARDIRQ] = { KM_IRQ0, KM_IRQ1 },
};

/* One writer: only it touches its pages and its counts. */
struct writer {
	struct page *pages[PAGE_KIND_NR];
	enum page_kind kinds[PAGE_KIND_NR];
	u32 id;
	u32 seq;
	unsigned long ops[M_NR][PAGE_KIND_NR];
	unsigned long mismatches;
	unsigned long wrong_context;	/* ran elsewhere than its context */
};

struct cpu_stress {
	struct writer w[W_NR];
	struct task_struct *threads[2];
	struct timer_list timer;
	struct tasklet_struct tasklet;
	struct hrtimer hrtimer;
	struct irq_work irq_work;
};

static struct cpu_stress *stress;	/* indexed by CPU number */
static bool stopping;
static DEFINE_MUTEX(stress_lock);	/* one run at a time */
static char result[1024];
static struct dentry *dir;

static u32 pattern(u32 id, u32 seq, unsigned int i)
{
	return (id << 20) ^ (seq * 2654435761u) ^ (i << 12) ^ 0x5a5a0000u;
}

static void *map(enum mech m, struct page *page, enum km_type type)
{
	switch (m) {
	case M_TYPED:
		return kmap_atomic(page, type);
	case M_UNTYPED:
		return kmap_atomic(page);
	default:
		return kmap_local_page(page);
	}
}

static void unmap(enum mech m, void *addr, enum km_type type)
{
	switch (m) {
	case M_TYPED:
		kunmap_atomic(addr, type);
		break;
	case M_UNTYPED:
		kunmap_atomic(addr);
		break;
	default:
		kunmap_local(addr);
		break;
	}
}

static unsigned int check(struct writer *w, const u32 *a, u32 seq, const char *how,
			  struct page *page, enum page_kind k)
{
	unsigned int i, bad = 0;

	for (i = 0; i < WORDS; i++) {
		u32 want = pattern(w->id, seq, i);
		u32 got = READ_ONCE(a[i * STRIDE]);

		if (got == want)
			continue;
		if (!bad && w->mismatches < 10)
			pr_err("writer %#x (%s page, pfn %#lx): word %u read %s is %#x, not %#x\n",
			       w->id, page_kind_names[k], page_to_pfn(page), i, how, got, want);
		bad++;
	}
	return bad;
}

/* The context the caller runs in, as the typed slot rules name it. */
static enum stress_ctx ctx_now(void)
{
	if (in_hardirq())
		return CTX_HARDIRQ;
	if (in_serving_softirq())
		return CTX_SOFTIRQ;
	return CTX_TASK;
}

/*
 * One operation: map a page with one kind of mapping, write the pattern,
 * read it back through that mapping, unmap; then map it with another kind
 * (or the context's other slot) and read it again.
 */
static void stress_op(struct writer *w, enum stress_ctx ctx)
{
	u32 seq = ++w->seq;
	enum page_kind k = seq % PAGE_KIND_NR;
	enum mech m = (seq / PAGE_KIND_NR) % M_NR;
	enum mech verify = m == M_TYPED ? M_LOCAL : M_TYPED;
	struct page *page = w->pages[k];
	unsigned int i, bad;
	u32 *a;

	a = map(m, page, slots[ctx][0]);
	for (i = 0; i < WORDS; i++)
		WRITE_ONCE(a[i * STRIDE], pattern(w->id, seq, i));
	bad = check(w, a, seq, "through the same mapping", page, w->kinds[k]);
	unmap(m, a, slots[ctx][0]);

	a = map(verify, page, slots[ctx][1]);
	bad += check(w, a, seq, "through a second mapping", page, w->kinds[k]);
	unmap(verify, a, slots[ctx][1]);

	w->ops[m][w->kinds[k]]++;
	if (bad)
		w->mismatches++;
	/* PREEMPT_RT threads what it can: each writer must be where it says. */
	if (ctx_now() != ctx)
		w->wrong_context++;
}

static void stress_burst(struct writer *w, enum stress_ctx ctx, unsigned int n)
{
	while (n--)
		stress_op(w, ctx);
}

static int stress_thread(void *arg)
{
	struct writer *w = arg;
	struct cpu_stress *cs = &stress[raw_smp_processor_id()];
	unsigned long n = 0;

	while (!kthread_should_stop()) {
		stress_op(w, CTX_TASK);
		/* The CPU's hard interrupt writer, raised from here. */
		if (!(++n % 64) && !READ_ONCE(stopping))
			irq_work_queue(&cs->irq_work);
		/* The two threads of a CPU preempt each other; also sleep. */
		if (!(n % 4096))
			usleep_range(50, 100);
		cond_resched();
	}
	return 0;
}

static void stress_timer_fn(struct timer_list *t)
{
	struct cpu_stress *cs = from_timer(cs, t, timer);

	stress_burst(&cs->w[W_TIMER], CTX_SOFTIRQ, 8);
	if (!READ_ONCE(stopping))
		mod_timer(&cs->timer, jiffies + 1);
}

static void stress_tasklet_fn(struct tasklet_struct *t)
{
	struct cpu_stress *cs = from_tasklet(cs, t, tasklet);

	stress_burst(&cs->w[W_TASKLET], CTX_SOFTIRQ, 4);
}

static enum hrtimer_restart stress_hrtimer_fn(struct hrtimer *t)
{
	struct cpu_stress *cs = container_of(t, struct cpu_stress, hrtimer);

	stress_burst(&cs->w[W_HRTIMER], CTX_HARDIRQ, 4);
	if (READ_ONCE(stopping))
		return HRTIMER_NORESTART;
	tasklet_schedule(&cs->tasklet);
	hrtimer_forward_now(t, ns_to_ktime(HRTIMER_PERIOD_NS));
	return HRTIMER_RESTART;
}

static void stress_irq_work_fn(struct irq_work *work)
{
	struct cpu_stress *cs = container_of(work, struct cpu_stress, irq_work);

	stress_burst(&cs->w[W_IRQ_WORK], CTX_HARDIRQ, 2);
}

/* Each kind's chunks, and its pages, index i for the i-th writer. */
static struct list_head chunks[PAGE_KIND_NR];
static struct page **pool[PAGE_KIND_NR];
static unsigned int pool_got[PAGE_KIND_NR];

static void stress_pages_put(void)
{
	enum page_kind k;

	kmap_test_chunks_put(chunks);
	for (k = 0; k < PAGE_KIND_NR; k++) {
		kfree(pool[k]);
		pool[k] = NULL;
		pool_got[k] = 0;
	}
}

/*
 * Give every writer a page of each kind. A writer that finds no page of a
 * kind (the machine has none, or too few) uses its own page of the next
 * lower kind instead: no page is ever shared between writers.
 */
static int stress_pages_get(unsigned int nr_writers)
{
	unsigned int nr_chunks[PAGE_KIND_NR];
	unsigned int i = 0, j, cpu, wk;
	struct page *page;
	enum page_kind k;
	int ret;

	ret = kmap_test_chunks_get(chunks, nr_chunks,
				   DIV_ROUND_UP(nr_writers, KMAP_TEST_CHUNK_PAGES));
	if (ret)
		return ret;
	for (k = 0; k < PAGE_KIND_NR; k++) {
		pool[k] = kcalloc(nr_writers, sizeof(*pool[k]), GFP_KERNEL);
		if (!pool[k])
			return -ENOMEM;
		list_for_each_entry(page, &chunks[k], lru)
			for (j = 0; j < KMAP_TEST_CHUNK_PAGES && pool_got[k] < nr_writers; j++)
				pool[k][pool_got[k]++] = page + j;
	}

	for_each_online_cpu(cpu) {
		for (wk = 0; wk < W_NR; wk++, i++) {
			struct writer *w = &stress[cpu].w[wk];

			for (k = 0; k < PAGE_KIND_NR; k++) {
				enum page_kind use = k;

				while (use > LOWMEM && i >= pool_got[use])
					use--;
				w->pages[k] = pool[use][i];
				w->kinds[k] = use;
			}
		}
	}
	return 0;
}

/* Misuse reports of the typed kmaps, release checks and debug checks. */
static unsigned long misuse_reports(void)
{
	return kmap_atomic_reports();
}

static void stress_start_on_cpu(void *arg)
{
	struct cpu_stress *cs = arg;

	hrtimer_start(&cs->hrtimer, ns_to_ktime(HRTIMER_PERIOD_NS), HRTIMER_MODE_REL_PINNED_HARD);
}

static int stress_run(unsigned int seconds)
{
	unsigned long ops[CTX_NR] = { 0 }, by_mech[M_NR] = { 0 }, by_kind[PAGE_KIND_NR] = { 0 };
	unsigned long total = 0, mismatches = 0, wrong_context = 0, reports;
	unsigned int cpu, wk, t, nr = 0, id = 0;
	enum mech m;
	enum page_kind k;
	int ret;

	cpus_read_lock();
	stress = kcalloc(nr_cpu_ids, sizeof(*stress), GFP_KERNEL);
	if (!stress) {
		cpus_read_unlock();
		return -ENOMEM;
	}
	ret = stress_pages_get(num_online_cpus() * W_NR);
	if (ret)
		goto out;

	WRITE_ONCE(stopping, false);
	reports = misuse_reports();
	for_each_online_cpu(cpu) {
		struct cpu_stress *cs = &stress[cpu];

		for (wk = 0; wk < W_NR; wk++)
			cs->w[wk].id = ++id;
		timer_setup(&cs->timer, stress_timer_fn, TIMER_PINNED);
		tasklet_setup(&cs->tasklet, stress_tasklet_fn);
		hrtimer_init(&cs->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		cs->hrtimer.function = stress_hrtimer_fn;
		/* HARD: PREEMPT_RT runs other irq_work in a thread. */
		cs->irq_work = IRQ_WORK_INIT_HARD(stress_irq_work_fn);
		for (t = 0; t < 2; t++) {
			cs->threads[t] = kthread_create_on_cpu(stress_thread, &cs->w[W_TASK0 + t],
							       cpu, "kmap_stress/%u");
			if (IS_ERR(cs->threads[t])) {
				ret = PTR_ERR(cs->threads[t]);
				cs->threads[t] = NULL;
			}
		}
	}
	if (ret)
		goto stop;
	for_each_online_cpu(cpu) {
		struct cpu_stress *cs = &stress[cpu];

		add_timer_on(&cs->timer, cpu);
		smp_call_function_single(cpu, stress_start_on_cpu, cs, true);
		for (t = 0; t < 2; t++)
			wake_up_process(cs->threads[t]);
	}
	msleep_interruptible(seconds * MSEC_PER_SEC);

stop:
	WRITE_ONCE(stopping, true);
	for_each_online_cpu(cpu) {
		struct cpu_stress *cs = &stress[cpu];

		for (t = 0; t < 2; t++)
			if (cs->threads[t])
				kthread_stop(cs->threads[t]);
		if (cs->timer.function) {
			hrtimer_cancel(&cs->hrtimer);
			del_timer_sync(&cs->timer);
			irq_work_sync(&cs->irq_work);
			tasklet_kill(&cs->tasklet);
		}
	}
	if (ret)
		goto out;
	reports = misuse_reports() - reports;

	for_each_online_cpu(cpu) {
		nr++;
		for (wk = 0; wk < W_NR; wk++) {
			struct writer *w = &stress[cpu].w[wk];

			mismatches += w->mismatches;
			wrong_context += w->wrong_context;
			for (m = 0; m < M_NR; m++) {
				for (k = 0; k < PAGE_KIND_NR; k++) {
					ops[ctx_of[wk]] += w->ops[m][k];
					by_mech[m] += w->ops[m][k];
					by_kind[k] += w->ops[m][k];
					total += w->ops[m][k];
				}
			}
		}
	}
	scnprintf(result, sizeof(result),
		  "seconds %u\ncpus %u\noperations %lu\n%s %lu\n%s %lu\n%s %lu\n%s %lu\n%s %lu\n%s %lu\n%s %lu\n%s %lu\n%s %lu\nmismatches %lu\nmisuse_reports %lu\nwrong_context %lu\n",
		  seconds, nr, total,
		  ctx_names[CTX_TASK], ops[CTX_TASK], ctx_names[CTX_SOFTIRQ], ops[CTX_SOFTIRQ],
		  ctx_names[CTX_HARDIRQ], ops[CTX_HARDIRQ],
		  mech_names[M_TYPED], by_mech[M_TYPED], mech_names[M_UNTYPED], by_mech[M_UNTYPED],
		  mech_names[M_LOCAL], by_mech[M_LOCAL],
		  page_kind_names[LOWMEM], by_kind[LOWMEM],
		  page_kind_names[HIGHMEM_BELOW_4G], by_kind[HIGHMEM_BELOW_4G],
		  page_kind_names[HIGHMEM_ABOVE_4G], by_kind[HIGHMEM_ABOVE_4G],
		  mismatches, reports, wrong_context);
	pr_info("%lu operations in %u s on %u CPUs (task %lu, softirq %lu, hardirq %lu), %lu mismatches, %lu misuse reports\n",
		total, seconds, nr, ops[CTX_TASK], ops[CTX_SOFTIRQ], ops[CTX_HARDIRQ],
		mismatches, reports);
out:
	stress_pages_put();
	kfree(stress);
	stress = NULL;
	cpus_read_unlock();
	return ret;
}

static ssize_t run_write(struct file *file, const char __user *buf, size_t len, loff_t *ppos)
{
	unsigned int seconds;
	int ret;

	ret = kstrtouint_from_user(buf, len, 10, &seconds);
	if (ret)
		return ret;
	if (seconds < 1 || seconds > MAX_SECONDS) {
		pr_warn("run: %u seconds: write a duration of 1 to %u seconds\n",
			seconds, MAX_SECONDS);
		return -EINVAL;
	}
	if (!mutex_trylock(&stress_lock))
		return -EBUSY;
	ret = stress_run(seconds);
	mutex_unlock(&stress_lock);
	return ret ? ret : len;
}

static const struct file_operations run_fops = {
	.write = run_write,
	.llseek = noop_llseek,
};

static int result_show(struct seq_file *m, void *v)
{
	mutex_lock(&stress_lock);
	seq_puts(m, result[0] ? result : "no run yet: write a number of seconds to run\n");
	mutex_unlock(&stress_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(result);

static int __init kmap_atomic_stress_init(void)
{
	dir = debugfs_create_dir("kmap_atomic_stress", NULL);
	debugfs_create_file("run", 0200, dir, NULL, &run_fops);
	debugfs_create_file("result", 0444, dir, NULL, &result_fops);
	return 0;
}
module_init(kmap_atomic_stress_init);

static void __exit kmap_atomic_stress_exit(void)
{
	debugfs_remove_recursive(dir);
}
module_exit(kmap_atomic_stress_exit);

MODULE_DESCRIPTION("All-contexts stress test of atomic kmaps");
MODULE_LICENSE("GPL");
