/*
 * Shoppers for the fault tests: checkouts and demo payments over real HTTP, and a pool of
 * shoppers that keeps requests in flight until the server under them is killed.
 */

export interface CartLine {
  product: { id: string };
  dropId: string;
  quantity: number;
}

export interface Answer {
  status: number;
  /** The JSON body, or the redirect's location for a form post. */
  body: { url?: string; message?: string; outcome?: string };
  location: string | null;
}

/** POST /api/checkout with the drawer's JSON, as the shop's own page sends it. */
export async function checkout(server: string, cart: CartLine[], origin = true): Promise<Answer> {
  const res = await fetch(`${server}/api/checkout`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(origin ? { origin: server } : {}) },
    body: JSON.stringify({ cart }),
  });
  const text = await res.text();
  let body: Answer["body"] = {};
  try {
    body = JSON.parse(text) as Answer["body"];
  } catch {
    body = { message: text.slice(0, 200) };
  }
  return { status: res.status, body, location: res.headers.get("location") };
}

/** The order id of a checkout's payment address (/pago-demo/OL-… or the fake Stripe page). */
export function orderIdOf(answer: Answer): string {
  return answer.body.url?.split("/").pop() ?? "";
}

/** A form post to the demo payment page (pay or cancel), without following its redirect. */
export async function demoPage(
  server: string,
  orderId: string,
  fields: Record<string, string>,
): Promise<Answer> {
  const res = await fetch(`${server}/pago-demo/${orderId}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server },
    body: new URLSearchParams(fields),
  });
  const text = await res.text();
  return { status: res.status, body: { message: text.slice(0, 200) }, location: res.headers.get("location") };
}

export interface Burst<T> {
  /** Jobs whose answer arrived whole, with it (also those answered just before the kill). */
  answered: { job: T; answer: Answer }[];
  /** Jobs whose request was cut by the kill (or sent after it): their outcome is unknown. */
  cut: T[];
  /** Jobs never sent. */
  unsent: T[];
}

/**
 * `workers` shoppers take jobs one after another, each always with one request in flight; once
 * `killAfter` answers pass `counts`, `kill` is called at once (while the other requests are still
 * being served) and every shopper stops at its first failed request. Bounded by the jobs given.
 */
export async function burstUntilKilled<T>(options: {
  jobs: T[];
  workers: number;
  send: (job: T) => Promise<Answer>;
  counts: (answer: Answer) => boolean;
  killAfter: number;
  kill: () => Promise<void>;
}): Promise<Burst<T> & { killed: boolean }> {
  const queue = [...options.jobs];
  const result: Burst<T> = { answered: [], cut: [], unsent: [] };
  let counted = 0;
  let killing: Promise<void> | undefined;
  const worker = async () => {
    for (;;) {
      const job = queue.shift();
      if (job === undefined) return;
      try {
        const answer = await options.send(job);
        result.answered.push({ job, answer });
        if (options.counts(answer) && ++counted === options.killAfter) killing = options.kill();
      } catch {
        result.cut.push(job);
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
  await killing;
  result.unsent = queue;
  return { ...result, killed: killing !== undefined };
}
