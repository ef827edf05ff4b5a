import { useEffect, useId, useRef } from "react";
import { dialogOpened, SessionEndedNotice } from "./session-ended";

/**
 * A modal `<dialog>` in the page while `open`: the title names it, the element given
 * `descriptionId` describes it, and Escape (or the dialog's own close handling) calls `onClose`.
 */
export function Modal({
  open,
  title,
  onClose,
  alert,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  /** A destructive confirmation: announced as an alert dialog. */
  alert?: boolean;
  children: (ids: { descriptionId: string }) => React.ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  useEffect(() => {
    if (!open) return;
    // Closed (Cancelar, Escape, done), focus goes back to what opened it, not to the page's top.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    const closed = dialogOpened();
    return () => {
      closed();
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);
  // Only an open dialog is in the page: a list of orders does not carry a form for each of them.
  if (!open) return null;
  return (
    <dialog
      ref={ref}
      role={alert ? "alertdialog" : undefined}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onClose={onClose}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl bg-cream p-6 text-ink shadow-xl backdrop:bg-black/50"
    >
      <SessionEndedNotice inDialog />
      <h2 id={titleId} className="font-serif text-2xl">
        {title}
      </h2>
      {children({ descriptionId })}
    </dialog>
  );
}

/** Asks before something that cannot be undone; 'Cancelar' and Escape keep things as they are. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  dismissLabel = "Cancelar",
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: React.ReactNode;
  confirmLabel: string;
  /** The button that keeps things as they are ('Cancelar' unless that word is the action's own). */
  dismissLabel?: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal open={open} title={title} onClose={onClose} alert>
      {({ descriptionId }) => (
        <>
          <div id={descriptionId} className="mt-3 text-ink/80">
            {children}
          </div>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <button type="button" onClick={onClose} className="min-h-11 rounded-full border border-ink px-5">
              {dismissLabel}
            </button>
            <button
              type="button"
              onClick={onConfirm}
              className="min-h-11 rounded-full bg-red-800 px-5 font-medium text-white"
            >
              {confirmLabel}
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
