// SPDX-License-Identifier: GPL-2.0
// Must catch: calls that sleep between a typed map and its unmap.
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/mutex.h>
#include <linux/semaphore.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>

struct dev {
	struct page *page;
	struct mutex lock;	/* serialises the copies */
	struct semaphore sem;
	wait_queue_head_t wq;
	bool ready;
	void *copy;
};

int dev_read(struct dev *d, void __user *ubuf, size_t len)
{
	char *p = kmap_atomic(d->page, KM_USER0);
	int ret = 0;

	mutex_lock(&d->lock);	// EXPECT: sleep
	if (copy_to_user(ubuf, p, len))	// EXPECT: sleep
		ret = -EFAULT;
	mutex_unlock(&d->lock);
	kunmap_atomic(p, KM_USER0);
	return ret;
}

void dev_snapshot(struct dev *d)
{
	char *p;

	p = kmap_atomic(d->page, KM_USER1);
	d->copy = kmalloc(PAGE_SIZE, GFP_KERNEL);	// EXPECT: sleep
	if (!d->copy)
		d->copy = vmalloc(PAGE_SIZE);	// EXPECT: sleep
	if (d->copy)
		memcpy(d->copy, p, PAGE_SIZE);
	might_sleep();	// EXPECT: sleep
	kunmap_atomic(p, KM_USER1);
}

void dev_wait(struct dev *d)
{
	u32 *p = kmap_atomic(d->page, KM_USER0);

	while (!p[0])
		msleep(20);	// EXPECT: sleep
	wait_event(d->wq, d->ready);	// EXPECT: sleep
	down(&d->sem);	// EXPECT: sleep
	schedule();	// EXPECT: sleep
	kunmap_atomic(p, KM_USER0);
}

void dev_grow(struct dev *d, struct page **extra)
{
	char *p = kmap_atomic(d->page, KM_USER0);

	d->copy = kzalloc(PAGE_SIZE, GFP_KERNEL | __GFP_NOWARN);	// EXPECT: sleep
	*extra = alloc_page(GFP_HIGHUSER_MOVABLE);	// EXPECT: sleep
	wait_event_interruptible(d->wq, d->ready);	// EXPECT: sleep
	cond_resched();	// EXPECT: sleep
	kunmap_atomic(p, KM_USER0);
}

/* A sleeping mask with a choice among modifiers; a choice of two that sleep. */
void dev_fill(struct dev *d, bool zero)
{
	char *p = kmap_atomic(d->page, KM_USER0);

	d->copy = kmalloc(64, GFP_KERNEL | (zero ? __GFP_ZERO : 0));	// EXPECT: sleep
	if (d->copy)
		d->copy[0] = p[0];
	kunmap_atomic(p, KM_USER0);
}

void dev_fill_io(struct dev *d, bool fs)
{
	char *p = kmap_atomic(d->page, KM_USER1);

	d->copy = kmalloc(64, fs ? GFP_KERNEL : GFP_NOIO);	// EXPECT: sleep
	if (d->copy)
		d->copy[0] = p[0];
	kunmap_atomic(p, KM_USER1);
}
