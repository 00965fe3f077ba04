# Every CPU that SMP asked for is online.
n=$(grep -c '^processor' /proc/cpuinfo)
online=$(cat /sys/devices/system/cpu/online)
echo "SMP=$SMP: $n CPUs in /proc/cpuinfo, online $online"
want=0
[ "$SMP" -gt 1 ] && want=0-$((SMP - 1))
[ "$n" -eq "$SMP" ] && [ "$online" = "$want" ]
