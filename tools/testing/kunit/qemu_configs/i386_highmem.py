# SPDX-License-Identifier: GPL-2.0
#
# i386 with PAE highmem for the typed atomic kmap suites: 6 GiB puts
# highmem above 4 GiB physical, 4 CPUs give every per-CPU slot a user.
# Use it with kunit.py's --qemu_config and the kunitconfig
# tools/testing/kunit/configs/kmap_atomic.config (Documentation/mm/kmap-atomic.rst).
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='i386',
			   kconfig='''
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_HIGHMEM64G=y
CONFIG_SMP=y
CONFIG_NR_CPUS=8''',
			   qemu_arch='i386',
			   kernel_path='arch/x86/boot/bzImage',
			   kernel_command_line='console=ttyS0',
			   # TCG's "max" CPU calls itself AMD, which 32-bit SMP
			   # warns about; -m given again overrides kunit.py's 1024.
			   extra_qemu_params=['-cpu', 'max,vendor=GenuineIntel',
					      '-smp', '4', '-m', '6G'])
