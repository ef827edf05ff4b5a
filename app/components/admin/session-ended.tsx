import { useSyncExternalStore } from "react";
import { isRouteErrorResponse, useLocation } from "react-router";

/*
 * A save after the administrator's session ended (it lasts hours; a long product description can
 * take longer) used to replace the page with "Tu sesión terminó": what she typed was gone. Admin
 * forms post through `keepFormWhenSessionEnds` instead: the server's 401 leaves the page as it is,
 * with a notice above it and a sign-in link for another tab; she signs in there, comes back and
 * saves again. Answered as a 401 so nothing on the page is reloaded (a reload would need the
 * session too and go to the sign-in page, taking the form with it).
 */

let ended = false;
/** Modal dialogs open: the rest of the page is inert then, so the notice shows in the dialog. */
let dialogsOpen = 0;
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

function setEnded(value: boolean): void {
  if (ended === value) return;
  ended = value;
  changed();
}

/** A modal dialog opened (its cleanup: closed). */
export function dialogOpened(): () => void {
  dialogsOpen++;
  changed();
  return () => {
    dialogsOpen--;
    changed();
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** An admin route's `clientAction`: its server action, with a session that ended answered in place. */
export async function keepFormWhenSessionEnds<T>({ serverAction }: { serverAction: () => Promise<T> }) {
  try {
    const answer = await serverAction();
    setEnded(false);
    return answer;
  } catch (error) {
    if (isRouteErrorResponse(error) && error.status === 401) {
      setEnded(true);
      // A 401 answer with no data (a Response, not `data()`: that helper would add to every
      // storefront page's JavaScript, which is at its budget).
      return new Response(null, { status: 401 });
    }
    // Any other answer (a save's redirect arrives thrown too) took the session.
    setEnded(false);
    throw error;
  }
}

/** Whether the last save found the session ended. */
export function sessionEnded(): boolean {
  return ended;
}

/** An admin page loaded with the session (signed in again in this tab): the notice is over. */
export function sessionIsBack(): void {
  setEnded(false);
}

/**
 * Above every admin page, and in an open modal dialog (`inDialog`): said while the last save
 * found the session ended.
 */
export function SessionEndedNotice({ inDialog = false }: { inDialog?: boolean }) {
  const shown = useSyncExternalStore(
    subscribe,
    () => ended && (inDialog || dialogsOpen === 0),
    () => false,
  );
  const { pathname, search } = useLocation();
  if (!shown) return null;
  return (
    <div
      role="alert"
      className="sticky top-0 z-20 mb-4 rounded border border-red-800/40 bg-red-50 p-4 text-sm text-red-900"
    >
      <p className="font-medium">Tu sesión terminó y no se guardó nada.</p>
      <p className="mt-1">
        Lo que escribiste sigue en esta página. Inicia sesión en otra pestaña, vuelve aquí y guarda de nuevo.
      </p>
      <a
        href={`/login?redirectTo=${encodeURIComponent(`${pathname}${search}`)}`}
        target="_blank"
        rel="noopener"
        className="mt-2 inline-block underline"
      >
        Iniciar sesión en otra pestaña
      </a>
    </div>
  );
}
