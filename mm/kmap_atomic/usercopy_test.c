// SPDX-License-Identifier: GPL-2.0
/*
 * A probe of CONFIG_HARDENED_USERCOPY over the typed atomic kmaps. A read
 * of /sys/kernel/debug/kmap_atomic_usercopy/page copies from a highmem
 * page, mapped with kmap_atomic(page, KM_USER0), to user space at the
 * file position with __copy_to_user_inatomic(), the copy 2.6 code makes
 * under an atomic kmap, and does not stop at the end of the page: the
 * bug of a driver's read that trusts the length it is given. A read inside the
 * page returns its bytes; one that runs past it must be stopped by
 * check_heap_object(), which asks is_kmap_addr() (a typed slot, or
 * kmap_local's where the typed forms map through it) and kills the
 * reading task with a BUG:
 *
 *   dd if=/sys/kernel/debug/kmap_atomic_usercopy/page bs=1024 skip=3 count=1
 *	(the page's last 1 KiB: read)
 *   dd if=/sys/kernel/debug/kmap_atomic_usercopy/page bs=3072 skip=1 count=1
 *	(3 KiB from offset 3072: "usercopy: Kernel memory exposure attempt
 *	detected from kmap (offset 3072, size 3072)!", and dd dies)
 */
#define pr_fmt(fmt) "kmap_atomic_usercopy: " fmt

#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/uaccess.h>

static struct page *page;
static struct dentry *dir;

static ssize_t page_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	unsigned long left;
	char *addr;

	if (*ppos >= PAGE_SIZE || !len)
		return 0;
	/* At most a page: an overrun reaches into the next fixmap page. */
	len = min_t(size_t, len, PAGE_SIZE);
	/* The copy runs with page faults off: fault the buffer in first. */
	if (!access_ok(buf, len) || fault_in_writeable(buf, len))
		return -EFAULT;
	addr = kmap_atomic(page, KM_USER0);
	/* Not clamped to the end of the page: the bug the check must stop. */
	left = __copy_to_user_inatomic(buf, addr + *ppos, len);
	kunmap_atomic(addr, KM_USER0);
	if (left == len)
		return -EFAULT;
	*ppos += len - left;
	return len - left;
}

static const struct file_operations page_fops = {
	.owner = THIS_MODULE,
	.read = page_read,
	.llseek = default_llseek,
};

static int __init kmap_atomic_usercopy_init(void)
{
	page = alloc_page(GFP_HIGHUSER);
	if (!page)
		return -ENOMEM;
	if (!PageHighMem(page)) {
		/* Loaded all the same, so that a test boot without highmem goes on. */
		pr_info("no highmem page: a lowmem page takes no slot, so there is no probe\n");
		__free_page(page);
		page = NULL;
		return 0;
	}
	memset_page(page, 0, 0x5a, PAGE_SIZE);
	dir = debugfs_create_dir("kmap_atomic_usercopy", NULL);
	/*
	 * Unsafe: no debugfs_file_get() around a read, which the BUG ends
	 * without its put, so that the module could never be removed;
	 * .owner keeps the module while the file is open.
	 */
	debugfs_create_file_unsafe("page", 0400, dir, NULL, &page_fops);
	return 0;
}
module_init(kmap_atomic_usercopy_init);

static void __exit kmap_atomic_usercopy_exit(void)
{
	debugfs_remove_recursive(dir);
	if (page)
		__free_page(page);
}
module_exit(kmap_atomic_usercopy_exit);

MODULE_DESCRIPTION("Hardened usercopy probe of the typed atomic kmaps");
MODULE_LICENSE("GPL");
