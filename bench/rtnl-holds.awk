# SPDX-License-Identifier: GPL-2.0
# The rtnl holds in a trace of the kprobe events nictlbench/rtnl_locked
# (rtnl_lock() returning: the caller is printed "(caller+off/size [module]
# <- rtnl_lock)") and nictlbench/rtnl_unlock: each rtnl_locked line opens a
# hold of its task, the next rtnl_unlock of that task closes it. Prints
# "<holds> <us> <holds from nictl> <us from nictl> <longest from nictl, us>".
# Used by bench/rtnl-hold-guest.sh and bench/dump-scale-guest.sh.
!match($0, /-[0-9]+ +\[/) { next }
{ pid = substr($0, RSTART + 1, RLENGTH - 1); sub(/ +\[/, "", pid) }
!match($0, / [0-9]+\.[0-9]+: /) { next }
{ t = substr($0, RSTART + 1, RLENGTH - 3) * 1e6 }
/ rtnl_locked: / { start[pid] = t; own[pid] = /\[nictl\]/; next }
/ rtnl_unlock: / && (pid in start) {
	held = t - start[pid]
	n++; us += held
	if (own[pid]) { nn++; nus += held; if (held > max) max = held }
	delete start[pid]
}
END { printf "%d %.0f %d %.0f %.0f\n", n, us, nn, nus, max }
