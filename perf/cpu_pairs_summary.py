#!/usr/bin/env python3
"""Medians and paired ratios of perf/cpu_pairs.sh output: CPU s, user, system, faults; base/this per repetition."""
import sys, statistics as st, collections
rows=collections.defaultdict(dict)
for line in open(sys.argv[1]):
    f=line.split()
    r,name=f[0],f[1]; tc,pf,u,s=float(f[2]),int(f[3]),float(f[4])/1e9,float(f[5])/1e9
    rows[name][r]=(tc/1000,pf,u,s,f[6])
base=sys.argv[2]
for name,d in rows.items():
    tcs=[v[0] for v in d.values()]
    print(f"{name:14s} cpu med {st.median(tcs):.2f} s  user {st.median([v[2] for v in d.values()]):.2f} sys {st.median([v[3] for v in d.values()]):.2f} faults {st.median([v[1] for v in d.values()])}", end='')
    if name!=base:
        ratios=[rows[base][r][0]/d[r][0] for r in d if r in rows[base]]
        print(f"  base/this paired med {st.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})", end='')
        if 'sha1sum' in rows and name!='sha1sum':
            rr=[rows['sha1sum'][r][0]/d[r][0] for r in d]
            print(f"  sha1sum/this {st.median(rr):.2f} ({min(rr):.2f}-{max(rr):.2f})", end='')
    print()
loads = sorted(float(v[4].split("=")[1]) for d in rows.values() for v in d.values())
print(f"load {loads[0]}-{loads[-1]}")
