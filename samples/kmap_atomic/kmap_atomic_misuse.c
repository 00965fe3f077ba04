// SPDX-License-Identifier: GPL-2.0
/*
 * Misuses of the typed atomic kmaps, one per file in
 * /sys/kernel/debug/kmap_atomic_misuse/, for seeing what
 * CONFIG_DEBUG_KMAP_ATOMIC reports. Writing to a file commits its misuse
 * from that write() system call (or from an interrupt it raises); the write
 * fails with EIO if a legitimate mapping lost its data.
 *
 *   make modules M=samples/kmap_atomic
 *   make run MODULES=samples/kmap_atomic/kmap_atomic_misuse.ko \
 *	RUN='echo 1 > /sys/kernel/debug/kmap_atomic_misuse/collision; dmesg | tail'
 *
 * Without CONFIG_DEBUG_KMAP_ATOMIC these would corrupt mappings for real,
 * so the module then refuses to load.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/kmap_atomic_debug.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

static struct page *pages[2];
static struct dentry *dir;

#define SEED(i) (0x5eed0000u + (i))

static bool page_holds(const u32 *p, u32 seed)
{
	unsigned int i;

	for (i = 0; i < PAGE_SIZE / sizeof(*p); i++)
		if (p[i] != seed)
			return false;
	return true;
}

static void fill_pages(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pages); i++) {
		u32 *p = kmap_local_page(pages[i]);

		memset32(p, SEED(i), PAGE_SIZE / sizeof(*p));
		kunmap_local(p);
	}
}

/* Run @fn in a hard interrupt on this CPU and wait for it. */
struct in_irq {
	struct irq_work work;
	void (*fn)(void *arg);
	void *arg;
	bool done;
};

static void in_irq_fn(struct irq_work *work)
{
	struct in_irq *r = container_of(work, struct in_irq, work);

	r->fn(r->arg);
	WRITE_ONCE(r->done, true);
}

static void run_in_hardirq(void (*fn)(void *arg), void *arg)
{
	struct in_irq r = { .fn = fn, .arg = arg };

	init_irq_work(&r.work, in_irq_fn);
	preempt_disable();
	irq_work_queue(&r.work);
	/*
	 * Once this CPU sees done, the interrupt has returned, irq_work's own
	 * bookkeeping included: no irq_work_sync(), which may sleep.
	 */
	while (!READ_ONCE(r.done))
		cpu_relax();
	preempt_enable();
}

static noinline int misuse_collision(void)
{
	u32 *holder, *intruder;
	bool ok;

	holder = kmap_atomic(pages[0], KM_USER0);
	intruder = kmap_atomic(pages[1], KM_USER0);	/* the same slot */
	ok = page_holds(intruder, SEED(1)) && page_holds(holder, SEED(0));
	kunmap_atomic(intruder, KM_USER0);
	ok &= page_holds(holder, SEED(0));
	kunmap_atomic(holder, KM_USER0);
	return ok ? 0 : -EIO;
}

static noinline int misuse_wrong_context(void)
{
	u32 *p = kmap_atomic(pages[0], KM_IRQ0);	/* interrupts are on */
	bool ok = page_holds(p, SEED(0));

	kunmap_atomic(p, KM_IRQ0);
	return ok ? 0 : -EIO;
}

static noinline int misuse_wrong_unmap(void)
{
	void *not_the_mapping = kmalloc(64, GFP_KERNEL);
	u32 *p, word;
	bool ok;

	if (!not_the_mapping)
		return -ENOMEM;
	p = kmap_atomic(pages[0], KM_USER0);
	ok = page_holds(p, SEED(0));
	/*
	 * Like passing the bio: it stands for the map, which is released,
	 * its counts given back, as a 2.6 driver that never unmaps again
	 * needs; reported.
	 */
	kunmap_atomic(not_the_mapping, KM_USER0);
	ok &= preemptible() && copy_from_kernel_nofault(&word, p, sizeof(word)) == -EFAULT;
	kfree(not_the_mapping);
	return ok ? 0 : -EIO;
}

static noinline int misuse_double_unmap(void)
{
	u32 *p = kmap_atomic(pages[0], KM_USER1);

	kunmap_atomic(p, KM_USER1);
	kunmap_atomic(p, KM_USER1);
	return preemptible() ? 0 : -EIO;
}

struct held {
	u32 *addr;
};

static noinline void misuse_unmap_in_irq(void *arg)
{
	struct held *h = arg;

	kunmap_atomic(h->addr, KM_SOFTIRQ0);	/* the task's mapping */
}

static noinline int misuse_other_context(void)
{
	struct held h;
	bool ok;

	local_bh_disable();
	h.addr = kmap_atomic(pages[0], KM_SOFTIRQ0);
	run_in_hardirq(misuse_unmap_in_irq, &h);
	ok = page_holds(h.addr, SEED(0));
	kunmap_atomic(h.addr, KM_SOFTIRQ0);
	local_bh_enable();
	return ok ? 0 : -EIO;
}

static unsigned int no_such_slot = KM_TYPE_NR + 1;

static noinline int misuse_invalid_type(void)
{
	enum km_type type = READ_ONCE(no_such_slot);
	u32 *p = kmap_atomic(pages[0], type);
	bool ok = page_holds(p, SEED(0));

	kunmap_atomic(p, type);
	return ok ? 0 : -EIO;
}

/* Returns to user space holding KM_USER0: reclaimed on the way out. */
static noinline int misuse_leak_to_user(void)
{
	u32 *p = kmap_atomic(pages[0], KM_USER0);

	return page_holds(p, SEED(0)) ? 0 : -EIO;
}

static noinline void misuse_leak_in_irq(void *arg)
{
	(void)kmap_atomic(pages[1], KM_IRQ1);
}

static noinline int misuse_leak_irq(void)
{
	run_in_hardirq(misuse_leak_in_irq, NULL);
	return preemptible() ? 0 : -EIO;
}

static DECLARE_COMPLETION(tasklet_done);

static noinline void misuse_leak_in_tasklet(struct tasklet_struct *t)
{
	(void)kmap_atomic(pages[1], KM_SOFTIRQ1);
	complete(&tasklet_done);
}

static DECLARE_TASKLET(leaky_tasklet, misuse_leak_in_tasklet);

static noinline int misuse_leak_softirq(void)
{
	unsigned long leaks = kmap_atomic_debug_reports(KMAP_REPORT_LEAK);
	unsigned int ms;

	reinit_completion(&tasklet_done);
	tasklet_schedule(&leaky_tasklet);
	wait_for_completion(&tasklet_done);
	tasklet_kill(&leaky_tasklet);
	/*
	 * The leak is found as the softirq handler returns, which may be in
	 * ksoftirqd after this task woke on another CPU: wait for its report
	 * (counted once printed), so that it lands before the write returns.
	 */
	for (ms = 0; ms < 1000 && kmap_atomic_debug_reports(KMAP_REPORT_LEAK) == leaks; ms++)
		usleep_range(1000, 2000);
	return 0;
}

static DEFINE_MUTEX(misuse_mutex);

/*
 * Takes a mutex holding KM_USER0: it is uncontended, so nothing sleeps, but
 * a contended one would, with preemption off. CONFIG_DEBUG_ATOMIC_SLEEP's
 * might_sleep() in mutex_lock() reports it every time.
 */
static noinline int misuse_sleep_while_mapped(void)
{
	u32 *p = kmap_atomic(pages[0], KM_USER0);
	bool ok;

	mutex_lock(&misuse_mutex);
	ok = page_holds(p, SEED(0));
	mutex_unlock(&misuse_mutex);
	kunmap_atomic(p, KM_USER0);
	return ok ? 0 : -EIO;
}

/*
 * The stale pointer must fault, not read another page; the fault is
 * described ("kmap_atomic: fault at ... was unmapped by ...") and fixed up.
 * A lowmem page (a machine without highmem) takes no slot: nothing to try.
 */
static noinline int misuse_use_after_unmap(void)
{
	u32 *p;
	u32 x;

	if (!PageHighMem(pages[0]))
		return -EOPNOTSUPP;
	p = kmap_atomic(pages[0], KM_USER1);

	kunmap_atomic(p, KM_USER1);
	return copy_from_kernel_nofault(&x, p, sizeof(x)) == -EFAULT ? 0 : -EIO;
}

/*
 * A kernel thread that reads one byte past the page it holds in KM_USER0:
 * the guard page above the slot faults, the fault is described, and the
 * oops lists the slot as held and reclaims it as the thread dies. The
 * harness runs this last: an oops turns lockdep off for the boot.
 */
static int oops_holding_thread(void *arg)
{
	char *p = kmap_atomic(pages[0], KM_USER0);

	pr_info("reading one byte past KM_USER0's page: this oopses on purpose\n");
	return READ_ONCE(p[PAGE_SIZE]);
}

static noinline int misuse_oops_holding(void)
{
	struct task_struct *t;

	if (!PageHighMem(pages[0]))
		return -EOPNOTSUPP;
	t = kthread_run(oops_holding_thread, NULL, "kmap_oops_holding");
	return PTR_ERR_OR_ZERO(t);
}

static const struct misuse {
	const char *name;
	int (*fn)(void);
} misuses[] = {
	{ "collision", misuse_collision },
	{ "wrong_context", misuse_wrong_context },
	{ "wrong_unmap", misuse_wrong_unmap },
	{ "double_unmap", misuse_double_unmap },
	{ "other_context", misuse_other_context },
	{ "invalid_type", misuse_invalid_type },
	{ "leak_to_user", misuse_leak_to_user },
	{ "leak_irq", misuse_leak_irq },
	{ "leak_softirq", misuse_leak_softirq },
	{ "sleep_while_mapped", misuse_sleep_while_mapped },
	{ "use_after_unmap", misuse_use_after_unmap },
	{ "oops_holding", misuse_oops_holding },
};

static ssize_t misuse_write(struct file *file, const char __user *buf, size_t len, loff_t *ppos)
{
	const struct misuse *m = file->private_data;
	int ret;

	fill_pages();
	ret = m->fn();
	if (ret == -EIO)
		pr_err("%s: a legitimate mapping lost its data\n", m->name);
	return ret ? ret : len;
}

static const struct file_operations misuse_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = misuse_write,
};

static int __init kmap_atomic_misuse_init(void)
{
	unsigned int i;

	if (!IS_ENABLED(CONFIG_DEBUG_KMAP_ATOMIC)) {
		pr_err("needs CONFIG_DEBUG_KMAP_ATOMIC: without it these misuses corrupt mappings\n");
		return -EOPNOTSUPP;
	}
	for (i = 0; i < ARRAY_SIZE(pages); i++) {
		pages[i] = alloc_page(GFP_HIGHUSER);
		if (!pages[i])
			goto nomem;
	}
	dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	for (i = 0; i < ARRAY_SIZE(misuses); i++)
		debugfs_create_file(misuses[i].name, 0200, dir, (void *)&misuses[i], &misuse_fops);
	return 0;
nomem:
	while (i--)
		__free_page(pages[i]);
	return -ENOMEM;
}

static void __exit kmap_atomic_misuse_exit(void)
{
	unsigned int i;

	debugfs_remove_recursive(dir);
	for (i = 0; i < ARRAY_SIZE(pages); i++)
		__free_page(pages[i]);
}

module_init(kmap_atomic_misuse_init);
module_exit(kmap_atomic_misuse_exit);
MODULE_DESCRIPTION("Typed atomic kmap misuses, for CONFIG_DEBUG_KMAP_ATOMIC");
MODULE_LICENSE("GPL");
