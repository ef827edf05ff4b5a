import { log, outsideRequests } from "~/config/log.server";

/** Why a sign-in step was refused: wrong credentials or code, limited, or the shop is busy. */
export type LoginRefusal = "invalido" | "limitado" | "ocupado";
const REFUSAL_WORDS: Record<LoginRefusal, string> = {
  invalido: "credenciales",
  limitado: "demasiados intentos",
  ocupado: "tienda ocupada",
};

/** Busy refusals come in floods: the first is logged, then one line each BUSY_LOG_MS says how many more. */
const BUSY_LOG_MS = 10_000;
let busyUnlogged = 0;
let busyTimer: ReturnType<typeof setTimeout> | null = null;

function flushBusyCount(): void {
  if (busyUnlogged === 0) {
    busyTimer = null;
    return;
  }
  log.warn(
    { more: busyUnlogged, seconds: BUSY_LOG_MS / 1000 },
    `Inicio de sesión rechazado (${REFUSAL_WORDS.ocupado}): varios más`,
  );
  busyUnlogged = 0;
  busyTimer = setTimeout(flushBusyCount, BUSY_LOG_MS);
  busyTimer.unref();
}

/**
 * One line per refused login, with the client's address (never the e-mail or password typed);
 * busy refusals after the first are only counted, so a flood cannot flood the log.
 */
export function logLoginRefusal(reason: LoginRefusal, address: string): void {
  if (reason === "ocupado" && busyTimer) {
    busyUnlogged++;
    return;
  }
  log.warn({ address }, `Inicio de sesión rechazado (${REFUSAL_WORDS[reason]})`);
  if (reason === "ocupado") {
    // Its count speaks for many requests: its line carries none's id.
    busyTimer = outsideRequests(() => setTimeout(flushBusyCount, BUSY_LOG_MS));
    busyTimer.unref();
  }
}
