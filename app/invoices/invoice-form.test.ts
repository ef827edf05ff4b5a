import { describe, expect, it } from "vitest";
import { invoiceRequestSchema, taxName } from "./invoice-form";
import { invoiceDeadline, invoiceWindowOpen, monthClosedMessage, shopMonth } from "./month-rule";
import { globalInvoiceCsv, invoiceRequestsCsv, splitIva } from "./sales";

const good = {
  rfc: "CACX7605101P8",
  nombre: "Xochilt Casas Chávez",
  codigoPostal: "36257",
  regimen: "612",
  uso: "G03",
  correo: "Xochilt@Example.mx",
};

const errorsOf = (input: Record<string, string | undefined>) => {
  const parsed = invoiceRequestSchema.safeParse(input);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("the 'Requiero factura' form", () => {
  it("takes a good request: the RFC and name as the SAT has them", () => {
    const parsed = invoiceRequestSchema.parse({ ...good, rfc: "cacx-760510-1p8" });
    expect(parsed).toEqual({
      rfc: "CACX7605101P8",
      nombre: "XOCHILT CASAS CHÁVEZ",
      codigoPostal: "36257",
      regimen: "612",
      uso: "G03",
      correo: "xochilt@example.mx",
    });
  });

  it("drops a company's type of society (CFDI 4.0 takes the name without it), never a person's name", () => {
    expect(taxName("Escuela Kemper Urgate, S.A. de C.V.", "moral")).toBe("ESCUELA KEMPER URGATE");
    expect(taxName("Taller  Luna S. de R.L. de C.V.", "moral")).toBe("TALLER LUNA");
    expect(taxName("Joyas del Sur SAPI de CV", "moral")).toBe("JOYAS DEL SUR");
    expect(taxName("Amigos del Arte A.C.", "moral")).toBe("AMIGOS DEL ARTE");
    expect(taxName("Rosa Isabel Sa", "fisica")).toBe("ROSA ISABEL SA");
    const company = invoiceRequestSchema.parse({
      ...good,
      rfc: "EKU9003173C9",
      nombre: "Escuela Kemper Urgate SA de CV",
      regimen: "601",
    });
    expect(company.nombre).toBe("ESCUELA KEMPER URGATE");
  });

  it("tells each bad field in Spanish, beside its own name", () => {
    expect(errorsOf({ ...good, rfc: "CACX7605101P9" }).rfc).toContain("dígito verificador");
    expect(errorsOf({ ...good, rfc: "XAXX010101000" }).rfc).toContain("RFC genérico");
    expect(errorsOf({ ...good, rfc: undefined }).rfc).toBe("Escribe tu RFC.");
    expect(errorsOf({ ...good, codigoPostal: "3625" }).codigoPostal).toContain("5 números");
    expect(errorsOf({ ...good, codigoPostal: "00123" }).codigoPostal).toContain("no existe");
    expect(errorsOf({ ...good, nombre: undefined }).nombre).toContain("Constancia de Situación Fiscal");
    expect(errorsOf({ ...good, correo: "no-es-correo" }).correo).toBe("Escribe un correo válido.");
    expect(errorsOf({ ...good, regimen: undefined }).regimen).toBe("Elige tu régimen fiscal.");
    // A persona física's RFC with a company's régimen; a uso the régimen does not allow.
    expect(errorsOf({ ...good, regimen: "601" }).regimen).toContain("persona física");
    expect(errorsOf({ ...good, regimen: "605", uso: "G03" }).uso).toContain(
      "no se puede usar con el régimen 605",
    );
    expect(errorsOf({ ...good, nombre: "Ana\u0000" }).nombre).toContain("caracteres no permitidos");
  });

  it("counts a name's length as it is stored, in capitals: one that grows past 254 is refused, not left to the database", () => {
    // 128 × "ß" is 256 letters once written "SS".
    expect(errorsOf({ ...good, nombre: "ß".repeat(128) }).nombre).toBe(
      "El nombre o razón social tiene a lo más 254 caracteres.",
    );
    expect(invoiceRequestSchema.parse({ ...good, nombre: "ß".repeat(127) }).nombre).toHaveLength(254);
  });
});

describe("the month rule (Mexico City's calendar)", () => {
  it("is open until the end of the month the buyer paid in, Mexico City time", () => {
    // 31 Oct 23:30 in Mexico City is already November in UTC: still October's sale.
    const paidAt = new Date("2026-11-01T05:30:00Z");
    expect(shopMonth(paidAt)).toBe("2026-10");
    expect(invoiceDeadline(paidAt).toISOString()).toBe("2026-11-01T06:00:00.000Z");
    expect(invoiceWindowOpen(paidAt, new Date("2026-11-01T05:59:59Z"))).toBe(true);
    expect(invoiceWindowOpen(paidAt, new Date("2026-11-01T06:00:00Z"))).toBe(false);
    const november = new Date("2026-11-03T18:00:00Z");
    expect(invoiceWindowOpen(november, new Date("2026-11-30T23:00:00Z"))).toBe(true);
    expect(invoiceWindowOpen(november, new Date("2026-12-01T06:00:00Z"))).toBe(false);
    expect(monthClosedMessage(november)).toContain("noviembre de 2026");
    expect(monthClosedMessage(november)).toContain("factura global");
  });
});

describe("the accountant's exports", () => {
  it("splits IVA (16 %) out of a price that includes it, to the centavo", () => {
    expect(splitIva(116_00)).toEqual({ subtotalCents: 100_00, ivaCents: 16_00 });
    expect(splitIva(380_000)).toEqual({ subtotalCents: 327_586, ivaCents: 52_414 });
    expect(splitIva(1)).toEqual({ subtotalCents: 1, ivaCents: 0 });
  });

  it("writes the requests and the global invoice's sales as safe CSV, with the month's total", () => {
    const paidAt = new Date("2026-11-03T18:00:00Z");
    const requests = invoiceRequestsCsv([
      {
        orderId: "OL-AAAA1111",
        paidAt,
        requestedAt: paidAt,
        rfc: "CACX7605101P8",
        name: '=HYPERLINK("x")',
        postalCode: "36257",
        regimen: "612",
        uso: "G03",
        email: "x@example.mx",
        totalCents: 116_00,
        paymentMethod: "oxxo",
        status: "recibida",
        reference: null,
      },
    ]);
    expect(requests).toContain('"612 · Personas Físicas con Actividades Empresariales y Profesionales"');
    expect(requests).toContain('"G03 · Gastos en general"');
    expect(requests).toContain('"\'=HYPERLINK(""x"")"');
    expect(requests).toContain('"100.00","16.00","116.00","Por timbrar",""');
    const global = globalInvoiceCsv([
      { orderId: "OL-BBBB2222", paidAt, totalCents: 116_00, shippingCents: 0, paymentMethod: null },
      {
        orderId: "OL-CCCC3333",
        paidAt,
        totalCents: 232_00,
        shippingCents: 150_00,
        paymentMethod: "spei",
        refundedCents: 58_00,
      },
    ]);
    // A sale's return refunds beside it, for the accountant; summed in the month's row.
    expect(global).toContain('"232.00","58.00"');
    expect(global).toContain(
      '"OL-BBBB2222","2026-11-03 12:00","04 · Tarjeta de crédito o 28 · Tarjeta de débito"',
    );
    // The card's kind, when the provider told it, is one code: credit 04, debit (or prepaid) 28.
    const cards = globalInvoiceCsv(
      (["credit", "debit", "prepaid", "unknown"] as const).map((cardFunding, i) => ({
        orderId: `OL-TARJ000${i}`,
        paidAt,
        totalCents: 116_00,
        shippingCents: 0,
        paymentMethod: null,
        cardFunding,
      })),
    );
    expect(cards).toContain('"OL-TARJ0000","2026-11-03 12:00","04 · Tarjeta de crédito",');
    expect(cards).toContain('"OL-TARJ0001","2026-11-03 12:00","28 · Tarjeta de débito",');
    expect(cards).toContain('"OL-TARJ0002","2026-11-03 12:00","28 · Tarjeta de débito",');
    expect(cards).toContain(
      '"OL-TARJ0003","2026-11-03 12:00","04 · Tarjeta de crédito o 28 · Tarjeta de débito",',
    );
    expect(global).toContain('"Total del mes","","2 ventas","","300.00","48.00","348.00","58.00"');
  });
});
