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

/** Starts the jobs; the function it returns stops them and waits for rounds under way. */
export function startJobs(jobs: Job[], log: (line: string) => void): () => Promise<void> {
  const running = new Set<Promise<void>>();
  const timers = jobs.map((job) => {
    let busy = false;
    const tick = () => {
      if (busy) return; // a slow round is never overlapped by the next one
      busy = true;
      const round = (async () => {
        try {
          const said = await job.run();
          if (said) log(said);
        } catch (error) {
          log(`${job.name} falló: ${(error as Error).message ?? String(error)}`);
        } finally {
          busy = false;
        }
      })();
      running.add(round);
      void round.finally(() => running.delete(round));
    };
    if (job.runAtStart) tick();
    const timer = setInterval(tick, job.everyMs);
    timer.unref();
    return timer;
  });
  return async () => {
    for (const timer of timers) clearInterval(timer);
    await Promise.allSettled([...running]);
  };
}
