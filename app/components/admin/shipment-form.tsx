import { useState } from "react";
import { DEFAULT_CARRIERS, OTHER_CARRIER } from "~/settings/carriers";

const DEFAULT_NAMES = DEFAULT_CARRIERS.map((c) => c.name);

/**
 * Carrier (from the list, or 'Otra' with its name) and tracking number. The fields are not marked
 * required for the browser: the server answers the spec's 'Por favor completa todos los campos.'.
 */
export function ShipmentFields({
  idPrefix,
  carrier,
  trackingNumber,
  errorId,
  carriers = DEFAULT_NAMES,
  withoutTracking,
}: {
  idPrefix: string;
  /** The carriers' names from Configuración. */
  carriers?: readonly string[];
  carrier?: string | null;
  trackingNumber?: string | null;
  /** The id of the form's error message, while there is one. */
  errorId?: string;
  /** Only the carrier (several orders at once: each has its own tracking number). */
  withoutTracking?: boolean;
}) {
  const invalid = errorId ? { "aria-invalid": true, "aria-describedby": errorId } : {};
  const known = carriers.some((name) => name === carrier);
  const [choice, setChoice] = useState(carrier ? (known ? carrier : OTHER_CARRIER) : "");
  const field = "mt-1 min-h-11 w-full rounded border border-ink/30 bg-white px-3";
  return (
    <div className="space-y-4">
      <div>
        <label htmlFor={`${idPrefix}-carrier`} className="block text-sm font-medium">
          Paquetería
        </label>
        <select
          id={`${idPrefix}-carrier`}
          name="carrier"
          value={choice}
          onChange={(e) => setChoice(e.target.value)}
          className={field}
          {...invalid}
        >
          <option value="">Elige una paquetería</option>
          {carriers.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
          <option value={OTHER_CARRIER}>{OTHER_CARRIER}</option>
        </select>
      </div>
      {choice === OTHER_CARRIER && (
        <div>
          <label htmlFor={`${idPrefix}-other`} className="block text-sm font-medium">
            Nombre de la paquetería
          </label>
          <input
            id={`${idPrefix}-other`}
            name="otherCarrier"
            defaultValue={known ? "" : (carrier ?? "")}
            maxLength={60}
            className={field}
            {...invalid}
          />
        </div>
      )}
      {!withoutTracking && (
        <div>
          <label htmlFor={`${idPrefix}-tracking`} className="block text-sm font-medium">
            Número de guía
          </label>
          <input
            id={`${idPrefix}-tracking`}
            name="trackingNumber"
            defaultValue={trackingNumber ?? ""}
            autoComplete="off"
            maxLength={60}
            className={field}
            {...invalid}
          />
        </div>
      )}
    </div>
  );
}
