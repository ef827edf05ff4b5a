import type { RfcKind } from "./rfc";

/*
 * The SAT's catalogues a CFDI 4.0's receptor is described with (Anexo 20, catálogos c_RegimenFiscal
 * and c_UsoCFDI, as in force for CFDI 4.0): each régimen fiscal with whether it applies to a persona
 * física, a persona moral or both, and each uso de CFDI with the people it applies to and the
 * receptor's régimenes it may be used with ("Régimen Fiscal Receptor"). Pure data and lookups.
 */

export interface Regimen {
  code: string;
  description: string;
  fisica: boolean;
  moral: boolean;
}

export const REGIMENES: readonly Regimen[] = [
  { code: "601", description: "General de Ley Personas Morales", fisica: false, moral: true },
  { code: "603", description: "Personas Morales con Fines no Lucrativos", fisica: false, moral: true },
  {
    code: "605",
    description: "Sueldos y Salarios e Ingresos Asimilados a Salarios",
    fisica: true,
    moral: false,
  },
  { code: "606", description: "Arrendamiento", fisica: true, moral: false },
  { code: "607", description: "Régimen de Enajenación o Adquisición de Bienes", fisica: true, moral: false },
  { code: "608", description: "Demás ingresos", fisica: true, moral: false },
  {
    code: "610",
    description: "Residentes en el Extranjero sin Establecimiento Permanente en México",
    fisica: true,
    moral: true,
  },
  { code: "611", description: "Ingresos por Dividendos (socios y accionistas)", fisica: true, moral: false },
  {
    code: "612",
    description: "Personas Físicas con Actividades Empresariales y Profesionales",
    fisica: true,
    moral: false,
  },
  { code: "614", description: "Ingresos por intereses", fisica: true, moral: false },
  {
    code: "615",
    description: "Régimen de los ingresos por obtención de premios",
    fisica: true,
    moral: false,
  },
  { code: "616", description: "Sin obligaciones fiscales", fisica: true, moral: false },
  {
    code: "620",
    description: "Sociedades Cooperativas de Producción que optan por diferir sus ingresos",
    fisica: false,
    moral: true,
  },
  { code: "621", description: "Incorporación Fiscal", fisica: true, moral: false },
  {
    code: "622",
    description: "Actividades Agrícolas, Ganaderas, Silvícolas y Pesqueras",
    fisica: false,
    moral: true,
  },
  { code: "623", description: "Opcional para Grupos de Sociedades", fisica: false, moral: true },
  { code: "624", description: "Coordinados", fisica: false, moral: true },
  {
    code: "625",
    description: "Régimen de las Actividades Empresariales con ingresos a través de Plataformas Tecnológicas",
    fisica: true,
    moral: false,
  },
  { code: "626", description: "Régimen Simplificado de Confianza", fisica: true, moral: true },
];

export interface Uso {
  code: string;
  description: string;
  fisica: boolean;
  moral: boolean;
  /** The receptor's régimenes this uso may be used with. */
  regimenes: readonly string[];
  /**
   * Whether a sale's invoice (an ingreso) may carry it: CP01 belongs to payment receipts and CN01
   * to payroll, never to a purchase.
   */
  forSales: boolean;
}

/** Businesses' régimenes: purchases, investments and "sin efectos fiscales" go with these. */
const BUSINESS = ["601", "603", "606", "612", "620", "621", "622", "623", "624", "625", "626"] as const;
/** A persona física's personal deductions (the D uses) go with these. */
const DEDUCTIONS = ["605", "606", "608", "611", "612", "614", "607", "615", "625"] as const;
/** S01 and CP01: every régimen but 609 (gone). */
const EVERY = [
  "601",
  "603",
  "605",
  "606",
  "608",
  "610",
  "611",
  "612",
  "614",
  "616",
  "620",
  "621",
  "622",
  "623",
  "624",
  "607",
  "615",
  "625",
  "626",
] as const;

const business = (code: string, description: string): Uso => ({
  code,
  description,
  fisica: true,
  moral: true,
  regimenes: BUSINESS,
  forSales: true,
});
const deduction = (code: string, description: string): Uso => ({
  code,
  description,
  fisica: true,
  moral: false,
  regimenes: DEDUCTIONS,
  forSales: true,
});

export const USOS: readonly Uso[] = [
  business("G01", "Adquisición de mercancías"),
  business("G02", "Devoluciones, descuentos o bonificaciones"),
  business("G03", "Gastos en general"),
  business("I01", "Construcciones"),
  business("I02", "Mobiliario y equipo de oficina por inversiones"),
  business("I03", "Equipo de transporte"),
  business("I04", "Equipo de computo y accesorios"),
  business("I05", "Dados, troqueles, moldes, matrices y herramental"),
  business("I06", "Comunicaciones telefónicas"),
  business("I07", "Comunicaciones satelitales"),
  business("I08", "Otra maquinaria y equipo"),
  deduction("D01", "Honorarios médicos, dentales y gastos hospitalarios"),
  deduction("D02", "Gastos médicos por incapacidad o discapacidad"),
  deduction("D03", "Gastos funerales"),
  deduction("D04", "Donativos"),
  deduction("D05", "Intereses reales efectivamente pagados por créditos hipotecarios (casa habitación)"),
  deduction("D06", "Aportaciones voluntarias al SAR"),
  deduction("D07", "Primas por seguros de gastos médicos"),
  deduction("D08", "Gastos de transportación escolar obligatoria"),
  deduction("D09", "Depósitos en cuentas para el ahorro, primas que tengan como base planes de pensiones"),
  deduction("D10", "Pagos por servicios educativos (colegiaturas)"),
  {
    code: "S01",
    description: "Sin efectos fiscales",
    fisica: true,
    moral: true,
    regimenes: EVERY,
    forSales: true,
  },
  { code: "CP01", description: "Pagos", fisica: true, moral: true, regimenes: EVERY, forSales: false },
  { code: "CN01", description: "Nómina", fisica: true, moral: false, regimenes: ["605"], forSales: false },
];

export function regimenOf(code: string): Regimen | null {
  return REGIMENES.find((r) => r.code === code) ?? null;
}

export function usoOf(code: string): Uso | null {
  return USOS.find((u) => u.code === code) ?? null;
}

/** "612 · Personas Físicas con Actividades Empresariales y Profesionales" */
export function catalogueLabel(entry: { code: string; description: string }): string {
  return `${entry.code} · ${entry.description}`;
}

/** Whether a régimen applies to an RFC of this kind. */
export function regimenFits(regimen: Regimen, kind: RfcKind): boolean {
  return kind === "fisica" ? regimen.fisica : regimen.moral;
}

/** Whether a uso may go on a sale's invoice to this kind of RFC under this régimen. */
export function usoFits(uso: Uso, regimen: Regimen, kind: RfcKind): boolean {
  return uso.forSales && (kind === "fisica" ? uso.fisica : uso.moral) && uso.regimenes.includes(regimen.code);
}

/** The usos a sale's invoice may carry under a régimen (for an RFC of this kind). */
export function usosFor(regimenCode: string, kind: RfcKind): Uso[] {
  const regimen = regimenOf(regimenCode);
  return regimen ? USOS.filter((u) => usoFits(u, regimen, kind)) : [];
}

/**
 * What is wrong with a régimen and uso for an RFC of this kind (field and Spanish message), or
 * null when the SAT's catalogue allows them together.
 */
export function catalogueProblem(
  regimenCode: string,
  usoCode: string,
  kind: RfcKind,
): { field: "regimen" | "uso"; message: string } | null {
  const regimen = regimenOf(regimenCode);
  if (!regimen) return { field: "regimen", message: "Elige tu régimen fiscal de la lista." };
  const person = kind === "fisica" ? "una persona física" : "una persona moral";
  if (!regimenFits(regimen, kind)) {
    return {
      field: "regimen",
      message: `El régimen ${regimen.code} no corresponde a ${person} (RFC de ${kind === "fisica" ? 13 : 12} caracteres). Elige el de tu Constancia de Situación Fiscal.`,
    };
  }
  const uso = usoOf(usoCode);
  if (!uso?.forSales) return { field: "uso", message: "Elige el uso del CFDI de la lista." };
  if (!usoFits(uso, regimen, kind)) {
    const allowed = usosFor(regimen.code, kind).map((u) => u.code);
    return {
      field: "uso",
      message: `El uso ${uso.code} no se puede usar con el régimen ${regimen.code}. Con tu régimen: ${allowed.join(", ")}.`,
    };
  }
  return null;
}
