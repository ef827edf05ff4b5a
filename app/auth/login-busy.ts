/**
 * What a sign-in refused because the shop as a whole is busy says (the shop-wide ceiling on failed
 * logins, or a full line for password hashing). It tells nothing about any account or address, so
 * unlike the other refusals it says what happened.
 */

/** "30 segundos", "1 minuto", "2 minutos". */
function waitWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? "1 segundo" : `${seconds} segundos`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minuto" : `${minutes} minutos`;
}

export function busyMessage(retryAfterSeconds: number): string {
  return `Hay demasiados intentos de inicio de sesión en este momento. Intenta de nuevo en ${waitWords(retryAfterSeconds)}.`;
}

/**
 * A small page with the message and a way back to the form, for answering a flood of posted forms
 * without rendering the login page for each (no scripts, no styles, nothing that varies but the wait).
 */
export function busyPage(retryAfterSeconds: number): string {
  return `<!doctype html><html lang="es-MX"><meta charset="utf-8"><meta name="robots" content="noindex"><title>Iniciar sesión</title><h1>Iniciar sesión</h1><p role="alert">${busyMessage(retryAfterSeconds)}</p><p><a href="/login">Volver a intentar</a></p></html>`;
}

/**
 * What a sign-in form says when an unknown device must bring a proof of work first (decision 32).
 * With JavaScript the page solves one and sends the form again on its own; without it, this is
 * what stays on screen.
 */
export function proofMessage(retryAfterSeconds: number): string {
  return `Hay muchos intentos de inicio de sesión en este momento: para continuar desde este dispositivo, tu navegador debe resolver una verificación. Activa JavaScript, o intenta de nuevo en ${waitWords(retryAfterSeconds)}.`;
}
