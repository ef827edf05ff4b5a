import { useEffect, useId, useRef, useState } from "react";
import { useDeskFetcher } from "./desk-fetcher";
import { Modal } from "./modal";
import { ShipmentFields } from "./shipment-form";

const button = "min-h-11 rounded-full px-5 text-sm font-medium";
const field = "mt-1 min-h-11 w-full rounded border border-ink/30 bg-white px-3";

/** Where the batch is posted: the list's own action. */
export const BULK_SHIP_ACTION = "/admin/orders";
/** The batch's intent; its success is said by the page's DeskNotice, its refusal in the dialog. */
export const BULK_SHIP_INTENT = "atenderlote";

/**
 * 'Atender seleccionados': one carrier for every order, then a tracking number per selected
 * order, or a pasted (or uploaded) CSV of "pedido,guía" lines. All are shipped, or none.
 */
export function BulkShipDialog({
  open,
  onClose,
  onShipped,
  selected,
  carriers,
}: {
  open: boolean;
  onClose: () => void;
  onShipped: () => void;
  /** The selected orders, in the list's order; empty: CSV only. */
  selected: readonly string[];
  carriers: readonly string[];
}) {
  const fetcher = useDeskFetcher();
  const [mode, setMode] = useState<"seleccion" | "csv">(selected.length > 0 ? "seleccion" : "csv");
  const [csv, setCsv] = useState("");
  const [fileError, setFileError] = useState("");
  const errorId = useId();
  const sent = useRef(false);
  const idle = fetcher.state === "idle" ? fetcher.data : undefined;
  const answer = idle?.intent === BULK_SHIP_INTENT ? idle : undefined;
  useEffect(() => {
    if (!sent.current || !answer) return;
    sent.current = false;
    if (answer.ok) onShipped();
  }, [answer, onShipped]);
  // The desk's fetcher keeps its last answer: a refusal is shown only for this opening's own submit.
  const [submitted, setSubmitted] = useState(false);
  useEffect(() => {
    if (open) setMode(selected.length > 0 ? "seleccion" : "csv");
    if (open) setSubmitted(false);
  }, [open, selected.length]);
  const failed = submitted && answer && !answer.ok ? answer : undefined;
  const readFile = async (file: File | undefined) => {
    setFileError("");
    if (!file) return;
    if (file.size > 100_000) {
      setFileError("El archivo es demasiado grande (máximo 100 KB).");
      return;
    }
    setCsv(await file.text());
  };
  return (
    <Modal open={open} title="Atender seleccionados" onClose={onClose}>
      {({ descriptionId }) => (
        <>
          <p id={descriptionId} className="mt-2 text-sm text-ink/75">
            Todos van con la misma paquetería. Se marcan como enviados todos o ninguno, y cada cliente recibe
            un correo con su guía.
          </p>
          <fetcher.Form
            method="post"
            action={BULK_SHIP_ACTION}
            noValidate
            className="mt-4 space-y-4"
            onSubmit={() => {
              sent.current = true;
              setSubmitted(true);
            }}
          >
            <input type="hidden" name="intent" value={BULK_SHIP_INTENT} />
            <ShipmentFields idPrefix="bulk" carriers={carriers} withoutTracking />
            <fieldset>
              <legend className="text-sm font-medium">Números de guía</legend>
              <div className="mt-1 flex flex-wrap gap-4 text-sm">
                <label className="flex min-h-11 items-center gap-2">
                  <input
                    type="radio"
                    name="modo"
                    checked={mode === "seleccion"}
                    disabled={selected.length === 0}
                    onChange={() => setMode("seleccion")}
                  />
                  Uno por pedido seleccionado
                </label>
                <label className="flex min-h-11 items-center gap-2">
                  <input type="radio" name="modo" checked={mode === "csv"} onChange={() => setMode("csv")} />
                  Pegar o subir CSV
                </label>
              </div>
            </fieldset>
            {mode === "seleccion" ? (
              <ul className="space-y-2">
                {selected.map((orderId) => (
                  <li key={orderId}>
                    <input type="hidden" name="pedido" value={orderId} />
                    <label htmlFor={`bulk-guia-${orderId}`} className="block text-sm">
                      Guía de <span className="font-mono">{orderId}</span>
                    </label>
                    <input
                      id={`bulk-guia-${orderId}`}
                      name="guia"
                      autoComplete="off"
                      maxLength={60}
                      className={field}
                    />
                  </li>
                ))}
              </ul>
            ) : (
              <div className="space-y-2">
                <label htmlFor="bulk-csv" className="block text-sm font-medium">
                  Líneas «pedido,guía»
                </label>
                <textarea
                  id="bulk-csv"
                  name="csv"
                  rows={8}
                  value={csv}
                  onChange={(e) => setCsv(e.target.value)}
                  placeholder={"pedido,guía\nOL-ABCD2345,8052123456"}
                  aria-describedby={`${errorId}-hint`}
                  className="mt-1 w-full rounded border border-ink/30 bg-white p-3 font-mono text-sm"
                />
                <p id={`${errorId}-hint`} className="text-xs text-ink/75">
                  Un pedido por línea; el encabezado es opcional. Se admiten coma, punto y coma o tabulador.
                </p>
                <label htmlFor="bulk-file" className="block text-sm font-medium">
                  O sube un archivo CSV
                </label>
                <input
                  id="bulk-file"
                  type="file"
                  accept=".csv,.txt,text/csv,text/plain"
                  onChange={(e) => void readFile(e.target.files?.[0])}
                  className="block min-h-11 w-full text-sm"
                />
                {fileError && (
                  <p role="alert" className="text-sm text-red-800">
                    {fileError}
                  </p>
                )}
              </div>
            )}
            {failed && (
              <div id={errorId} role="alert" className="rounded bg-red-50 px-3 py-2 text-sm text-red-800">
                <p className="font-medium">{failed.message}</p>
                {failed.problems && failed.problems.length > 0 && (
                  <ul className="mt-1 list-disc space-y-1 pl-5">
                    {failed.problems.map((problem) => (
                      <li key={problem}>{problem}</li>
                    ))}
                  </ul>
                )}
              </div>
            )}
            <div className="flex flex-wrap justify-end gap-3">
              <button type="button" onClick={onClose} className={`${button} border border-ink`}>
                Cancelar
              </button>
              <button
                type="submit"
                disabled={fetcher.state !== "idle"}
                className={`${button} bg-ink text-cream disabled:opacity-60`}
              >
                Atender
              </button>
            </div>
          </fetcher.Form>
        </>
      )}
    </Modal>
  );
}
