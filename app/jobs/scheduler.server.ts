/*
 * Background work of an app server: one timer per job, none of them keeping the process alive.
 * Every job is safe when several app servers run it at once (each claims its rows with a
 * conditional update), so each server simply runs them all.
 */

export interface Job {
  name: string;
  everyMs: number;
  /** Also run once right after start-up. */
  runAtStart?: boolean;
  /** Returns a line to log when it did something worth saying. */
  run(): Promise<string | null | undefined>;
}

export function startJobs(jobs: Job[], log: (line: string) => void): () => void {
  const timers = jobs.map((job) => {
    let running = false;
    const tick = async () => {
      if (running) return; // a slow round is never overlapped by the next one
      running = true;
      try {
        const said = await job.run();
        if (said) log(said);
      } catch (error) {
        log(`${job.name} falló: ${(error as Error).message ?? String(error)}`);
      } finally {
        running = false;
      }
    };
    if (job.runAtStart) void tick();
    const timer = setInterval(tick, job.everyMs);
    timer.unref();
    return timer;
  });
  return () => {
    for (const timer of timers) clearInterval(timer);
  };
}
