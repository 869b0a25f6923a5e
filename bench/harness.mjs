// Pieces shared by the benchmarks in bench/: CPU accounting per process group from /proc, killing
// a child's process group, and the loopback-only guard on load targets.
import { readdir, readFile } from 'node:fs/promises';

/**
 * CPU time (user + system, in ticks of 1/100 s) of every process group a bench started, of the
 * bench process itself (autocannon), and of the whole machine (/proc/stat): what is left is the
 * work of other processes, which skews a run. Linux only; undefined elsewhere.
 */
export async function cpuSnapshot(groupLeaders) {
  try {
    const stat = await readFile('/proc/stat', 'utf8');
    const [user, nice, system, , , irq, softirq, steal] = stat
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const busy = user + nice + system + irq + softirq + (steal ?? 0);
    const processes = [];
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const text = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => undefined);
      if (!text) continue;
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      processes.push({
        pid: Number(entry),
        ppid: Number(fields[1]),
        pgrp: Number(fields[2]),
        // utime + stime, plus cutime + cstime: the CPU of children it has reaped (a PostgreSQL
        // backend that exits during a run is then still counted, by the postmaster).
        ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
      });
    }
    // A process counts for the group it is in, or for the group of an ancestor: PostgreSQL's
    // backends leave their parent's group (setsid), but not its tree.
    const byPid = new Map(processes.map((p) => [p.pid, p]));
    const leaders = new Set(groupLeaders);
    const ownerOf = (p) => {
      for (let at = p, hops = 0; at && hops < 64; at = byPid.get(at.ppid), hops++)
        if (leaders.has(at.pgrp)) return at.pgrp;
      return undefined;
    };
    let ours = 0;
    const byGroup = Object.fromEntries(groupLeaders.map((leader) => [leader, 0]));
    let self = 0;
    for (const p of processes) {
      const owner = p.pid === process.pid ? 'self' : ownerOf(p);
      if (owner === 'self') self += p.ticks;
      else if (owner !== undefined) byGroup[owner] += p.ticks;
      else continue;
      ours += p.ticks;
    }
    return { at: process.hrtime.bigint(), busy, ours, byGroup, self };
  } catch {
    return undefined;
  }
}

/** Kills a started child's whole process group (PostgreSQL's backends included). */
export function killGroup(child) {
  try {
    process.kill(-child.proc.pid, 'SIGKILL');
  } catch {
    /* the group is already gone */
  }
}

/** Load is only ever pointed at this machine's own loopback address. */
export function assertLoopback(url) {
  const { hostname } = new URL(url);
  if (hostname !== '127.0.0.1')
    throw new Error(`refusing to load ${url}: only 127.0.0.1 targets are allowed`);
}
