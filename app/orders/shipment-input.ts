import { z } from "zod";
import { safeText } from "~/lib/text";
import { type Carrier, DEFAULT_CARRIERS, OTHER_CARRIER } from "~/settings/carriers";

/** The spec's message when carrier or tracking number is missing. */
export const INCOMPLETE_SHIPMENT = "Por favor completa todos los campos.";

/** A tracking number as carriers print them: 3 to 60 letters or digits, with - . / # and spaces. */
export const TRACKING_NUMBER = /^[\p{L}\p{N}\- ./#]{3,60}$/u;
export const INVALID_TRACKING =
  "El número de guía debe tener de 3 a 60 letras o números (se admiten - . / #).";

/**
 * The 'Atender pedido' form (and the tracking correction): a carrier from the list (Configuración's),
 * or 'Otra' with its name, and a tracking number. Returns the carrier's name and the number, trimmed.
 */
export const shipmentInputFor = (carriers: readonly Carrier[]) =>
  z
    .object({
      // No control characters (NUL included) in anything typed by the owner.
      carrier: safeText({ label: "Paquetería" }),
      otherCarrier: safeText({ label: "Paquetería" }).optional().default(""),
      trackingNumber: safeText({ label: "Número de guía" }),
    })
    .superRefine((value, ctx) => {
      const carrier = value.carrier === OTHER_CARRIER ? value.otherCarrier : value.carrier;
      if (!carrier || !value.trackingNumber) {
        ctx.addIssue({ code: "custom", message: INCOMPLETE_SHIPMENT });
        return;
      }
      if (value.carrier !== OTHER_CARRIER && !carriers.some((c) => c.name === value.carrier)) {
        ctx.addIssue({ code: "custom", message: "Elige una paquetería de la lista, u 'Otra'." });
      }
      if (carrier.length > 60) {
        ctx.addIssue({
          code: "custom",
          message: "El nombre de la paquetería no es válido (máximo 60 caracteres).",
        });
      }
      if (!TRACKING_NUMBER.test(value.trackingNumber)) {
        ctx.addIssue({ code: "custom", message: INVALID_TRACKING });
      }
    })
    .transform((value) => ({
      carrier: value.carrier === OTHER_CARRIER ? value.otherCarrier : value.carrier,
      trackingNumber: value.trackingNumber,
    }));

export const shipmentInput = shipmentInputFor(DEFAULT_CARRIERS);

export type ShipmentInput = z.output<typeof shipmentInput>;
