import { readdir, readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';

/**
 * CPU time used during a run by this node process (the local runtime, its pollers and the bench)
 * and by DynamoDB Local's JVM (a child of this process), as a share of one core. Linux only for the
 * JVM (read from /proc); elsewhere its share is left out.
 */

export interface CpuShare {
  /** CPU time / wall time, percent of one core. */
  nodePercent: number;
  javaPercent: number | undefined;
  /** The machine's 1-minute load average at the end (other processes compete for the same cores). */
  loadAverage: number;
}

/** Linux reports process times in clock ticks of 1/100 s on every common configuration. */
const ticksPerSecond = 100;

/** utime + stime of `pid` in ms, from /proc/<pid>/stat. */
const procCpuMs = async (pid: number): Promise<number | undefined> => {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After "pid (comm) ": state is field 3, utime 14 and stime 15 (1-based): indexes 11 and 12 here.
    return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1000;
  } catch {
    return undefined;
  }
};

/** The java child of this process (DynamoDB Local), if there is one and /proc exists. */
const findJavaChild = async (): Promise<number | undefined> => {
  try {
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === 'java' && ppid === process.pid) return Number(entry);
    }
  } catch {
    // No /proc: not Linux.
  }
  return undefined;
};

export interface CpuMeter {
  /** The share since the meter started (or since the last call to `restart`). */
  read(): Promise<CpuShare>;
  restart(): Promise<void>;
}

export const meterCpu = async (): Promise<CpuMeter> => {
  const javaPid = await findJavaChild();
  let wall = performance.now();
  let node = process.cpuUsage();
  let java = javaPid === undefined ? undefined : await procCpuMs(javaPid);
  return {
    async restart() {
      wall = performance.now();
      node = process.cpuUsage();
      java = javaPid === undefined ? undefined : await procCpuMs(javaPid);
    },
    async read() {
      const elapsed = performance.now() - wall;
      const used = process.cpuUsage(node);
      const javaNow = javaPid === undefined ? undefined : await procCpuMs(javaPid);
      return {
        nodePercent: ((used.user + used.system) / 1000 / elapsed) * 100,
        javaPercent: javaNow === undefined || java === undefined ? undefined : ((javaNow - java) / elapsed) * 100,
        loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
      };
    },
  };
};
