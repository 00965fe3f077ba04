# With MEM above 4 GiB, RAM lies above 4 GiB physical and is highmem.
above=0
for r in $(sed -n 's/^ *\([0-9a-f]*\)-\([0-9a-f]*\) : System RAM$/\1:\2/p' /proc/iomem); do
	s=$((0x${r%:*})) e=$((0x${r#*:}))
	[ $e -lt $((1 << 32)) ] && continue
	[ $s -lt $((1 << 32)) ] && s=$((1 << 32))
	above=$((above + (e - s + 1) / 1024))
done
high=$(awk '/^HighTotal:/ { print $2 }' /proc/meminfo)
echo "MEM=$MEM: HighTotal ${high:-0} kB, System RAM above 4 GiB $above kB"
if [ "$MEM_MIB" -le 4096 ]; then
	echo "MEM=$MEM puts no RAM above 4 GiB"
	exit 4
fi
[ "$above" -gt 0 ] && [ "${high:-0}" -ge "$above" ]
