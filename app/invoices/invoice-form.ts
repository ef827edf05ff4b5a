import { z } from "zod";
import { safeText } from "~/lib/text";
import { checkRfc, normalizeRfc, type RfcKind } from "./rfc";
import { catalogueProblem } from "./sat-catalogues";

/*
 * The 'Requiero factura' form (CFDI 4.0's receptor): the same schema checks it in the browser
 * (Conform) and on the server, each message in Spanish for its own field.
 */

/**
 * A company's type of society after its name ('S.A. de C.V.', 'S. de R.L. de C.V.', 'S.C.', 'A.C.',
 * 'S.A.P.I. de C.V.', 'S.A.S.'): CFDI 4.0 takes the name without it.
 */
const SOCIETY_SUFFIX =
  /[\s,]+(?:S\.?\s*A\.?\s*P\.?\s*I\.?|S\.?\s*A\.?\s*B\.?|S\.?\s*A\.?\s*S\.?|S\.?\s*A\.?|S\.?\s*DE\s*R\.?\s*L\.?|S\.?\s*C\.?|A\.?\s*C\.?|S\.?\s*C\.?\s*P\.?)(?:\s+DE\s+C\.?\s*V\.?)?\.?$/;

/**
 * The name or razón social as the SAT has it: upper case, single spaces and, for a persona moral,
 * without its type of society.
 */
export function taxName(raw: string, kind: RfcKind | null): string {
  const upper = raw.normalize("NFC").toUpperCase().replace(/\s+/g, " ").trim();
  return kind === "moral" ? upper.replace(SOCIETY_SUFFIX, "").trim() : upper;
}

export const invoiceRequestSchema = z
  .object({
    rfc: safeText({ label: "RFC", error: "Escribe tu RFC." })
      .max(30, "El RFC tiene 12 o 13 caracteres.")
      .transform(normalizeRfc)
      .superRefine((value, ctx) => {
        const checked = checkRfc(value);
        if (!checked.ok) ctx.addIssue({ code: "custom", message: checked.message });
      }),
    nombre: safeText({
      label: "Nombre o razón social",
      error: "Escribe tu nombre o razón social como aparece en tu Constancia de Situación Fiscal.",
    })
      .min(3, "Escribe tu nombre o razón social como aparece en tu Constancia de Situación Fiscal.")
      // Counted as it is stored, in capitals: "ß" is written "SS", so a name can grow.
      .refine(
        (value) => taxName(value, null).length <= 254,
        "El nombre o razón social tiene a lo más 254 caracteres.",
      ),
    codigoPostal: safeText({ error: "Escribe el código postal de tu domicilio fiscal." })
      .regex(/^\d{5}$/, "El código postal tiene 5 números, como en tu Constancia.")
      .refine((value) => !value.startsWith("00"), "Ese código postal no existe en México."),
    regimen: z.string({ error: "Elige tu régimen fiscal." }),
    uso: z.string({ error: "Elige el uso del CFDI." }),
    correo: safeText({ error: "Escribe el correo al que te enviamos la factura." })
      .max(200, "Escribe un correo válido.")
      .pipe(z.email("Escribe un correo válido.")),
  })
  .superRefine((value, ctx) => {
    const checked = checkRfc(value.rfc);
    if (!checked.ok) return;
    const problem = catalogueProblem(value.regimen, value.uso, checked.kind);
    if (problem) ctx.addIssue({ code: "custom", path: [problem.field], message: problem.message });
  })
  .transform((value) => {
    const checked = checkRfc(value.rfc);
    const kind = checked.ok ? checked.kind : null;
    return { ...value, nombre: taxName(value.nombre, kind), correo: value.correo.toLowerCase() };
  });

export type InvoiceRequestInput = z.output<typeof invoiceRequestSchema>;
