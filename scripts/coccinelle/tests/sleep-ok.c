// SPDX-License-Identifier: GPL-2.0
// Must leave alone: sleeping before the map and after the unmap, an
// atomic allocation and an _inatomic copy under the map.
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

struct dev {
	struct page *page;
	struct mutex lock;	/* serialises the copies */
	void *copy;
};

int dev_read(struct dev *d, void __user *ubuf, size_t len)
{
	char *p;
	unsigned long left;

	mutex_lock(&d->lock);
	p = kmap_atomic(d->page, KM_USER0);
	left = __copy_to_user_inatomic(ubuf, p, len);
	d->copy = kmalloc(64, GFP_ATOMIC);
	kunmap_atomic(p, KM_USER0);
	mutex_unlock(&d->lock);
	if (left && copy_to_user(ubuf, page_address(d->page), len))
		return -EFAULT;
	msleep(20);
	return 0;
}

void dev_poll(struct dev *d)
{
	int i;

	for (i = 0; i < 10; i++) {
		u32 *p = kmap_atomic(d->page, KM_USER1);
		bool done = p[0];

		kunmap_atomic(p, KM_USER1);
		if (done)
			break;
		msleep(20);
	}
}

/* A GFP mask that does not sleep, even with modifiers. */
void dev_grow(struct dev *d)
{
	char *p = kmap_atomic(d->page, KM_USER0);

	d->copy = kzalloc(PAGE_SIZE, GFP_ATOMIC | __GFP_NOWARN);
	kunmap_atomic(p, KM_USER0);
}

/* A choice with a branch that does not sleep: maybe atomic, not found. */
void dev_fill(struct dev *d, bool atomic, bool big)
{
	char *p = kmap_atomic(d->page, KM_USER0);

	d->copy = kmalloc(64, atomic ? GFP_ATOMIC : (big ? GFP_KERNEL : GFP_NOIO));
	if (d->copy)
		d->copy[0] = p[0];
	kunmap_atomic(p, KM_USER0);
}

/*
 * Masks that do not sleep: a choice inside a cast or a call, a choice
 * whose atomic branch has modifiers, and reclaim masked off (2.6's
 * GFP_KERNEL & ~__GFP_WAIT).
 */
void dev_fill_cast(struct dev *d, bool atomic)
{
	char *p = kmap_atomic(d->page, KM_USER0);

	d->copy = kmalloc(64, (__force gfp_t)(atomic ? GFP_ATOMIC : GFP_KERNEL));
	d->copy = kmalloc(64, atomic ? GFP_ATOMIC | __GFP_NOWARN : GFP_KERNEL);
	d->copy = kmalloc(64, pick_gfp(atomic ? GFP_ATOMIC : GFP_KERNEL));
	kunmap_atomic(p, KM_USER0);
}

void dev_fill_noreclaim(struct dev *d, gfp_t gfp)
{
	char *p = kmap_atomic(d->page, KM_USER1);

	d->copy = kmalloc(64, GFP_KERNEL & ~__GFP_DIRECT_RECLAIM);
	d->copy = kmalloc(64, gfp & ~__GFP_DIRECT_RECLAIM);
	d->copy = kmalloc(64, GFP_KERNEL & ~__GFP_WAIT);
	kunmap_atomic(p, KM_USER1);
}
