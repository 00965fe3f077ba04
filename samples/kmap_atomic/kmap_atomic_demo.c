// SPDX-License-Identifier: GPL-2.0
/*
 * A driver-style user of the typed atomic kmaps, written from the 2.6
 * porting guide: KM_USER0 and KM_USER1 in process context (module load is
 * a system call), KM_IRQ0 in a hard interrupt handler, KM_SOFTIRQ0 in a
 * tasklet, and kmap_atomic_to_page(). Loading fails with -EIO, and says
 * why, if any step sees the wrong data.
 *
 *   make modules M=samples/kmap_atomic
 *   make run MODULES=samples/kmap_atomic/kmap_atomic_demo.ko
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/module.h>

struct demo {
	struct page *src, *dst;
	u32 want;			/* checksum of the source page */
	u32 irq_sum, softirq_sum;
	struct irq_work irq;
	struct tasklet_struct tasklet;
	struct completion irq_done, softirq_done;
};

static u32 page_sum(const u32 *p)
{
	u32 sum = 0;
	unsigned int i;

	for (i = 0; i < PAGE_SIZE / sizeof(*p); i++)
		sum = (sum ^ p[i]) * 16777619u;
	return sum;
}

/* Hard interrupt context: KM_IRQ0, with local interrupts off. */
static void demo_irq(struct irq_work *work)
{
	struct demo *d = container_of(work, struct demo, irq);
	unsigned long flags;
	void *addr;

	local_irq_save(flags);
	addr = kmap_atomic(d->src, KM_IRQ0);
	d->irq_sum = page_sum(addr);
	kunmap_atomic(addr, KM_IRQ0);
	local_irq_restore(flags);
	complete(&d->irq_done);
}

/* Softirq context: KM_SOFTIRQ0. */
static void demo_tasklet(struct tasklet_struct *t)
{
	struct demo *d = from_tasklet(d, t, tasklet);
	void *addr;

	addr = kmap_atomic(d->dst, KM_SOFTIRQ0);
	d->softirq_sum = page_sum(addr);
	kunmap_atomic(addr, KM_SOFTIRQ0);
	complete(&d->softirq_done);
}

/*
 * Process context: fill the source and copy it with both user slots. Not
 * inlined into the __init function, whose text is freed after the load:
 * a trace read later still names the caller of these maps.
 */
static noinline int demo_copy(struct demo *d)
{
	struct page *src_page, *dst_page;
	u32 *src, *dst;
	unsigned int i;

	src = kmap_atomic(d->src, KM_USER0);
	for (i = 0; i < PAGE_SIZE / sizeof(*src); i++)
		src[i] = i * 2654435761u;
	d->want = page_sum(src);

	dst = kmap_atomic(d->dst, KM_USER1);
	memcpy(dst, src, PAGE_SIZE);
	src_page = kmap_atomic_to_page(src);
	dst_page = kmap_atomic_to_page(dst + 17);
	kunmap_atomic(dst, KM_USER1);
	kunmap_atomic(src, KM_USER0);

	if (src_page != d->src || dst_page != d->dst) {
		pr_err("kmap_atomic_to_page() gave the wrong page\n");
		return -EIO;
	}
	return 0;
}

static int __init kmap_atomic_demo_init(void)
{
	struct demo *d;
	int ret = -ENOMEM;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->src = alloc_page(GFP_HIGHUSER);
	d->dst = alloc_page(GFP_HIGHUSER);
	if (!d->src || !d->dst)
		goto out;

	ret = demo_copy(d);
	if (ret)
		goto out;

	init_completion(&d->irq_done);
	init_completion(&d->softirq_done);
	/* HARD: a hard interrupt on PREEMPT_RT too, where KM_IRQ0 belongs. */
	d->irq = IRQ_WORK_INIT_HARD(demo_irq);
	tasklet_setup(&d->tasklet, demo_tasklet);
	irq_work_queue(&d->irq);
	tasklet_schedule(&d->tasklet);
	wait_for_completion(&d->irq_done);
	wait_for_completion(&d->softirq_done);
	irq_work_sync(&d->irq);
	tasklet_kill(&d->tasklet);

	if (d->irq_sum != d->want || d->softirq_sum != d->want) {
		pr_err("wrong data: checksum %08x in process context, %08x in the interrupt, %08x in the tasklet\n",
		       d->want, d->irq_sum, d->softirq_sum);
		ret = -EIO;
		goto out;
	}
	pr_info("%s pfn %lx copied to %s pfn %lx with KM_USER0/KM_USER1, read back in KM_IRQ0 and KM_SOFTIRQ0: ok\n",
		PageHighMem(d->src) ? "highmem" : "lowmem", page_to_pfn(d->src),
		PageHighMem(d->dst) ? "highmem" : "lowmem", page_to_pfn(d->dst));
out:
	if (d->src)
		__free_page(d->src);
	if (d->dst)
		__free_page(d->dst);
	kfree(d);
	return ret;
}

static void __exit kmap_atomic_demo_exit(void)
{
}

module_init(kmap_atomic_demo_init);
module_exit(kmap_atomic_demo_exit);
MODULE_DESCRIPTION("Typed atomic kmaps from a driver: KM_USER, KM_IRQ and KM_SOFTIRQ slots");
MODULE_LICENSE("GPL");
