import { toCsv } from "~/lib/csv";
import { shopDateTimeStamp } from "~/lib/dates";

/** One address on a drop's 'Avísame' list, as the owner sees it. */
export interface SignUpEntry {
  email: string;
  status: "pendiente" | "confirmada" | "baja";
  createdAt: Date;
  confirmedAt: Date | null;
  unsubscribedAt: Date | null;
  notifiedAt: Date | null;
}

export const SIGN_UP_STATUS_LABELS: Record<SignUpEntry["status"], string> = {
  pendiente: "Sin confirmar",
  confirmada: "Confirmada",
  baja: "Dada de baja",
};

export const SIGN_UP_CSV_HEADER = [
  "Correo",
  "Estado",
  "Registro",
  "Confirmación",
  "Baja",
  "Aviso de apertura",
] as const;

const stamp = (date: Date | null) => (date ? shopDateTimeStamp(date) : "");

/**
 * A drop's list as a spreadsheet: UTF-8 with a byte-order mark, Spanish headers, dates in Mexico
 * City time, every cell quoted and none run as a formula (toCsv).
 */
export function signUpsCsv(entries: readonly SignUpEntry[]): string {
  return toCsv([
    SIGN_UP_CSV_HEADER,
    ...entries.map((e) => [
      e.email,
      SIGN_UP_STATUS_LABELS[e.status],
      stamp(e.createdAt),
      stamp(e.confirmedAt),
      stamp(e.unsubscribedAt),
      stamp(e.notifiedAt),
    ]),
  ]);
}
