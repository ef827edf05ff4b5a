import cluster from "node:cluster";
import { AggregatorRegistry, Counter, Histogram, Registry } from "prom-client";

/*
 * The shop's counters (decision 28): how long answers take, and per drop how its checkouts went.
 * One registry of the shop's own (nothing of the process or the machine): /metrics serves it in
 * Prometheus' text format and the admin's live opening page reads the same numbers. Callers use
 * the small functions below and never touch prom-client.
 *
 * With several processes (WEB_CONCURRENCY, decision 13) each one counts its own answers; the
 * primary (server.js) adds them up with prom-client's AggregatorRegistry when one worker asks
 * (`shopMetrics`), over a small IPC exchange with a timeout.
 */

export type AnswerKind = "checkout" | "page" | "api" | "admin" | "other";

/** What became of one checkout request. */
export type CheckoutOutcome = "held" | "queued" | "refused";

/**
 * The drop label of a checkout that names no drop the shop could read (a refusal before its body
 * was read, a body that is not a cart).
 */
export const NO_DROP = "ninguna";
/** The drop label once `MAX_DROPS` distinct drops were counted: the label's values stay bounded. */
export const OTHER_DROPS = "otras";
/**
 * Distinct drops one process labels. Ids come from the checkout's body, checked for their shape
 * only on a refusal: a script could invent a new one per request, and each would be a new series.
 */
export const MAX_DROPS = 200;

/** Buckets of the answer times, in seconds: fine enough to tell a p99 from 1 ms to 5 s. */
export const ANSWER_BUCKETS = [
  0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1,
  1.5, 2, 3, 5, 10,
];

export const METRIC_NAMES = {
  answers: "tienda_respuesta_segundos",
  started: "tienda_checkouts_iniciados_total",
  held: "tienda_checkouts_apartados_total",
  queued: "tienda_checkouts_en_fila_total",
  refused: "tienda_checkouts_rechazados_total",
  paid: "tienda_pedidos_pagados_total",
  pageRenders: "tienda_paginas_dibujadas_total",
  storedPages: "tienda_paginas_guardadas_servidas_total",
} as const;

const registry = new Registry();

const answers = new Histogram({
  name: METRIC_NAMES.answers,
  help: "Tiempo de cada respuesta de la tienda, en segundos, por tipo de petición.",
  labelNames: ["kind"] as const,
  buckets: ANSWER_BUCKETS,
  registers: [registry],
});
const started = new Counter({
  name: METRIC_NAMES.started,
  help: "Checkouts pedidos, por colección.",
  labelNames: ["drop"] as const,
  registers: [registry],
});
const held = new Counter({
  name: METRIC_NAMES.held,
  help: "Checkouts que apartaron sus piezas, por colección.",
  labelNames: ["drop"] as const,
  registers: [registry],
});
const queued = new Counter({
  name: METRIC_NAMES.queued,
  help: "Checkouts enviados a la fila (respuesta 202), por colección.",
  labelNames: ["drop"] as const,
  registers: [registry],
});
const refused = new Counter({
  name: METRIC_NAMES.refused,
  help: "Checkouts rechazados, por colección y motivo.",
  labelNames: ["drop", "reason"] as const,
  registers: [registry],
});
const paid = new Counter({
  name: METRIC_NAMES.paid,
  help: "Pedidos pagados, por colección.",
  labelNames: ["drop"] as const,
  registers: [registry],
});

const pageRenders = new Counter({
  name: METRIC_NAMES.pageRenders,
  help: "Páginas de la caché dibujadas, por hilo: 'aparte' (el de las páginas) o 'principal' (el que responde).",
  labelNames: ["hilo"] as const,
  registers: [registry],
});

// Counted in a plain number and read when the counters are asked for: on drop day tens of
// thousands a second, each answered in microseconds (decision 12).
let storedPagesServed = 0;
new Counter({
  name: METRIC_NAMES.storedPages,
  help: "Páginas servidas de la caché antes de Express (no se cronometran: cada una toma microsegundos).",
  registers: [registry],
  collect() {
    this.reset();
    this.inc(storedPagesServed);
  },
});

const dropsSeen = new Set<string>();
const DROP_ID = /^[A-Za-z0-9_-]{1,64}$/;
const REASON = /^[a-z_]{1,40}$/;

function dropLabel(id: string, confirmed: boolean): string {
  if (!DROP_ID.test(id)) return NO_DROP;
  if (dropsSeen.has(id)) return id;
  // An id only read from a request's body (no drop of the shop said it exists) takes no label of
  // its own: invented ones would fill the labels, and the real drop would count under 'otras'.
  if (!confirmed) return NO_DROP;
  if (dropsSeen.size >= MAX_DROPS) return OTHER_DROPS;
  dropsSeen.add(id);
  return id;
}

function dropLabels(dropIds: readonly string[], confirmed = true): string[] {
  const labels = new Set(dropIds.map((id) => dropLabel(id, confirmed)));
  return labels.size === 0 ? [NO_DROP] : [...labels];
}

/** Which kind of request a path is, for the answer-time histogram. */
export function answerKind(path: string): AnswerKind {
  if (path === "/api/checkout") return "checkout";
  if (path.startsWith("/admin")) return "admin";
  if (path.startsWith("/api/")) return "api";
  // Built assets, media, /healthz, /metrics, robots and the sitemap: not pages a shopper waits for.
  if (/^\/(assets|media|healthz|metrics|favicon|fonts)\b/.test(path) || /\.[a-z0-9]+$/i.test(path)) {
    // A page's data request (/coleccion/x.data) is the page itself.
    return path.endsWith(".data") ? "page" : "other";
  }
  return "page";
}

// One child per kind, made once: observing through it skips hashing the labels on every answer.
const answersOf: Record<AnswerKind, { observe(seconds: number): void }> = {
  checkout: answers.labels("checkout"),
  page: answers.labels("page"),
  api: answers.labels("api"),
  admin: answers.labels("admin"),
  other: answers.labels("other"),
};

/** A page of the page cache was rendered, on the render thread ("aparte") or the answering one. */
export function recordPageRender(thread: "aparte" | "principal"): void {
  pageRenders.inc({ hilo: thread });
}

/** A page was answered from the page cache by the front door (server/fast-path.ts). */
export function recordStoredPageServed(): void {
  storedPagesServed++;
}

/** One answer took `seconds`. */
export function recordAnswer(kind: AnswerKind, seconds: number): void {
  answersOf[kind].observe(seconds);
}

/**
 * One checkout request was answered: it counts as started for every drop of its cart, and as
 * held, queued or refused (with the reason's code: the checkout's own, e.g. sin_stock, or the
 * request's, e.g. limite, verificacion).
 */
export function recordCheckout(
  dropIds: readonly string[],
  outcome: CheckoutOutcome,
  reason?: string,
  /** False: ids read from the body only (a refusal before the cart was read), labelled only if known. */
  confirmed = true,
): void {
  for (const drop of dropLabels(dropIds, confirmed)) {
    started.inc({ drop });
    if (outcome === "held") held.inc({ drop });
    else if (outcome === "queued") queued.inc({ drop });
    else refused.inc({ drop, reason: reason && REASON.test(reason) ? reason : "otro" });
  }
}

/** A place in a drop's line got its turn and held its pieces (its checkout was counted when it took the place). */
export function recordTurnHeld(dropIds: readonly string[]): void {
  for (const drop of dropLabels(dropIds)) held.inc({ drop });
}

/** A place in a drop's line ended without pieces (gone, or past the opening's pieces per address). */
export function recordTurnRefused(dropId: string, reason: string): void {
  for (const drop of dropLabels([dropId]))
    refused.inc({ drop, reason: REASON.test(reason) ? reason : "otro" });
}

/** One order was paid: counted once for each drop its pieces come from. */
export function recordPaid(dropIds: readonly string[]): void {
  for (const drop of dropLabels(dropIds)) paid.inc({ drop });
}

/** The content type of the text `shopMetricsText` answers. */
export const METRICS_CONTENT_TYPE = registry.contentType;

// ---- The whole shop's numbers, across the processes of a cluster ----

/** Messages between a worker and the primary (server.js answers them). */
export const METRICS_ASK = "tienda-metricas:pedir";
export const METRICS_ANSWER = "tienda-metricas:respuesta";
export const METRICS_COLLECT = "tienda-metricas:reunir";
export const METRICS_LOCAL = "tienda-metricas:locales";

/** How long a worker waits for the primary's sum before it gives up (the primary waits less). */
const ASK_TIMEOUT_MS = 2_000;

/** prom-client's JSON form of a registry's metrics (what travels between the processes). */
export type MetricsJson = Awaited<ReturnType<Registry["getMetricsAsJSON"]>>;

const pending = new Map<number, { resolve(metrics: MetricsJson): void; reject(error: Error): void }>();
let asked = 0;

if (cluster.isWorker) {
  process.on("message", (message: { type?: string; id?: number; metrics?: MetricsJson; error?: string }) => {
    if (message?.type === METRICS_COLLECT) {
      // The primary gathers every worker's own numbers.
      void registry.getMetricsAsJSON().then(
        (metrics) => process.send?.({ type: METRICS_LOCAL, id: message.id, metrics }),
        (error: Error) => process.send?.({ type: METRICS_LOCAL, id: message.id, error: error.message }),
      );
      return;
    }
    if (message?.type === METRICS_ANSWER && typeof message.id === "number") {
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.metrics) waiting.resolve(message.metrics);
      else waiting.reject(new Error(message.error ?? "sin respuesta"));
    }
  });
}

/** The primary's sum of every worker's numbers. */
function askPrimary(): Promise<MetricsJson> {
  const id = ++asked;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error("El proceso principal no respondió a tiempo."));
    }, ASK_TIMEOUT_MS);
    pending.set(id, {
      resolve: (metrics) => {
        clearTimeout(timer);
        resolve(metrics);
      },
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    });
    process.send?.({ type: METRICS_ASK, id });
  });
}

/** The whole shop's counters as prom-client's JSON: this process's alone, or the cluster's sum. */
export async function shopMetrics(): Promise<MetricsJson> {
  if (cluster.isWorker && process.connected) return askPrimary();
  return registry.getMetricsAsJSON();
}

/** The whole shop's counters in Prometheus' text format. */
export async function shopMetricsText(): Promise<string> {
  if (cluster.isWorker && process.connected) {
    return AggregatorRegistry.aggregate([await askPrimary()]).metrics();
  }
  return registry.metrics();
}

// ---- What the live opening page reads of them ----

/** One drop's checkout counters and the shop's answer-time buckets, at one instant. */
export interface DropFigures {
  started: number;
  held: number;
  queued: number;
  paid: number;
  /** Refusals by reason code. */
  refused: Record<string, number>;
  /** Cumulative counts of shoppers' answers (checkouts, pages, api) at or under each bound (s). */
  answerBuckets: { le: number; count: number }[];
  /** All of those answers (the +Inf bucket). */
  answers: number;
}

const SHOPPER_KINDS = new Set<string>(["checkout", "page", "api"]);

/** Picks one drop's figures out of the shop's metrics (`shopMetrics`). */
export function dropFigures(metrics: MetricsJson, dropId: string): DropFigures {
  const byName = new Map(metrics.map((m) => [m.name, m]));
  const sumFor = (name: string) =>
    (byName.get(name)?.values ?? [])
      .filter((v) => v.labels.drop === dropId)
      .reduce((total, v) => total + v.value, 0);
  const refusedByReason: Record<string, number> = {};
  for (const v of byName.get(METRIC_NAMES.refused)?.values ?? []) {
    if (v.labels.drop !== dropId) continue;
    const reason = String(v.labels.reason ?? "otro");
    refusedByReason[reason] = (refusedByReason[reason] ?? 0) + v.value;
  }
  const buckets = new Map<number, number>();
  let total = 0;
  for (const v of byName.get(METRIC_NAMES.answers)?.values ?? []) {
    const name = (v as { metricName?: string }).metricName;
    if (name !== `${METRIC_NAMES.answers}_bucket` || !SHOPPER_KINDS.has(String(v.labels.kind))) continue;
    if (v.labels.le === "+Inf") {
      total += v.value;
      continue;
    }
    const le = Number(v.labels.le);
    buckets.set(le, (buckets.get(le) ?? 0) + v.value);
  }
  return {
    started: sumFor(METRIC_NAMES.started),
    held: sumFor(METRIC_NAMES.held),
    queued: sumFor(METRIC_NAMES.queued),
    paid: sumFor(METRIC_NAMES.paid),
    refused: refusedByReason,
    answerBuckets: [...buckets].sort(([a], [b]) => a - b).map(([le, count]) => ({ le, count })),
    answers: total,
  };
}
