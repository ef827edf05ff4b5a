import { log, outsideRequests } from "~/config/log.server";

/**
 * Why a sign-in step was refused: wrong credentials or code, limited, the shop is busy, or a
 * proof of work is asked for first (decision 32).
 */
export type LoginRefusal = "invalido" | "limitado" | "ocupado" | "prueba";
const REFUSAL_WORDS: Record<LoginRefusal, string> = {
  invalido: "credenciales",
  limitado: "demasiados intentos",
  ocupado: "tienda ocupada",
  prueba: "falta prueba de trabajo",
};

/** The refusals that come in floods: the first is logged, then one line each FLOOD_LOG_MS says how many more. */
type Flood = "ocupado" | "prueba";
const FLOOD_LOG_MS = 10_000;
const unlogged: Record<Flood, number> = { ocupado: 0, prueba: 0 };
const timers: Record<Flood, ReturnType<typeof setTimeout> | null> = { ocupado: null, prueba: null };

function flushCount(reason: Flood): void {
  if (unlogged[reason] === 0) {
    timers[reason] = null;
    return;
  }
  log.warn(
    { more: unlogged[reason], seconds: FLOOD_LOG_MS / 1000 },
    `Inicio de sesión rechazado (${REFUSAL_WORDS[reason]}): varios más`,
  );
  unlogged[reason] = 0;
  timers[reason] = setTimeout(() => flushCount(reason), FLOOD_LOG_MS);
  timers[reason].unref();
}

/**
 * One line per refused login, with the client's address (never the e-mail or password typed);
 * busy refusals (and those asking for a proof) after the first are only counted, so a flood
 * cannot flood the log.
 */
export function logLoginRefusal(reason: LoginRefusal, address: string): void {
  const flood = reason === "ocupado" || reason === "prueba" ? reason : null;
  if (flood && timers[flood]) {
    unlogged[flood]++;
    return;
  }
  log.warn({ address }, `Inicio de sesión rechazado (${REFUSAL_WORDS[reason]})`);
  if (flood) {
    // Its count speaks for many requests: its line carries none's id.
    const timer = outsideRequests(() => setTimeout(() => flushCount(flood), FLOOD_LOG_MS));
    timer.unref();
    timers[flood] = timer;
  }
}
